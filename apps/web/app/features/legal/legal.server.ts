import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import { type PreviewState, withPreviewFallback } from '#app/lib/preview.server.ts';
import type { LegalPageData, LegalPageSlug } from './types.ts';

/** `?version=3` of the page's URL: an earlier version (the one a buyer accepted), or none for the version in force. */
const versionOf = (request: Request) => {
  const value = new URL(request.url).searchParams.get('version');
  return value && /^\d{1,9}$/.test(value) ? Number(value) : undefined;
};

/**
 * /terminos, /politicas, /informacion-legal: the stored page (the version in force, or `?version=N` an earlier one),
 * its HTML sanitised here, and the seller's details.
 */
export async function loadLegalPage(
  context: LoadContext,
  request: Request,
  slug: LegalPageSlug,
): Promise<LegalPageData & { preview: PreviewState }> {
  const version = versionOf(request);
  // A console preview link that does not open this page: the page in force, and the banner says so.
  const { answer, preview } = await withPreviewFallback(request, (previewHeaders) =>
    serverApi(context).GET('/companies/{companyId}/legal-pages/{slug}', {
      params: { path: { companyId: configuredCompanyId(), slug }, query: version ? { version } : {} },
      ...previewHeaders,
    }),
  );
  const page = dataOrThrow(answer, 'La página');
  return { ...page, bodyHtml: sanitizeHtml(page.bodyHtml), preview };
}
