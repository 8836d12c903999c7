import { htmlToText, sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import { type FaqCategory, maxQueryLength } from './faq-search.ts';

export type FaqData = { categories: FaqCategory[]; query: string };

/**
 * The FAQ of the company (spec §7 frequently-asked-questions) with every answer sanitised here, on the server, and
 * as plain text for the search; `?q=` is the search a visitor without JavaScript sent (the page filters with it).
 */
export async function loadFaq(context: LoadContext, request: Request): Promise<FaqData> {
  const answer = await serverApi(context).GET('/companies/{companyId}/frequently-asked-questions', {
    params: { path: { companyId: configuredCompanyId() } },
  });
  const faq = dataOrThrow(answer, 'Las preguntas frecuentes');
  const query = (new URL(request.url).searchParams.get('q') ?? '').slice(0, maxQueryLength);
  return {
    query,
    categories: faq.map((group) => ({
      category: group.category,
      contents: group.contents.map((entry) => ({
        question: entry.question,
        answerHtml: sanitizeHtml(entry.answer),
        answerText: htmlToText(entry.answer),
      })),
    })),
  };
}
