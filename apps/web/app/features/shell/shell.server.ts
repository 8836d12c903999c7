import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { RootData } from '#app/lib/website.ts';

/** The root's data: the company's website parameters (nav, footer, contacts, catalogue), once per document. */
export async function loadShell({ context }: { context: LoadContext }): Promise<RootData> {
  const companyId = configuredCompanyId();
  const answer = await serverApi(context).GET('/companies/{companyId}/website-parameters', {
    params: { path: { companyId } },
  });
  return { companyId, website: dataOrThrow(answer, 'La tienda') };
}
