import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeOnEachDatabase } from './support/harness.ts';
import { call, get } from './support/http.ts';

const committedOpenApi = new URL('../../web/openapi.json', import.meta.url);

type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, { parameters?: { name: string; in: string; required?: boolean }[] }>>;
};

/** Every call of spec §7, as the document names it (relative to the `/api` server). */
const specPaths: [string, string][] = [
  ['get', '/companies/{companyId}'],
  ['get', '/companies/{companyId}/navigation-bar'],
  ['get', '/companies/{companyId}/footer'],
  ['get', '/companies/{companyId}/website-parameters'],
  ['get', '/companies/{companyId}/marketing'],
  ['get', '/companies/{companyId}/mission'],
  ['get', '/companies/{companyId}/vision'],
  ['get', '/companies/{companyId}/origins'],
  ['get', '/companies/{companyId}/destinations/{modalityId}'],
  ['get', '/companies/{companyId}/destinations/{destinationId}/countries'],
  ['get', '/companies/{companyId}/modalities'],
  ['get', '/companies/{companyId}/passanger-types'],
  ['get', '/companies/{companyId}/exchange-rate'],
  ['get', '/companies/{companyId}/frequently-asked-questions'],
  ['get', '/companies/{companyId}/subjects'],
  ['get', '/companies/{companyId}/contacts-info'],
  ['get', '/companies/{companyId}/contacts'],
  ['get', '/companies/{companyId}/passanger-type-product'],
  ['get', '/companies/{companyId}/payment-gateways'],
  ['post', '/companies/{companyId}/subscriptions'],
  ['post', '/companies/{companyId}/subscriptions/confirmation'],
  ['post', '/companies/{companyId}/subscriptions/unsubscribe'],
  ['post', '/companies/{companyId}/contact-forms'],
  // Not in spec §7: what the contact form needs from the server (the reCAPTCHA site key).
  ['get', '/companies/{companyId}/contact-forms/settings'],
  ['post', '/companies/{companyId}/refunds'],
  // Issue 22: the claim's documents are uploaded first, streamed (docs/document-store.md).
  ['post', '/companies/{companyId}/refunds/files'],
  ['get', '/companies/{companyId}/refunds/{number}'],
  ['post', '/companies/{companyId}/refunds/{number}/documents'],
  ['post', '/admin/refunds/{number}/status'],
  // Not in spec §7: a load balancer's liveness and readiness checks (README, «Running several processes»).
  ['get', '/health'],
  ['get', '/ready'],
  ['post', '/admin/cache/invalidate'],
  // Not in spec §7 (issue #12): «Mi compra» without an account (README «Mi compra»).
  ['post', '/purchases/access'],
  ['post', '/purchases/access/code'],
  ['post', '/purchases/access/link'],
  ['post', '/purchases/access/sale'],
  ['get', '/purchases/mine'],
  ['get', '/purchases/mine/comprobante.pdf'],
  ['get', '/purchases/mine/documentos-tributarios/{document}'],
  ['get', '/purchases/mine/certificado.pdf'],
  // Each traveller's own certificate and the general conditions PDF (issue #12, README «Each traveller's own certificate»).
  ['get', '/purchases/mine/certificados/{certificate}'],
  ['get', '/certificates/b2c/{idVenta}/certificados'],
  ['get', '/certificates/b2c/{idVenta}/certificados/{certificate}'],
  ['get', '/legal/condiciones-generales.pdf'],
  ['post', '/purchases/mine/withdrawal'],
  ['delete', '/purchases/mine/access'],
  ['post', '/purchases/mine/date-change/preview'],
  ['post', '/purchases/mine/date-change'],
  ['get', '/purchases/mine/add-ons'],
  ['post', '/purchases/mine/add-ons'],
  ['post', '/admin/purchases/{idVenta}/revoke-access'],
  // The operator's step for a sale refund the gateway cannot make (README «Withdrawal»: sale refunds).
  ['get', '/admin/sale-refunds'],
  ['post', '/admin/sale-refunds/{id}/hold'],
  ['post', '/admin/sale-refunds/{id}/manual'],
  ['post', '/admin/sale-refunds/{id}/release'],
  // Not in spec §7: the covid upgrade's price range, stated in its modal before a trip is quoted (issue #13).
  ['get', '/companies/{companyId}/covid-upgrade'],
  ['post', '/companies/{companyId}/quotation-redirect'],
  ['post', '/quotations/{companyId}'],
  ['get', '/quotations/{companyId}/{quotationId}'],
  ['put', '/quotations/{companyId}/{quotationId}'],
  ['get', '/{companyId}/plans'],
  ['get', '/{companyId}/plans-comparador'],
  ['get', '/{companyId}/plans/{planId}'],
  ['get', '/{companyId}/plans-quotation/{quotationId}'],
  // Not in spec §7 (issue #13): how many plans each travelling age band rules out, so the comparator can say why.
  ['get', '/{companyId}/plans-unavailable/{quotationId}'],
  // Not in spec §7 (issue 25, «Planes»): a plan's uploaded image sizes and general conditions.
  ['get', '/plan-images/{id}/{size}'],
  ['get', '/plan-conditions/{file}'],
  ['put', '/quotations/{quotationId}/passangers'],
  ['get', '/quotations/{quotationId}/passangers'],
  ['get', '/companies/{companyId}/quotations/{quotationId}/add-ons'],
  ['put', '/quotations/{quotationId}/passangers-detail'],
  ['get', '/quotations/{quotationId}/passangers-detail'],
  ['post', '/quotations/{quotationId}/invoice-details'],
  ['get', '/quotations/{quotationId}/invoice-details'],
  ['post', '/payments'],
  ['get', '/payments/return/{gatewayId}'],
  ['post', '/payments/return/{gatewayId}'],
  ['get', '/companies/{idTransaction}/payment-result/{idVenta}'],
  ['get', '/certificates/b2c/{idVenta}'],
  ['get', '/certificates/b2c/{idVenta}/certificado.pdf'],
  ['post', '/quotations/{quotationId}/auto-envio'],
  ['get', '/certificates'],
  // Beyond spec §7 (README «Certificate search, sending and verification»): the search's send and the public check.
  ['post', '/certificates/{certificate}/auto-envio'],
  ['get', '/certificates/verification/{code}'],
  // Blog and legal pages (spec §2 screens whose calls §7 does not show).
  ['get', '/companies/{companyId}/blog-posts'],
  ['get', '/companies/{companyId}/blog-posts/{postId}'],
  // Not in spec §7 (issue 25 item 7, «Blog» in the console): an image uploaded for a post.
  ['get', '/blog-images/{id}/{size}'],
  ['get', '/companies/{companyId}/legal-pages/{slug}'],
];

describeOnEachDatabase('OpenAPI document', (ctx) => {
  const served = async () => {
    const answer = await get(ctx.app, '/api/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    return answer.json<OpenApiDocument>();
  };

  it('GET /api/docs serves an OpenAPI 3 document for the /api server', async () => {
    const document = await served();
    expect(document.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(document.info.title).toBe('Travesía API');
    expect(document.servers).toStrictEqual([{ url: '/api' }]);
  });

  it('documents every call of the API, and nothing else', async () => {
    const document = await served();
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    expect(documented.sort()).toStrictEqual(specPaths.map(([method, path]) => `${method} ${path}`).sort());
  });

  it('documents the required query parameters amount, isEmergencyOrSaleContact and reCaptchaToken', async () => {
    const { paths } = await served();
    const queryOf = (path: string, method = 'get') =>
      (paths[path]?.[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => [p.name, p.required]);
    expect(queryOf('/companies/{companyId}/exchange-rate')).toStrictEqual([['amount', true]]);
    expect(queryOf('/companies/{companyId}/contacts')).toStrictEqual([['isEmergencyOrSaleContact', true]]);
    expect(queryOf('/companies/{companyId}/contact-forms', 'post')).toStrictEqual([['reCaptchaToken', true]]);
  });

  it('a discount code outcome is none, applied, unknown or refused (with its reason in words; a code to come reads as unknown)', async () => {
    const document = (await served()) as OpenApiDocument & {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    };
    expect(document.components.schemas.DiscountCodeOutcome?.properties.status?.enum).toStrictEqual([
      'none',
      'applied',
      'unknown',
      'refused',
    ]);
  });

  it('a browser asking for HTML is redirected to the interactive viewer at /api/docs/ui/', async () => {
    const answer = await call(ctx.app, { method: 'GET', url: '/api/docs', headers: { accept: 'text/html' } });
    expect(answer.status).toBeGreaterThanOrEqual(300);
    expect(answer.status).toBeLessThan(400);
    expect(answer.headers.location).toBe('/api/docs/ui/');
    const viewer = await call(ctx.app, { method: 'GET', url: '/api/docs/ui/' });
    expect(viewer.status).toBe(200);
    expect(viewer.headers['content-type']).toMatch(/^text\/html/);
  });

  it('the committed apps/web/openapi.json is the document the API serves now', async () => {
    const committed: unknown = JSON.parse(await readFile(committedOpenApi, 'utf8'));
    expect(
      committed,
      'apps/web/openapi.json is stale, so the web app’s typed client is too: run `npm run gen:api` and commit the result',
    ).toStrictEqual(await served());
  });
});

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** README.md, SECURITY.md and every Markdown file under docs/: the pages a newcomer follows links through. */
async function documentationFiles(): Promise<string[]> {
  const entries = await readdir(join(repositoryRoot, 'docs'), { recursive: true, withFileTypes: true });
  const docs = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name));
  return [join(repositoryRoot, 'README.md'), join(repositoryRoot, 'SECURITY.md'), ...docs];
}

/** Fenced blocks hold examples, not headings or links; inline code holds no links either. */
const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = (heading ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let repeat = 1; anchors.has(anchor); repeat += 1) anchor = `${slug}-${repeat}`;
    anchors.add(anchor);
  }
  return anchors;
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('Relative links in README.md, SECURITY.md and docs/', () => {
  it('every relative link names a file or folder that exists, and every #anchor a heading of its page', async () => {
    const broken: string[] = [];
    for (const file of await documentationFiles()) {
      const markdown = await readFile(file, 'utf8');
      for (const [, target] of withoutCode(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
        if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [path = '', anchor] = target.split('#', 2);
        const resolved = path ? join(dirname(file), decodeURIComponent(path)) : file;
        const where = `${relative(repositoryRoot, file)}: ${target}`;
        if (!(await exists(resolved))) broken.push(`${where} (no such file)`);
        else if (anchor && resolved.endsWith('.md')) {
          if (!headingAnchors(await readFile(resolved, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken, 'broken relative links in the documentation').toStrictEqual([]);
  });
});
