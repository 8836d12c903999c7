import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { LegalPageData, LegalPageSlug } from './types.ts';

/** /terminos, /politicas, /informacion-legal: the stored page, its HTML sanitised here, and the seller's details. */
export async function loadLegalPage(context: LoadContext, slug: LegalPageSlug): Promise<LegalPageData> {
  const answer = await serverApi(context).GET('/companies/{companyId}/legal-pages/{slug}', {
    params: { path: { companyId: configuredCompanyId(), slug } },
  });
  const page = dataOrThrow(answer, 'La página');
  return { ...page, bodyHtml: sanitizeHtml(page.bodyHtml) };
}
