import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import { previewParameter } from '#app/lib/preview.ts';
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
): Promise<LegalPageData & { preview: 'draft' | 'invalid' | null }> {
  const version = versionOf(request);
  const token = new URL(request.url).searchParams.get(previewParameter);
  const pageOf = (previewToken?: string) =>
    serverApi(context).GET('/companies/{companyId}/legal-pages/{slug}', {
      params: { path: { companyId: configuredCompanyId(), slug }, query: version ? { version } : {} },
      ...(previewToken ? { headers: { 'x-vista-previa': previewToken } } : {}),
    });
  const previewed = await pageOf(token ?? undefined);
  // A console preview link that does not open this page: the page in force, and the banner says so.
  const refused = token !== null && previewed.response.status === 403;
  const page = dataOrThrow(refused ? await pageOf() : previewed, 'La página');
  return {
    ...page,
    bodyHtml: sanitizeHtml(page.bodyHtml),
    preview: token === null ? null : refused ? 'invalid' : 'draft',
  };
}
