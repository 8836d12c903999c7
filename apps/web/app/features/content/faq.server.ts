import { htmlToText, sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import { previewParameter } from '#app/lib/preview.ts';
import { type FaqCategory, maxQueryLength } from './faq-search.ts';

/** `preview`: a console preview link's draft shown, a link that did not open (the live FAQ shown), or none. */
export type FaqData = { categories: FaqCategory[]; query: string; preview: 'draft' | 'invalid' | null };

/**
 * The FAQ of the company (spec §7 frequently-asked-questions) with every answer sanitised here, on the server, and
 * as plain text for the search; `?q=` is the search a visitor without JavaScript sent (the page filters with it).
 */
export async function loadFaq(context: LoadContext, request: Request): Promise<FaqData> {
  const token = new URL(request.url).searchParams.get(previewParameter);
  const faqOf = (previewToken?: string) =>
    serverApi(context).GET('/companies/{companyId}/frequently-asked-questions', {
      params: { path: { companyId: configuredCompanyId() } },
      ...(previewToken ? { headers: { 'x-vista-previa': previewToken } } : {}),
    });
  const previewed = await faqOf(token ?? undefined);
  // A link that does not open the FAQ (expired, another page's): the live FAQ, and the banner says so.
  const refused = token !== null && previewed.response.status === 403;
  const faq = dataOrThrow(refused ? await faqOf() : previewed, 'Las preguntas frecuentes');
  const query = (new URL(request.url).searchParams.get('q') ?? '').slice(0, maxQueryLength);
  return {
    query,
    preview: token === null ? null : refused ? 'invalid' : 'draft',
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
