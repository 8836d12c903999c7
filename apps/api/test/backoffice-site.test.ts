import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import type { DatabaseHandle } from '#app/db/client.ts';
import { auditEntries, companyDocuments, publishingDrafts } from '#app/db/schema.ts';
import type { SiteScripts } from '#app/modules/company/site.ts';
import { mountPages, storefrontBuildExists } from '#app/web.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { databaseKinds, describeOnEachDatabase, openTestDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';

/**
 * «El sitio» (issue 25, item 6): the navigation bar, footer, contacts, WhatsApp, feature flags and marketing scripts
 * as kinds of the publishing model (company/site.ts, content/site-contacts.ts): validation on save (spec §8 body,
 * never a 500), the version check, publish and rollback changing what the storefront's API answers, audit rows; and,
 * with the storefront's real build and page cache, that a publication shows at once and that a published script runs
 * only by its hash in the kept page's policy.
 */

type Item<Body> = { live: Body; draft: { body: Body; version: number } | null; changes: string[] };
type Footer = { menus: { label: string; items: { label: string; href: string }[] }[]; copyright: string };
type Answer = Awaited<ReturnType<typeof asOperator>>;

const site = (kind: string, rest = '') => `/api/backoffice/${kind}/main${rest}`;

async function readItem<Body>(ctx: TestContext, operator: Operator, kind: string) {
  const answer = await asOperator(ctx, operator, 'GET', site(kind));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Item<Body>>();
}

/** Saves `body` from whatever version the draft is at, and publishes it now. */
async function publishBody(ctx: TestContext, operator: Operator, kind: string, body: unknown) {
  const item = await readItem(ctx, operator, kind);
  const saved = await asOperator(ctx, operator, 'PUT', site(kind, '/draft'), {
    body,
    baseVersion: item.draft?.version ?? 0,
  });
  expect(saved.status, saved.text).toBe(200);
  const published = await asOperator(ctx, operator, 'POST', site(kind, '/publish'), {
    baseVersion: saved.json<{ version: number }>().version,
  });
  expect(published.status, published.text).toBe(200);
  return published.json<{ publication: { id: number } }>().publication;
}

const fieldsOf = (answer: Answer) => answer.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);

const clock = new TestClock();

describeOnEachDatabase(
  'The site in the console (issue 25, item 6)',
  (ctx) => {
    let content: Operator;
    let other: Operator;
    beforeAll(async () => {
      [content, other] = await Promise.all([
        enrolledOperator(ctx, 'contenido@travesia.cl', ['content'], clock),
        enrolledOperator(ctx, 'jefa@travesia.cl', ['admin'], clock),
      ]);
    });

    it('refuses unsafe links, markup, colours, numbers and scripts with the §8 body (400, never 500)', async () => {
      const footer = (await readItem<Footer & Record<string, unknown>>(ctx, content, 'site-footer')).live;
      const firstMenu = footer.menus[0];
      if (!firstMenu) throw new Error('the demo footer has no menu');
      const bad: [string, unknown, string][] = [
        [
          'site-footer',
          { ...footer, menus: [{ ...firstMenu, items: [{ ...firstMenu.items[0], href: 'javascript:alert(1)' }] }] },
          'body.menus.0.items.0.href',
        ],
        [
          'site-footer',
          { ...footer, menus: [{ ...firstMenu, items: [{ ...firstMenu.items[0], href: '//evil.example/x' }] }] },
          'body.menus.0.items.0.href',
        ],
        ['site-footer', { ...footer, copyright: '<img src=x onerror=alert(1)>' }, 'body.copyright'],
        ['site-footer', { ...footer, background: 'red;background:url(javascript:x)' }, 'body.background'],
        ['site-footer', { ...footer, extra: 1 }, 'body'],
        ['site-footer', [1, 2], 'body'],
        ['site-whatsapp', { isWhatsappWidgetEnabled: true, whatsappNumber: '+56 9 123' }, 'body.whatsappNumber'],
        ['site-whatsapp', { isWhatsappWidgetEnabled: true, whatsappNumber: 'wa.me/569' }, 'body.whatsappNumber'],
        [
          'site-scripts',
          { allowedOrigins: [], scripts: [{ placement: 'body', src: 'https://cdn.evil.example/a.js' }] },
          'body.scripts.0.src',
        ],
        ['site-scripts', { allowedOrigins: ['http://plain.example'], scripts: [] }, 'body.allowedOrigins.0'],
        [
          'site-scripts',
          { allowedOrigins: [], scripts: [{ placement: 'head', code: 'x=1</script><script>alert(1)' }] },
          'body.scripts.0.code',
        ],
        ['site-contacts', { help: [], directory: [], more: true }, 'body'],
      ];
      for (const [kind, body, field] of bad) {
        const answer = await asOperator(ctx, content, 'PUT', site(kind, '/draft'), { body, baseVersion: 0 });
        expect(answer.status, `${kind} ${answer.text}`).toBe(400);
        expect(answer.json<{ status: number; detail: string }>()).toMatchObject({ status: 400 });
        expect(fieldsOf(answer), kind).toContain(field);
      }
      // Valid ones: a Chilean mobile and an international number; an unknown key is a 404.
      for (const whatsappNumber of ['+56 9 4000 2000', '+1 (786) 347-2210']) {
        const answer = await asOperator(ctx, content, 'PUT', site('site-whatsapp', '/draft'), {
          body: { isWhatsappWidgetEnabled: true, whatsappNumber },
          baseVersion: (await readItem(ctx, content, 'site-whatsapp')).draft?.version ?? 0,
        });
        expect(answer.status, answer.text).toBe(200);
      }
      expect((await asOperator(ctx, content, 'GET', '/api/backoffice/site-footer/otra')).status).toBe(404);
    });

    it('a second save from a stale version is a 409 saying who saved; publish and rollback change the storefront, audited', async () => {
      const item = await readItem<Footer>(ctx, content, 'site-footer');
      const changed = { ...item.live, copyright: 'Travesía SpA — versión de prueba' };
      const first = await asOperator(ctx, content, 'PUT', site('site-footer', '/draft'), {
        body: changed,
        baseVersion: item.draft?.version ?? 0,
      });
      expect(first.status, first.text).toBe(200);
      const stale = await asOperator(ctx, other, 'PUT', site('site-footer', '/draft'), {
        body: item.live,
        baseVersion: item.draft?.version ?? 0,
      });
      expect(stale.status, stale.text).toBe(409);
      expect(stale.json<{ detail: string }>().detail).toContain('contenido@travesia.cl guardó este borrador');
      expect(stale.json<{ detail: string }>().detail).toContain('Pie de página · derechos');

      // Not before the publication…
      const before = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ footer: Footer }>();
      expect(before.footer.copyright).toBe(item.live.copyright);
      const publication = await publishBody(ctx, content, 'site-footer', changed);
      // …and at once after it (the read cache is cleared by the publication).
      const after = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ footer: Footer }>();
      expect(after.footer.copyright).toBe(changed.copyright);
      const [audit] = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetType, 'site-footer')));
      expect(audit?.actorLabel).toBe('contenido@travesia.cl');
      expect(audit?.before).toMatchObject({ copyright: item.live.copyright });
      expect(audit?.after).toMatchObject({ copyright: changed.copyright });

      const history = await asOperator(ctx, content, 'GET', site('site-footer', '/history'));
      expect(history.json<{ publications: { changes: string[] }[] }>().publications[0]?.changes).toContainEqual(
        expect.stringContaining('Pie de página · derechos: «'),
      );
      const rolledBack = await asOperator(ctx, content, 'POST', site('site-footer', '/rollback'), {
        publicationId: publication.id,
        to: 'before',
      });
      expect(rolledBack.status, rolledBack.text).toBe(200);
      const restored = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ footer: Footer }>();
      expect(restored.footer).toStrictEqual(item.live);
      const rollbacks = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.rolled_back'), eq(auditEntries.targetType, 'site-footer')));
      expect(rollbacks).toHaveLength(1);
    });

    it('contacts, WhatsApp and the feature flags reach the storefront once published', async () => {
      const contacts = await readItem<{ help: { label: string }[]; directory: { label: string }[] }>(
        ctx,
        content,
        'site-contacts',
      );
      expect(contacts.live.help.length).toBeGreaterThan(0);
      const [firstHelp, ...restHelp] = contacts.live.help;
      await publishBody(ctx, content, 'site-contacts', {
        help: [...restHelp, { ...firstHelp, label: 'Emergencias 24/7' }],
        directory: contacts.live.directory.slice(1),
      });
      const website = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{
        contacts: { label: string }[];
        features: Record<string, boolean>;
        configuration: { whatsappNumber: string; isWhatsappWidgetEnabled: boolean };
      }>();
      expect(website.contacts.at(-1)?.label).toBe('Emergencias 24/7');
      const directory = (await get(ctx.app, '/api/companies/1/contacts?isEmergencyOrSaleContact=false')).json<
        unknown[]
      >();
      expect(directory).toHaveLength(contacts.live.directory.length - 1);

      await publishBody(ctx, content, 'site-whatsapp', {
        isWhatsappWidgetEnabled: false,
        whatsappNumber: '+56 9 5555 1234',
      });
      const flags = await readItem<Record<string, boolean>>(ctx, content, 'site-flags');
      expect(flags.live).toStrictEqual(ctx.config.features);
      await publishBody(ctx, content, 'site-flags', { ...flags.live, virtualBranch: !flags.live.virtualBranch });
      const next = (await get(ctx.app, '/api/companies/1/website-parameters')).json<typeof website>();
      expect(next.configuration).toMatchObject({ isWhatsappWidgetEnabled: false, whatsappNumber: '+56 9 5555 1234' });
      expect(next.features.virtualBranch).toBe(!flags.live.virtualBranch);

      // The home page's blocks: a coverage with markup is refused; a new title is published.
      type Home = { coverages: { icon: string; title: string; description: string }[] };
      const home = await readItem<Home>(ctx, content, 'site-home');
      const [coverage, ...others] = home.live.coverages;
      if (!coverage) throw new Error('the demo home has no coverage');
      const refused = await asOperator(ctx, content, 'PUT', site('site-home', '/draft'), {
        body: { ...home.live, coverages: [{ ...coverage, title: '<b onmouseover=alert(1)>x</b>' }] },
        baseVersion: 0,
      });
      expect(fieldsOf(refused)).toStrictEqual(['body.coverages.0.title']);
      await publishBody(ctx, content, 'site-home', {
        ...home.live,
        coverages: [{ ...coverage, title: 'Telemedicina 24/7' }, ...others],
      });
      const shown = (await get(ctx.app, '/api/companies/1/website-parameters')).json<{ home: Home }>();
      expect(shown.home.coverages[0]?.title).toBe('Telemedicina 24/7');
    });

    it('a preview link opens the home page with the draft shell, never kept nor indexed; scripts have none', async () => {
      const item = await readItem<Footer>(ctx, content, 'site-footer');
      const draft = { ...item.live, copyright: 'Borrador en vista previa' };
      const saved = await asOperator(ctx, content, 'PUT', site('site-footer', '/draft'), {
        body: draft,
        baseVersion: item.draft?.version ?? 0,
      });
      expect(saved.status, saved.text).toBe(200);
      const link = await asOperator(ctx, content, 'POST', site('site-footer', '/preview-link'));
      expect(link.status, link.text).toBe(200);
      const url = new URL(link.json<{ url: string }>().url);
      expect(url.pathname).toBe('/');
      const token = url.searchParams.get('vista-previa') ?? '';
      const parameters = '/api/companies/1/website-parameters';
      const preview = await call(ctx.app, { method: 'GET', url: parameters, headers: { 'x-vista-previa': token } });
      expect(preview.status, preview.text).toBe(200);
      expect(preview.json<{ footer: Footer }>().footer.copyright).toBe(draft.copyright);
      expect(preview.headers['cache-control']).toBe('no-store');
      expect(preview.headers['x-robots-tag']).toBe('noindex');
      // Nothing of it was kept: the plain answer is the live footer.
      expect((await get(ctx.app, parameters)).json<{ footer: Footer }>().footer.copyright).toBe(item.live.copyright);
      // A forged token is a 403 in words; a draft script is never previewed (no link).
      const forged = await call(ctx.app, {
        method: 'GET',
        url: parameters,
        headers: { 'x-vista-previa': `${token}x` },
      });
      expect(forged.status).toBe(403);
      expect((await asOperator(ctx, content, 'POST', site('site-scripts', '/preview-link'))).status).toBe(404);
    });

    it('a contacts preview link opens /contactanos and the help modal with the draft; other site links show the live contacts', async () => {
      type Contacts = {
        help: { label: string; isEmergency: boolean }[];
        directory: { label: string; isEmergency: boolean; isSaleContact: boolean }[];
      };
      const item = await readItem<Contacts>(ctx, content, 'site-contacts');
      const [firstHelp, ...restHelp] = item.live.help;
      const [firstEntry, ...restEntries] = item.live.directory;
      if (!firstHelp || !firstEntry) throw new Error('the demo store has no contacts');
      const draft = {
        help: [{ ...firstHelp, label: 'Ayuda en borrador' }, ...restHelp],
        directory: [
          { ...firstEntry, label: 'Oficina en borrador', isEmergency: false, isSaleContact: false },
          ...restEntries,
        ],
      };
      const saved = await asOperator(ctx, content, 'PUT', site('site-contacts', '/draft'), {
        body: draft,
        baseVersion: item.draft?.version ?? 0,
      });
      expect(saved.status, saved.text).toBe(200);
      const link = await asOperator(ctx, content, 'POST', site('site-contacts', '/preview-link'));
      expect(link.status, link.text).toBe(200);
      const url = new URL(link.json<{ url: string }>().url);
      expect(url.pathname).toBe('/contactanos');
      const token = url.searchParams.get('vista-previa') ?? '';
      const previewed = (path: string, previewToken = token) =>
        call(ctx.app, { method: 'GET', url: `/api/companies/1/${path}`, headers: { 'x-vista-previa': previewToken } });

      const all = await previewed('contacts?isEmergencyOrSaleContact=false');
      expect(all.status, all.text).toBe(200);
      expect(all.headers['cache-control']).toBe('no-store');
      expect(all.headers['x-robots-tag']).toBe('noindex');
      expect(all.json<Contacts['directory']>().map((entry) => entry.label)).toStrictEqual(
        draft.directory.map((entry) => entry.label),
      );
      // The short list keeps emergency and sales entries only: the draft's first entry is neither any more.
      const urgent = (await previewed('contacts?isEmergencyOrSaleContact=true')).json<Contacts['directory']>();
      expect(urgent.map((entry) => entry.label)).not.toContain('Oficina en borrador');
      expect(urgent.every((entry) => entry.isEmergency || entry.isSaleContact)).toBe(true);
      expect((await previewed('contacts-info')).json<Contacts['help']>()[0]?.label).toBe('Ayuda en borrador');
      expect((await previewed('website-parameters')).json<{ contacts: Contacts['help'] }>().contacts[0]?.label).toBe(
        'Ayuda en borrador',
      );
      // Nothing was kept: the plain answers are the live contacts.
      expect((await get(ctx.app, '/api/companies/1/contacts-info')).json<Contacts['help']>()[0]?.label).toBe(
        firstHelp.label,
      );
      const live = (await get(ctx.app, '/api/companies/1/contacts?isEmergencyOrSaleContact=false')).json<
        Contacts['directory']
      >();
      expect(live[0]?.label).toBe(firstEntry.label);

      // A footer link is a site link too: on /contactanos it shows the live directory, not a draft of another part.
      const footer = await readItem<Footer>(ctx, content, 'site-footer');
      const footerSaved = await asOperator(ctx, content, 'PUT', site('site-footer', '/draft'), {
        body: footer.draft?.body ?? footer.live,
        baseVersion: footer.draft?.version ?? 0,
      });
      expect(footerSaved.status, footerSaved.text).toBe(200);
      const footerLink = await asOperator(ctx, content, 'POST', site('site-footer', '/preview-link'));
      const footerToken = new URL(footerLink.json<{ url: string }>().url).searchParams.get('vista-previa') ?? '';
      const withFooterToken = await previewed('contacts?isEmergencyOrSaleContact=false', footerToken);
      expect(withFooterToken.status).toBe(200);
      expect(withFooterToken.json<Contacts['directory']>()[0]?.label).toBe(firstEntry.label);
      // A forged token is a 403 in words.
      const forged = await previewed('contacts-info', `${token}x`);
      expect(forged.status).toBe(403);
      expect(forged.json<{ detail: string }>().detail).toMatch(/vista previa/);
      // A stored draft that no longer fits its schema (saved under an older one, or changed by hand) opens nothing:
      // the 403 of a stale link, never a 500.
      await ctx.database.db
        .update(publishingDrafts)
        .set({ body: { help: [{ label: 'x' }] } })
        .where(and(eq(publishingDrafts.kind, 'site-contacts'), eq(publishingDrafts.key, 'main')));
      for (const path of ['contacts-info', 'contacts?isEmergencyOrSaleContact=false', 'website-parameters'])
        expect((await previewed(path)).status, path).toBe(403);
    });
  },
  {},
  { now: clock.now },
);

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const buildDir = join(repoRoot, 'apps', 'web', 'build');

async function storefrontBuild(): Promise<ServerBuild> {
  if (!storefrontBuildExists(buildDir)) {
    execFileSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: repoRoot, stdio: 'ignore' });
  }
  return (await import(pathToFileURL(join(buildDir, 'server', 'index.js')).href)) as ServerBuild;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const scriptSrc = (policy: string) =>
  policy
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('script-src ')) ?? '';

describe('the storefront shows a publication at once, and runs a published script only by its hash', () => {
  const pageClock = new TestClock();
  const ctx = {} as TestContext;
  let database: DatabaseHandle;
  let renders = 0;
  let editor: Operator;

  beforeAll(async () => {
    const build = await storefrontBuild();
    database = await openTestDatabase(databaseKinds.at(-1) ?? 'pglite');
    ctx.database = database;
    ctx.config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_FACTOR: '1000' });
    ctx.app = await buildApp({ config: ctx.config, db: database.db, now: pageClock.now });
    const render = createRequestHandler(build, 'production');
    await mountPages(ctx.app, async (request, context) => {
      renders += 1;
      return render(request, context);
    });
    await ctx.app.ready();
    editor = await enrolledOperator(ctx, 'sitio@travesia.cl', ['content'], pageClock);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await database?.close();
  });

  const home = async (app: FastifyInstance) => {
    const answer = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(answer.statusCode).toBe(200);
    return { html: answer.body, policy: String(answer.headers['content-security-policy'] ?? '') };
  };

  it('the kept home shows the new footer and the published script right after publishing, not before', async () => {
    await home(ctx.app);
    const kept = renders;
    const first = await home(ctx.app);
    expect(renders, 'home is kept').toBe(kept);
    expect(first.html).toContain('window.travesiaMarketing = true;');
    expect(scriptSrc(first.policy)).toContain(sha256('window.travesiaMarketing = true;'));

    // A draft changes nothing on the store.
    const footer = (await readItem<Footer>(ctx, editor, 'site-footer')).live;
    const menus = footer.menus.map((menu, index) =>
      index === 0
        ? { ...menu, items: [...menu.items, { ...menu.items[0], label: 'Trabaja con nosotros', href: '/empleos' }] }
        : menu,
    );
    const saved = await asOperator(ctx, editor, 'PUT', site('site-footer', '/draft'), {
      body: { ...footer, menus },
      baseVersion: 0,
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await home(ctx.app)).html).not.toContain('Trabaja con nosotros');

    await publishBody(ctx, editor, 'site-footer', { ...footer, menus });
    const code = 'window.travesiaAnalytics = "GA-123";';
    const scripts: SiteScripts = {
      allowedOrigins: ['https://www.googletagmanager.com'],
      scripts: [
        { placement: 'head', code },
        { placement: 'body', src: 'https://www.googletagmanager.com/gtag/js?id=G-1' },
      ],
    };
    await publishBody(ctx, editor, 'site-scripts', scripts);
    await home(ctx.app);
    const after = await home(ctx.app);
    expect(after.html).toContain('Trabaja con nosotros');
    const policy = scriptSrc(after.policy);
    expect(after.html).toContain(`<script data-marketing="company">${code}</script>`);
    expect(policy).toContain(sha256(code));
    // The external script is added by a loader (hashed like any inline script), never by a parser-inserted src.
    expect(after.html).not.toMatch(/<script[^>]*\bsrc="https:\/\/www\.googletagmanager/);
    expect(after.html).toContain('https://www.googletagmanager.com/gtag/js?id=G-1');
    // The demo snippet is gone with the publication (the published list replaced it).
    expect(policy).not.toContain(sha256('window.travesiaMarketing = true;'));
  });

  it('a preview link whose value cannot be a token (a line break, a non-Latin character, too long) opens nothing and fails no page', async () => {
    for (const value of ['%E2%82%AC', 'a%0Ab', 'a%00b', 'x'.repeat(2_000), 'a.b']) {
      for (const path of ['/', '/contactanos', '/faq', '/terminos']) {
        const answer = await ctx.app.inject({ method: 'GET', url: `${path}?vista-previa=${value}` });
        expect(answer.statusCode, `${path} with ${value.slice(0, 12)}`).toBe(200);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.body).toContain('Vista previa no disponible');
      }
    }
  });

  it('a script stored behind the console’s back, or outside the allow-list, is neither rendered nor hashed', async () => {
    const injected = '<script>window.injected = 1;</script>';
    const [row] = await database.db
      .select()
      .from(companyDocuments)
      .where(and(eq(companyDocuments.companyId, 1), eq(companyDocuments.kind, 'website')));
    const website = row?.body as { companyScriptTags: unknown[]; scriptOrigins?: string[] };
    const tag = (html: string) => ({ customScript: Buffer.from(html).toString('base64'), isBodyScript: true });
    await database.db
      .update(companyDocuments)
      .set({
        body: {
          ...website,
          companyScriptTags: [
            ...website.companyScriptTags,
            tag(`${injected}<img src=x onerror=alert(1)>`),
            tag('<script src="https://cdn.evil.example/x.js" async></script>'),
          ],
        },
      })
      .where(and(eq(companyDocuments.companyId, 1), eq(companyDocuments.kind, 'website')));
    await ctx.app.invalidateReadCache();
    const page = await home(ctx.app);
    expect(page.html).not.toContain('window.injected');
    expect(page.html).not.toContain('cdn.evil.example');
    expect(scriptSrc(page.policy)).not.toContain(sha256('window.injected = 1;'));
  });
});
