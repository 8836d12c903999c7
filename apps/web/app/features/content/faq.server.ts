import { htmlToText, sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import { type PreviewState, withPreviewFallback } from '#app/lib/preview.server.ts';
import { type FaqCategory, maxQueryLength } from './faq-search.ts';

/** `preview`: a console preview link's draft shown, a link that did not open (the live FAQ shown), or none. */
export type FaqData = { categories: FaqCategory[]; query: string; preview: PreviewState };

/**
 * The FAQ of the company (spec §7 frequently-asked-questions) with every answer sanitised here, on the server, and
 * as plain text for the search; `?q=` is the search a visitor without JavaScript sent (the page filters with it).
 */
export async function loadFaq(context: LoadContext, request: Request): Promise<FaqData> {
  // A link that does not open the FAQ (expired, another page's): the live FAQ, and the banner says so.
  const { answer, preview } = await withPreviewFallback(request, (previewHeaders) =>
    serverApi(context).GET('/companies/{companyId}/frequently-asked-questions', {
      params: { path: { companyId: configuredCompanyId() } },
      ...previewHeaders,
    }),
  );
  const faq = dataOrThrow(answer, 'Las preguntas frecuentes');
  const query = (new URL(request.url).searchParams.get('q') ?? '').slice(0, maxQueryLength);
  return {
    query,
    preview,
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
