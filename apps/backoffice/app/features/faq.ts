/**
 * «Preguntas frecuentes» (issue 25 item 7): the FAQ as the publishing model's kind `faq` (key `faq`,
 * apps/api/src/modules/content/faq-kind.ts) and its form. The form posts one field per category name, question and
 * answer (`categoria-<i>`, `pregunta-<i>-<j>`, `respuesta-<i>-<j>`); the order of the fields is the order of the FAQ.
 * Answers are HTML: the API sanitises them on save with the storefront's allow-list.
 */
import type { Role } from '#app/lib/contract.ts';
import type { Publication } from './publishing.ts';

export type FaqQuestion = { question: string; answer: string };
export type FaqCategory = { name: string; questions: FaqQuestion[] };
export type FaqBody = { categories: FaqCategory[] };

export type FaqItem = {
  live: FaqBody;
  draft: { body: FaqBody; version: number; updatedAt: string; updatedBy: string } | null;
  changes: string[];
  scheduled: Publication | null;
};

/** Who edits and publishes the FAQ (apps/api/src/modules/operators/guard.ts). */
export const faqEditors: readonly Role[] = ['admin', 'content'];

export const categoryField = (i: number) => `categoria-${i}`;
export const questionField = (i: number, j: number) => `pregunta-${i}-${j}`;
export const answerField = (i: number, j: number) => `respuesta-${i}-${j}`;

/** The FAQ the form posted, in the order of its fields; a blank question with a blank answer is dropped. */
export function faqFromForm(form: FormData): FaqBody {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const categories: FaqCategory[] = [];
  for (let i = 0; text(categoryField(i)) !== undefined; i += 1) {
    const questions: FaqQuestion[] = [];
    for (let j = 0; text(questionField(i, j)) !== undefined; j += 1) {
      const question = text(questionField(i, j))?.trim() ?? '';
      const answer = text(answerField(i, j))?.trim() ?? '';
      if (question || answer) questions.push({ question, answer });
    }
    categories.push({ name: text(categoryField(i))?.trim() ?? '', questions });
  }
  return { categories };
}

/** `items` with the one at `index` swapped with its neighbour (`-1` up, `1` down); the same list at an edge. */
export function moved<T>(items: T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length) return items;
  const next = [...items];
  [next[index], next[target]] = [next[target] as T, next[index] as T];
  return next;
}

/**
 * What an editing button does to the posted FAQ before it is saved: `subir:3`/`bajar:3` move category 3,
 * `subir:3:1`/`bajar:3:1` move its question 1, `agregar-pregunta:3` adds an empty question, `agregar-categoria` a
 * category, `quitar:3:1` removes a question. Anything else leaves it as posted.
 */
export function applyEdit(faq: FaqBody, edit: string): FaqBody {
  const [verb, a, b] = edit.split(':');
  const i = Number(a);
  const j = Number(b);
  const categories = faq.categories;
  const withCategory = (change: (category: FaqCategory) => FaqCategory) => ({
    categories: categories.map((category, index) => (index === i ? change(category) : category)),
  });
  if ((verb === 'subir' || verb === 'bajar') && b === undefined) {
    return { categories: moved(categories, i, verb === 'subir' ? -1 : 1) };
  }
  if (verb === 'subir' || verb === 'bajar') {
    return withCategory((c) => ({ ...c, questions: moved(c.questions, j, verb === 'subir' ? -1 : 1) }));
  }
  if (verb === 'agregar-pregunta') {
    return withCategory((c) => ({ ...c, questions: [...c.questions, { question: '', answer: '' }] }));
  }
  if (verb === 'quitar') return withCategory((c) => ({ ...c, questions: c.questions.filter((_, k) => k !== j) }));
  if (verb === 'agregar-categoria') return { categories: [...categories, { name: '', questions: [] }] };
  return faq;
}
