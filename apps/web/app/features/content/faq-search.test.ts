import { describe, expect, it } from 'vitest';
import { countQuestions, type FaqCategory, normalizeForSearch, searchFaq } from './faq-search.ts';

const entry = (question: string, answerText: string) => ({ question, answerText, answerHtml: `<p>${answerText}</p>` });

const faq: FaqCategory[] = [
  {
    category: 'Compra y pago',
    contents: [
      entry('¿Qué medios de pago aceptan?', 'Webpay Plus con hasta 6 cuotas.'),
      entry('¿Puedo anular?', 'Sí.'),
    ],
  },
  { category: 'Coberturas', contents: [entry('¿Cubren COVID-19?', 'Sí, como cualquier enfermedad.')] },
];

describe('searchFaq', () => {
  it('an empty or blank query keeps every question, with its original indices', () => {
    for (const query of ['', '   ']) {
      const result = searchFaq(faq, query);
      expect(countQuestions(result)).toBe(3);
      expect(result.map((group) => group.index)).toEqual([0, 1]);
    }
  });

  it('finds words in questions and in answers, ignoring case and accents', () => {
    expect(searchFaq(faq, 'QUE MEDIOS').map((g) => g.contents.map((c) => c.question))).toEqual([
      ['¿Qué medios de pago aceptan?'],
    ]);
    const byAnswer = searchFaq(faq, 'enfermedad');
    expect(byAnswer).toHaveLength(1);
    expect(byAnswer[0]?.index).toBe(1);
    expect(byAnswer[0]?.contents[0]?.index).toBe(0);
  });

  it('needs every word, in any order', () => {
    expect(countQuestions(searchFaq(faq, 'cuotas webpay'))).toBe(1);
    expect(countQuestions(searchFaq(faq, 'cuotas covid'))).toBe(0);
  });

  it('keeps the later question of a category with its own index', () => {
    const [group] = searchFaq(faq, 'anular');
    expect(group?.contents.map((c) => c.index)).toEqual([1]);
  });

  it('matches the category name too', () => {
    expect(countQuestions(searchFaq(faq, 'coberturas'))).toBe(1);
  });
});

describe('normalizeForSearch', () => {
  it('drops accents and the tilde of ñ, lowers case and collapses spaces', () => {
    expect(normalizeForSearch('  Año   ÉPOCA  ')).toBe('ano epoca');
  });
});
