import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import * as repository from './repository.ts';

/**
 * The company's FAQ as the publishing model edits it (issue 25 item 7, kind `faq`, one key: `faq`): categories in
 * order, each with its questions in order. Answers are rich text, sanitised on save by the storefront's allow-list
 * (@travesia/domain/sanitize-html), so neither a draft nor the live table ever holds a script, an event handler or a
 * `javascript:` link; the storefront sanitises again when it renders.
 */
export const faqKey = 'faq';

const text = (max: number, empty: string) => z.string().trim().min(1, empty).max(max, `Máximo ${max} caracteres`);

export const faqBodySchema = z
  .object({
    categories: z
      .array(
        z
          .object({
            name: text(120, 'Escribe el nombre de la categoría'),
            questions: z
              .array(
                z
                  .object({
                    question: text(300, 'Escribe la pregunta'),
                    answer: z
                      .string()
                      .max(20_000, 'La respuesta es demasiado larga')
                      .transform((html) => sanitizeHtml(html).trim())
                      .pipe(z.string().min(1, 'Escribe la respuesta')),
                  })
                  .strict(),
              )
              .max(200),
          })
          .strict(),
      )
      .max(50)
      .refine(
        (categories) => new Set(categories.map((c) => c.name.toLowerCase())).size === categories.length,
        'Cada categoría puede aparecer una sola vez',
      ),
  })
  .strict();

export type FaqBody = z.infer<typeof faqBodySchema>;

async function readFaq(db: Database, key: string, companyId: number): Promise<FaqBody | undefined> {
  if (key !== faqKey) return undefined;
  const categories: FaqBody['categories'] = [];
  for (const entry of await repository.listFaqEntries(db, companyId)) {
    let category = categories.at(-1);
    if (category?.name !== entry.category) {
      category = { name: entry.category, questions: [] };
      categories.push(category);
    }
    category.questions.push({ question: entry.question, answer: entry.answer });
  }
  return { categories };
}

/** One line per change: categories added, removed or moved, questions added, removed, moved or reworded. */
export function describeFaq(before: FaqBody | null, after: FaqBody): string[] {
  const lines: string[] = [];
  const old = new Map((before?.categories ?? []).map((c, index) => [c.name, { ...c, index }]));
  const next = new Map(after.categories.map((c, index) => [c.name, { ...c, index }]));
  for (const name of old.keys()) if (!next.has(name)) lines.push(`Categoría «${name}» eliminada`);
  for (const [name, category] of next) {
    const was = old.get(name);
    if (!was) {
      lines.push(`Categoría «${name}» agregada (${category.questions.length} preguntas)`);
      continue;
    }
    if (was.index !== category.index) lines.push(`Categoría «${name}» movida a la posición ${category.index + 1}`);
    const oldQ = new Map(was.questions.map((q, index) => [q.question, { ...q, index }]));
    const newQ = new Map(category.questions.map((q, index) => [q.question, { ...q, index }]));
    for (const question of oldQ.keys()) if (!newQ.has(question)) lines.push(`«${question}» eliminada de «${name}»`);
    for (const [question, entry] of newQ) {
      const prior = oldQ.get(question);
      if (!prior) lines.push(`«${question}» agregada a «${name}»`);
      else {
        if (prior.answer !== entry.answer) lines.push(`Respuesta de «${question}» cambiada`);
        if (prior.index !== entry.index)
          lines.push(`«${question}» movida a la posición ${entry.index + 1} de «${name}»`);
      }
    }
  }
  return lines;
}

/** The kind's name and body shape (the same for every company). */
export const faqKind = { kind: 'faq', schema: faqBodySchema } as const;

/** The publishing kind of a company's FAQ (registered by workflows/publishing.ts). */
export const faqKindOf = (companyId: number) => ({
  ...faqKind,
  current: (db: Database, key: string) => readFaq(db, key, companyId),
  apply: (tx: Database, _key: string, body: FaqBody) => repository.replaceFaqEntries(tx, companyId, body.categories),
  cacheScopes: () => [`faq:${companyId}`],
  describe: async (_db: Database, _key: string, before: FaqBody | null, after: FaqBody) => describeFaq(before, after),
  // A preview link opens the storefront's /faq with the draft (the API's FAQ route answers it for that token only).
  previewPath: async () => ({ path: '/faq', scope: faqPreviewScope }),
});

/** What a FAQ preview token opens: the FAQ route's answer, nothing else. */
export const faqPreviewScope = 'faq';

/** A FAQ draft as the public route answers the live FAQ (spec §7: categories with their questions). */
export const faqAnswerOf = (body: FaqBody) =>
  body.categories.map((category) => ({
    category: category.name,
    contents: category.questions.map((entry) => ({ question: entry.question, answer: entry.answer })),
  }));
