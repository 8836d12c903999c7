import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { RootData } from '#app/lib/website.ts';

/**
 * The root's data, once per document: the company's website parameters (nav, footer, contacts, catalogue) and the
 * covid upgrade's price, which its modal and no-JavaScript table state on any page that offers the upgrade.
 */
export async function loadShell({ context }: { context: LoadContext }): Promise<RootData> {
  const companyId = configuredCompanyId();
  const api = serverApi(context);
  const [website, covidUpgrade] = await Promise.all([
    api.GET('/companies/{companyId}/website-parameters', { params: { path: { companyId } } }),
    api.GET('/companies/{companyId}/covid-upgrade', { params: { path: { companyId } } }),
  ]);
  return {
    companyId,
    website: dataOrThrow(website, 'La tienda'),
    // Not worth failing a page for: without it the modal states the pricing rule, not the amounts.
    covidUpgrade: covidUpgrade.data ?? null,
  };
}
