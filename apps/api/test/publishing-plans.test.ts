import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import type { PlanDetails } from '#app/modules/plans/plan-details.ts';
import { planFileLimits } from '#app/modules/plans/plan-files.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { createQuotation, searchParams, searchUrl } from './support/trips.ts';

/**
 * The plan itself as a publishing kind (issue 25 item 1, kind `plans`): a `content` operator's draft (sanitised,
 * version-checked, 400 in the §8 body), its preview on the comparator, publish and rollback through the publishing
 * model, retiring, and the image and general conditions uploads. Prices are publishing-prices.test.ts.
 */

type Item = { live: PlanDetails; draft: { body: PlanDetails; version: number } | null; changes: string[] };
type ListedPlan = {
  id: number;
  label: string;
  paraQuien: string;
  porQueIva: string;
  condicionesGenerales: string | null;
};

const path = (planId: number, rest = '') => `/api/backoffice/plans/${planId}${rest}`;
const clock = new TestClock();

async function readItem(ctx: TestContext, operator: Operator, planId: number) {
  const answer = await asOperator(ctx, operator, 'GET', path(planId));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Item>();
}

const saveDraft = (ctx: TestContext, operator: Operator, planId: number, body: unknown, baseVersion: number) =>
  asOperator(ctx, operator, 'PUT', path(planId, '/draft'), { body, baseVersion });

/** Saves `body` as the draft from whatever version the plan is at and publishes it now. */
async function publishPlan(ctx: TestContext, operator: Operator, planId: number, body: PlanDetails) {
  const item = await readItem(ctx, operator, planId);
  const saved = await saveDraft(ctx, operator, planId, body, item.draft?.version ?? 0);
  expect(saved.status, saved.text).toBe(200);
  const published = await asOperator(ctx, operator, 'POST', path(planId, '/publish'), {
    baseVersion: saved.json<{ version: number }>().version,
  });
  expect(published.status, published.text).toBe(200);
  return published.json<{ publication: { id: number } }>().publication;
}

async function searched(ctx: TestContext, planId: number) {
  const answer = await get(ctx.app, searchUrl(searchParams()));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<ListedPlan[]>().find((plan) => plan.id === planId);
}

const upload = (ctx: TestContext, operator: Operator, planId: number, what: string, name: string, bytes: Buffer) =>
  call(ctx.app, {
    method: 'POST',
    url: path(planId, `/${what}?nombre=${encodeURIComponent(name)}`),
    payload: bytes,
    headers: {
      cookie: operator.cookie,
      'x-csrf-token': operator.csrfToken,
      'content-type': 'application/octet-stream',
    },
  });

describeOnEachDatabase(
  'Publishing plans (issue 25 item 1)',
  (ctx) => {
    let content: Operator;
    let pricing: Operator;
    beforeAll(async () => {
      content = await enrolledOperator(ctx, 'contenido@travesia.cl', ['content'], clock);
      pricing = await enrolledOperator(ctx, 'precios@travesia.cl', ['pricing'], clock);
    });

    it('a draft is sanitised and checked (400 in words), version-checked (409), previewed, published and rolled back', async () => {
      const { live } = await readItem(ctx, content, 410);
      // Pricing reads the plan but cannot change it.
      expect((await saveDraft(ctx, pricing, 410, live, 0)).status).toBe(403);
      // Each field's problem is named in the §8 body; never a 500.
      const bad = await saveDraft(
        ctx,
        content,
        410,
        { ...live, label: '<b></b>', color: 'red;background:url(javascript:alert(1))', modalityIds: [] },
        0,
      );
      expect(bad.status, bad.text).toBe(400);
      const errors = bad.json<{ errors: { field: string; message: string }[] }>().errors;
      expect(errors.map((error) => error.field).sort()).toStrictEqual(['body.color', 'body.label', 'body.modalityIds']);
      expect(bad.text).toContain('El plan necesita un nombre');
      expect(
        (await saveDraft(ctx, content, 410, { ...live, image: { large: 'javascript:alert(1)', small: '' } }, 0)).status,
      ).toBe(400);
      expect((await saveDraft(ctx, content, 410, 'no es un plan', 0)).status).toBe(400);
      const draft: PlanDetails = {
        ...live,
        label: 'Travesía <script>alert(1)</script>Esencial Joven',
        audience: 'Para <img src=x onerror=alert(1)>estudiantes y mochileros',
        benefits: [...live.benefits].reverse(),
        tax: { ...live.tax, reason: 'Sin IVA: <b>se presta</b> fuera de Chile.' },
      };
      const saved = await saveDraft(ctx, content, 410, draft, 0);
      expect(saved.status, saved.text).toBe(200);
      const { draft: stored, changes } = await readItem(ctx, content, 410);
      expect(stored?.body.label).toBe('Travesía alert(1)Esencial Joven');
      expect(stored?.body.audience).toBe('Para estudiantes y mochileros');
      expect(changes).toContain('Nombre: «Travesía Esencial» → «Travesía alert(1)Esencial Joven»');
      // A second operator's save from the version before is refused with who saved and what changed.
      const stale = await saveDraft(ctx, content, 410, live, 0);
      expect(stale.status, stale.text).toBe(409);
      expect(stale.text).toContain('contenido@travesia.cl guardó este borrador');
      expect(stale.text).toContain('Para quién');

      // The preview link shows the draft on the comparator, the live store does not.
      const link = await asOperator(ctx, content, 'POST', path(410, '/preview-link'));
      expect(link.status, link.text).toBe(200);
      const url = new URL(link.json<{ url: string }>().url);
      const token = url.searchParams.get('vista-previa') as string;
      const quotationId = url.pathname.split('/').pop() as string;
      const comparator = async (headers: Record<string, string> = {}) => {
        const answer = await ctx.app.inject({
          method: 'GET',
          url: `/api/1/plans-comparador?quotationId=${quotationId}`,
          headers,
        });
        expect(answer.statusCode, answer.body).toBe(200);
        return answer.json<ListedPlan[]>().find((plan) => plan.id === 410);
      };
      expect((await comparator({ 'x-vista-previa': token }))?.paraQuien).toBe('Para estudiantes y mochileros');
      expect((await comparator())?.label).toBe('Travesía Esencial');
      expect((await searched(ctx, 410))?.label).toBe('Travesía Esencial');

      // Publishing: the storefront's plan search answers the new plan at once (the caches are cleared).
      const { version } = saved.json<{ version: number }>();
      const published = await asOperator(ctx, content, 'POST', path(410, '/publish'), { baseVersion: version });
      expect(published.status, published.text).toBe(200);
      const shown = await searched(ctx, 410);
      expect(shown).toMatchObject({
        label: 'Travesía alert(1)Esencial Joven',
        paraQuien: 'Para estudiantes y mochileros',
        porQueIva: 'Sin IVA: se presta fuera de Chile.',
      });
      const audit = await ctx.app.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.action, 'publishing.published'), eq(auditEntries.targetType, 'plans')));
      expect(audit.at(-1)?.before).toStrictEqual(live);

      // Rollback to what it was before: the search answers the old plan again.
      const publicationId = published.json<{ publication: { id: number } }>().publication.id;
      const rolled = await asOperator(ctx, content, 'POST', path(410, '/rollback'), { publicationId, to: 'before' });
      expect(rolled.status, rolled.text).toBe(200);
      expect(await searched(ctx, 410)).toMatchObject({ label: 'Travesía Esencial', paraQuien: live.audience });
      expect((await readItem(ctx, content, 410)).live).toStrictEqual(live);
    });

    it('a retired plan is not quoted; reactivated, it is again', async () => {
      const { live } = await readItem(ctx, content, 412);
      const quotationId = await createQuotation(ctx);
      expect(await searched(ctx, 412)).toBeDefined();
      await publishPlan(ctx, content, 412, { ...live, retired: true });
      expect(await searched(ctx, 412)).toBeUndefined();
      const comparator = await get(ctx.app, `/api/1/plans-comparador?quotationId=${quotationId}`);
      expect(comparator.json<ListedPlan[]>().some((plan) => plan.id === 412)).toBe(false);
      await publishPlan(ctx, content, 412, { ...live, retired: false });
      expect(await searched(ctx, 412)).toBeDefined();
    });

    it('the image is resized and served; one too large or not an image is refused; the conditions must be a PDF', async () => {
      const png = await sharp({ create: { width: 900, height: 500, channels: 3, background: '#0b5563' } })
        .png()
        .toBuffer();
      const image = await upload(ctx, content, 411, 'image', 'plan.png', png);
      expect(image.status, image.text).toBe(200);
      const { large, small } = image.json<{ image: { large: string; small: string } }>().image;
      const served = await ctx.app.inject({ method: 'GET', url: small });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 560, height: 280, format: 'webp' });
      expect((await ctx.app.inject({ method: 'GET', url: large })).statusCode).toBe(200);

      const notImage = await upload(ctx, content, 411, 'image', 'plan.png', Buffer.from('<svg onload="alert(1)"/>'));
      expect(notImage.status, notImage.text).toBe(400);
      expect(notImage.text).toContain('no es una imagen PNG o JPG');
      const corrupt = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
      const unreadable = await upload(ctx, content, 411, 'image', 'rota.png', corrupt);
      expect(unreadable.status, unreadable.text).toBe(400);
      expect(unreadable.text).toContain('No pudimos leer la imagen');
      const huge = Buffer.concat([png.subarray(0, 8), Buffer.alloc(planFileLimits.imageBytes)]);
      const tooLarge = await upload(ctx, content, 411, 'image', 'enorme.png', huge);
      expect(tooLarge.status, tooLarge.text).toBe(413);
      expect(tooLarge.text).toContain('pesa más de 5 MB');
      expect((await upload(ctx, pricing, 411, 'image', 'plan.png', png)).status).toBe(403);

      const notPdf = await upload(ctx, content, 411, 'conditions', 'condiciones.pdf', png);
      expect(notPdf.status, notPdf.text).toBe(400);
      const pdf = await upload(ctx, content, 411, 'conditions', 'condiciones.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
      expect(pdf.status, pdf.text).toBe(200);
      const { conditionsKey, url } = pdf.json<{ conditionsKey: string; url: string }>();
      const document = await ctx.app.inject({ method: 'GET', url });
      expect(document.headers['content-type']).toBe('application/pdf');

      // Published with the new image and conditions, the storefront's card links them.
      const { live } = await readItem(ctx, content, 411);
      await publishPlan(ctx, content, 411, { ...live, image: { large, small }, conditionsKey });
      expect((await searched(ctx, 411))?.condicionesGenerales).toBe(url);
      await publishPlan(ctx, content, 411, live);
    });
  },
  {},
  { now: clock.now },
);
