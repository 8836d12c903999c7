import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import type { Geography } from '#app/modules/catalog/geography.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { certificatePdfOf, freshHolders, paidSaleOf, unitedKingdom } from './support/certificates.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { createQuotation } from './support/trips.ts';

/**
 * «Geografía» (issue 25, item 5): regions, countries and origins as the publishing kind `geography`
 * (catalog/geography.ts): validation in the §8 body, the version check, publish and rollback changing what the
 * storefront's catalogue API answers, audit rows, and a region a quotation names retired, never deleted.
 */

type Item = { live: Geography; draft: { body: Geography; version: number } | null };

const path = (rest = '') => `/api/backoffice/geography/main${rest}`;

async function readItem(ctx: TestContext, operator: Operator) {
  const answer = await asOperator(ctx, operator, 'GET', path());
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Item>();
}

async function saveDraft(ctx: TestContext, operator: Operator, body: unknown) {
  const item = await readItem(ctx, operator);
  return asOperator(ctx, operator, 'PUT', path('/draft'), { body, baseVersion: item.draft?.version ?? 0 });
}

async function saveAndPublish(ctx: TestContext, operator: Operator, body: Geography) {
  const saved = await saveDraft(ctx, operator, body);
  expect(saved.status, saved.text).toBe(200);
  return asOperator(ctx, operator, 'POST', path('/publish'), {
    baseVersion: saved.json<{ version: number }>().version,
  });
}

const destinationsOf = async (ctx: TestContext, modalityId: number) =>
  (await get(ctx.app, `/api/companies/1/destinations/${modalityId}`)).json<{ id: number; label: string }[]>();

const clock = new TestClock();

describeOnEachDatabase(
  'Geography in the console (issue 25, item 5)',
  (ctx) => {
    let content: Operator;
    let other: Operator;
    beforeAll(async () => {
      [content, other] = await Promise.all([
        enrolledOperator(ctx, 'geo@travesia.cl', ['content'], clock),
        enrolledOperator(ctx, 'jefa-geo@travesia.cl', ['admin'], clock),
      ]);
    });

    it('refuses bad codes, repeats and unknown countries with the §8 body (400, never 500); a stale save is a 409', async () => {
      const { live } = await readItem(ctx, content);
      const [region] = live.regions;
      if (!region) throw new Error('the demo has no region');
      const bad: [unknown, string][] = [
        [{ ...live, countries: [...live.countries, { id: null, isoCode: 'esp', label: 'X' }] }, 'body.countries'],
        [{ ...live, regions: [...live.regions, { ...region, id: null }] }, 'body.regions'],
        [{ ...live, regions: [{ ...region, countries: ['ZZ'] }] }, 'body.regions.0.countries.0'],
        [{ ...live, origins: [] }, 'body.origins'],
        [{ ...live, regions: [{ ...region, label: '<b onmouseover=x>y</b>' }] }, 'body.regions.0.label'],
        [{ ...live, extra: true }, 'body'],
      ];
      for (const [body, field] of bad) {
        const answer = await saveDraft(ctx, content, body);
        expect(answer.status, answer.text).toBe(400);
        const fields = answer.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);
        expect(
          fields.some((f) => f.startsWith(field)),
          `${field} in ${fields.join(', ')}`,
        ).toBe(true);
      }
      // A modality of no one: refused on publish in words.
      const unknownModality = await saveAndPublish(ctx, content, {
        ...live,
        regions: live.regions.map((r, i) => (i === 0 ? { ...r, modalityIds: [999_999] } : r)),
      });
      expect(unknownModality.status, unknownModality.text).toBe(400);

      const item = await readItem(ctx, content);
      const first = await asOperator(ctx, content, 'PUT', path('/draft'), {
        body: live,
        baseVersion: item.draft?.version ?? 0,
      });
      expect(first.status, first.text).toBe(200);
      const stale = await asOperator(ctx, other, 'PUT', path('/draft'), {
        body: live,
        baseVersion: item.draft?.version ?? 0,
      });
      expect(stale.status, stale.text).toBe(409);
      expect(stale.json<{ detail: string }>().detail).toContain('geo@travesia.cl');
    });

    it('a new region reaches the storefront only once published, audited; rollback takes it away', async () => {
      const { live } = await readItem(ctx, content);
      const modalityId = live.regions[0]?.modalityIds[0] ?? 1;
      const body: Geography = {
        ...live,
        countries: [
          ...live.countries.filter((c) => c.isoCode !== 'FJ'),
          { id: null, isoCode: 'FJ', label: 'Fiyi', schengen: false },
        ],
        regions: [
          ...live.regions,
          { id: null, code: 'PACIFICO', label: 'Islas del Pacífico', modalityIds: [modalityId], countries: ['FJ'] },
        ],
      };
      const saved = await saveDraft(ctx, content, body);
      expect(saved.status, saved.text).toBe(200);
      expect((await destinationsOf(ctx, modalityId)).map((d) => d.label)).not.toContain('Islas del Pacífico');
      const published = await asOperator(ctx, content, 'POST', path('/publish'), {
        baseVersion: saved.json<{ version: number }>().version,
      });
      expect(published.status, published.text).toBe(200);
      expect((await destinationsOf(ctx, modalityId)).map((d) => d.label)).toContain('Islas del Pacífico');
      const [audit] = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetType, 'geography')));
      expect(audit?.actorLabel).toBe('geo@travesia.cl');

      const rolledBack = await asOperator(ctx, content, 'POST', path('/rollback'), {
        publicationId: published.json<{ publication: { id: number } }>().publication.id,
        to: 'before',
      });
      expect(rolledBack.status, rolledBack.text).toBe(200);
      expect((await destinationsOf(ctx, modalityId)).map((d) => d.label)).not.toContain('Islas del Pacífico');
      const rollbacks = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.rolled_back'), eq(auditEntries.targetType, 'geography')));
      expect(rollbacks).toHaveLength(1);
    });

    it('a preview link opens the home page whose quoter offers the draft regions and origins; nothing is kept', async () => {
      const { live } = await readItem(ctx, content);
      const modalityId = live.regions[0]?.modalityIds[0] ?? 1;
      const [first, ...rest] = live.regions;
      if (!first) throw new Error('the demo store has no region');
      const body: Geography = {
        ...live,
        countries: [
          ...live.countries.filter((c) => c.isoCode !== 'TO'),
          { id: null, isoCode: 'TO', label: 'Tonga', schengen: false },
        ],
        // The first region retired (sold for no modality), a new one added; a new origin.
        regions: [
          { ...first, modalityIds: [] },
          ...rest,
          { id: null, code: 'POLINESIA', label: 'Polinesia', modalityIds: [modalityId], countries: ['TO'] },
        ],
        origins: [...live.origins, { id: null, label: 'Isla de Pascua' }],
      };
      const saved = await saveDraft(ctx, content, body);
      expect(saved.status, saved.text).toBe(200);
      const link = await asOperator(ctx, content, 'POST', path('/preview-link'));
      expect(link.status, link.text).toBe(200);
      const url = new URL(link.json<{ url: string }>().url);
      expect(url.pathname).toBe('/');
      const token = url.searchParams.get('vista-previa') ?? '';
      const previewed = (rest: string) =>
        call(ctx.app, { method: 'GET', url: `/api/companies/1/${rest}`, headers: { 'x-vista-previa': token } });

      const regions = await previewed(`destinations/${modalityId}`);
      expect(regions.status, regions.text).toBe(200);
      expect(regions.headers['cache-control']).toBe('no-store');
      const offered = regions.json<{ id: number; label: string }[]>();
      expect(offered.map((d) => d.label)).toContain('Polinesia');
      expect(offered.map((d) => d.label)).not.toContain(first.label);
      // A region the draft adds has no id yet: a negative one, which no quotation can name.
      expect(offered.find((d) => d.label === 'Polinesia')?.id).toBeLessThan(0);
      const origins = (await previewed('origins')).json<{ label: string }[]>();
      expect(origins.map((o) => o.label)).toContain('Isla de Pascua');
      const shell = (await previewed('website-parameters')).json<{ countries: { label: string }[] }>();
      expect(shell.countries.map((c) => c.label)).toContain('Tonga');

      // Nothing was kept or published: the plain answers are the live lists.
      const liveRegions = (await destinationsOf(ctx, modalityId)).map((d) => d.label);
      expect(liveRegions).toContain(first.label);
      expect(liveRegions).not.toContain('Polinesia');
      expect(
        (await get(ctx.app, '/api/companies/1/origins')).json<{ label: string }[]>().map((o) => o.label),
      ).not.toContain('Isla de Pascua');
      const forged = await call(ctx.app, {
        method: 'GET',
        url: '/api/companies/1/origins',
        headers: { 'x-vista-previa': `${token}x` },
      });
      expect(forged.status).toBe(403);
      // The draft back to the live geography, for the tests after this one.
      expect((await saveDraft(ctx, content, live)).status).toBe(200);
    });

    it('the Schengen flag is data: the seeded area, and a country flagged in «Geografía» gets the statement', async () => {
      const { live } = await readItem(ctx, content);
      const flagOf = (iso: string) => live.countries.find((c) => c.isoCode === iso)?.schengen;
      expect([flagOf('ES'), flagOf('FR'), flagOf('GB')]).toStrictEqual([true, true, false]);
      const londonCertificate = async () =>
        pdfText(await certificatePdfOf(ctx, await paidSaleOf(ctx, freshHolders(), { country: unitedKingdom })));
      expect(await londonCertificate()).not.toContain('Schengen');

      const published = await saveAndPublish(ctx, content, {
        ...live,
        countries: live.countries.map((c) => (c.isoCode === 'GB' ? { ...c, schengen: true } : c)),
      });
      expect(published.status, published.text).toBe(200);
      const history = await asOperator(ctx, content, 'GET', path('/history'));
      expect(history.text).toContain('Schengen');
      expect(await londonCertificate()).toContain('Travel medical insurance certificate (Schengen visa)');

      const rolledBack = await asOperator(ctx, content, 'POST', path('/rollback'), {
        publicationId: published.json<{ publication: { id: number } }>().publication.id,
        to: 'before',
      });
      expect(rolledBack.status, rolledBack.text).toBe(200);
      expect(await londonCertificate()).not.toContain('Schengen');
    });

    it('a region a quotation names cannot be deleted (409 in words), only retired: no longer offered', async () => {
      const { live } = await readItem(ctx, content);
      const region = live.regions.find((r) => r.modalityIds.includes(1));
      if (!region?.id) throw new Error('the demo sells no region for modality 1');
      await createQuotation(ctx, { destination: region.id, modality: 1 });
      const deleted = await saveAndPublish(ctx, content, {
        ...live,
        regions: live.regions.filter((r) => r.id !== region.id),
      });
      expect(deleted.status, deleted.text).toBe(409);
      expect(deleted.json<{ detail: string }>().detail).toContain('Retírala');
      expect((await destinationsOf(ctx, 1)).map((d) => d.id)).toContain(region.id);

      const retired = await saveAndPublish(ctx, content, {
        ...live,
        regions: live.regions.map((r) => (r.id === region.id ? { ...r, modalityIds: [] } : r)),
      });
      expect(retired.status, retired.text).toBe(200);
      expect((await destinationsOf(ctx, 1)).map((d) => d.id)).not.toContain(region.id);
      // Still there for the console (and the quotations that name it).
      expect((await readItem(ctx, content)).live.regions.map((r) => r.id)).toContain(region.id);
    });
  },
  {},
  { now: clock.now },
);
