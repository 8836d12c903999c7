import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import { withPreviewFallback } from '#app/lib/preview.server.ts';
import type { RootData } from '#app/lib/website.ts';

/**
 * The root's data, once per document: the company's website parameters (nav, footer, contacts, catalogue) and the
 * covid upgrade's price, which its modal and no-JavaScript table state on any page that offers the upgrade.
 */
/** The pages a site preview link opens (the home page; the contacts directory for the contacts' draft). */
const sitePreviewPages = new Set(['/', '/contactanos']);

export async function loadShell({ context, request }: { context: LoadContext; request: Request }): Promise<RootData> {
  const companyId = configuredCompanyId();
  const api = serverApi(context);
  // A console preview link of the site (issue 25): the shell shows the draft; entry.server.tsx keeps the page out of
  // every cache and index.
  const [{ answer: website, preview }, covidUpgrade] = await Promise.all([
    withPreviewFallback(request, (previewHeaders) =>
      api.GET('/companies/{companyId}/website-parameters', { params: { path: { companyId } }, ...previewHeaders }),
    ),
    api.GET('/companies/{companyId}/covid-upgrade', { params: { path: { companyId } } }),
  ]);
  // A token the shell does not open (the comparator's prices: that page says so itself) or a stale one: the live
  // shell; on the pages site links open, the banner says the link did not open.
  const opensHere = sitePreviewPages.has(new URL(request.url).pathname);
  return {
    companyId,
    preview: preview === 'invalid' && !opensHere ? null : preview,
    website: dataOrThrow(website, 'La tienda'),
    // Not worth failing a page for: without it the modal states the pricing rule, not the amounts.
    covidUpgrade: covidUpgrade.data ?? null,
  };
}
