import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import { addOns } from '#app/modules/plans/tables.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { readyToPay } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';

/**
 * «Adicionales» in the console (issue 27 §1): pricing and admin create and edit the company's add-ons (version
 * checked, audited, never deleted), finance and content read; every bad input is a 400 naming its field; the covid
 * upgrade keeps its code and price (edited per plan on «Precios»).
 */

const clock = new TestClock();
let serial = 0;
const newCode = (prefix: string) => `${prefix}-${++serial}`;

type View = {
  id: number;
  code: string;
  name: string;
  description: string;
  benefits: { label: string; value: string }[];
  pricing: 'daily' | 'percent';
  priceUsdPerDay: string | null;
  planPercent: string | null;
  priceLabel: string;
  passengerTypeIds: number[];
  modalityIds: number[];
  destinationIds: number[];
  productIds: number[];
  buyableAfterPurchase: boolean;
  active: boolean;
  sortOrder: number;
  priceFixed: boolean;
  version: number;
};
type ErrorBody = { detail: string; errors: { field: string; code: string; message: string }[] };

const addOnBody = (overrides: Record<string, unknown> = {}) => ({
  code: newCode('nieve'),
  name: 'Deportes de nieve',
  description: 'Esquí y snowboard en pistas habilitadas.',
  benefits: [{ label: 'Rescate en pista', value: 'USD 5.000' }],
  pricing: 'daily',
  priceUsdPerDay: '2,50',
  planPercent: null,
  passengerTypeIds: [],
  modalityIds: [],
  destinationIds: [],
  productIds: [],
  buyableAfterPurchase: false,
  sortOrder: 10,
  ...overrides,
});

/** The body a form would send back for an add-on as the API shows it. */
const bodyOf = (view: View) => ({
  code: view.code,
  name: view.name,
  description: view.description,
  benefits: view.benefits,
  pricing: view.pricing,
  priceUsdPerDay: view.priceUsdPerDay,
  planPercent: view.planPercent,
  passengerTypeIds: view.passengerTypeIds,
  modalityIds: view.modalityIds,
  destinationIds: view.destinationIds,
  productIds: view.productIds,
  buyableAfterPurchase: view.buyableAfterPurchase,
  sortOrder: view.sortOrder,
  active: view.active,
  version: view.version,
});

async function create(ctx: TestContext, operator: Operator, overrides: Record<string, unknown> = {}) {
  const answer = await asOperator(ctx, operator, 'POST', '/api/backoffice/add-ons', addOnBody(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.json<{ addOn: View }>().addOn;
}

const auditOf = (ctx: TestContext, id: number) =>
  ctx.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'add_on'), eq(auditEntries.targetId, String(id))))
    .orderBy(auditEntries.id);

describeOnEachDatabase(
  '«Adicionales»: the console edits the add-ons',
  (ctx, kind) => {
    let pricing: Operator;
    let otherPricing: Operator;

    it('pricing and admin edit; finance and content read; support does not see them', async () => {
      pricing = await enrolledOperator(ctx, `precios-${kind}@travesia.cl`, ['pricing'], clock);
      otherPricing = await enrolledOperator(ctx, `precios2-${kind}@travesia.cl`, ['pricing'], clock);
      const finance = await enrolledOperator(ctx, `finanzas-${kind}@travesia.cl`, ['finance'], clock);
      const content = await enrolledOperator(ctx, `contenido-${kind}@travesia.cl`, ['content'], clock);
      const support = await enrolledOperator(ctx, `soporte-${kind}@travesia.cl`, ['support'], clock);
      const created = await create(ctx, pricing);
      for (const reader of [finance, content]) {
        expect((await asOperator(ctx, reader, 'GET', '/api/backoffice/add-ons')).status).toBe(200);
        expect((await asOperator(ctx, reader, 'GET', `/api/backoffice/add-ons/${created.id}`)).status).toBe(200);
        expect((await asOperator(ctx, reader, 'POST', '/api/backoffice/add-ons', addOnBody())).status).toBe(403);
        const put = await asOperator(ctx, reader, 'PUT', `/api/backoffice/add-ons/${created.id}`, bodyOf(created));
        expect(put.status).toBe(403);
      }
      expect((await asOperator(ctx, support, 'GET', '/api/backoffice/add-ons')).status).toBe(403);
    });

    it('lists the seeded add-ons in order with their price in words and the catalogue to choose from', async () => {
      const answer = await asOperator(ctx, pricing, 'GET', '/api/backoffice/add-ons');
      expect(answer.status, answer.text).toBe(200);
      const body = answer.json<{
        options: Record<'passengerTypes' | 'modalities' | 'regions' | 'plans', { id: number; label: string }[]>;
        addOns: View[];
      }>();
      const sports = body.addOns.find((row) => row.code === 'deportes-aventura');
      expect(sports).toMatchObject({
        name: 'Deportes y aventura',
        pricing: 'daily',
        priceUsdPerDay: '2.50',
        planPercent: null,
        priceLabel: 'USD 2,50 por viajero por día',
        passengerTypeIds: [1],
        modalityIds: [1, 3],
        buyableAfterPurchase: true,
        priceFixed: false,
      });
      expect(body.addOns.find((row) => row.code === 'preexistencias-plus')).toMatchObject({
        pricing: 'percent',
        planPercent: '30',
        priceLabel: '30 % del plan',
      });
      expect(body.options.passengerTypes.map((type) => type.label)).toContain('Pasajero de 0 a 74 años');
      expect(body.options.regions.map((region) => region.label)).toContain('Sudamérica');
      expect(body.options.plans.map((plan) => plan.id)).toContain(410);
      expect(body.options.modalities.length).toBeGreaterThan(0);
    });

    it('creates one: the typed price becomes cents or basis points, texts lose their markup, ids are sorted; audited', async () => {
      const code = newCode('equipaje');
      const created = await create(ctx, pricing, {
        code: ` ${code.toUpperCase()} `,
        name: '<b>Equipaje</b> plus',
        description: 'Pérdida\u0007 de <script>alert(1)</script>maletas',
        benefits: [{ label: '<i>Compensación</i>', value: 'USD 1.500' }],
        pricing: 'percent',
        priceUsdPerDay: null,
        planPercent: '12,5',
        passengerTypeIds: [2, 1, 2],
        destinationIds: [1],
        productIds: [411, 410],
        buyableAfterPurchase: true,
      });
      expect(created).toMatchObject({
        code,
        name: 'Equipaje plus',
        description: 'Pérdida de alert(1)maletas',
        benefits: [{ label: 'Compensación', value: 'USD 1.500' }],
        pricing: 'percent',
        planPercent: '12.5',
        priceUsdPerDay: null,
        priceLabel: '12,5 % del plan',
        passengerTypeIds: [1, 2],
        modalityIds: [],
        destinationIds: [1],
        productIds: [410, 411],
        buyableAfterPurchase: true,
        active: true,
        version: 1,
      });
      const [row] = await ctx.database.db.select().from(addOns).where(eq(addOns.id, created.id));
      expect(row).toMatchObject({ planPercentBp: 1250, priceCentsPerDay: null, companyId: 1 });
      const one = await asOperator(ctx, pricing, 'GET', `/api/backoffice/add-ons/${created.id}`);
      expect(one.json<{ addOn: View }>().addOn).toMatchObject({ code, version: 1 });
      const audit = await auditOf(ctx, created.id);
      expect(audit.map((entry) => entry.action)).toStrictEqual(['add_on.created']);
      expect(audit[0]?.before).toBeNull();
      expect(audit[0]?.after).toMatchObject({ code, planPercent: '12.5', version: 1 });
      expect(audit[0]?.actorLabel).toContain('precios-');
    });

    it('the store offers what the console saves at once: a new add-on, its new price, and none once deactivated', async () => {
      const quotationId = await readyToPay(ctx, { passengers: false });
      type Offers = { addOns: { name: string; bands: { price: { amountUsd: number } | null }[] }[] };
      const offered = async (name: string) => {
        const answer = await get(ctx.app, `/api/companies/1/quotations/${quotationId}/add-ons`);
        expect(answer.status, answer.text).toBe(200);
        return answer.json<Offers>().addOns.find((offer) => offer.name === name);
      };
      const name = `Nieve ${newCode('x')}`;
      expect(await offered(name)).toBeUndefined();
      const created = await create(ctx, pricing, { name });
      // USD 2,50 a day for the reference trip's 10 days.
      expect((await offered(name))?.bands[0]?.price?.amountUsd).toBe(25);
      const saved = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${created.id}`, {
        ...bodyOf(created),
        priceUsdPerDay: '4',
      });
      expect(saved.status, saved.text).toBe(200);
      expect((await offered(name))?.bands[0]?.price?.amountUsd).toBe(40);
      const off = await asOperator(ctx, pricing, 'POST', `/api/backoffice/add-ons/${created.id}/deactivate`, {
        version: saved.json<{ addOn: View }>().addOn.version,
      });
      expect(off.status, off.text).toBe(200);
      expect(await offered(name)).toBeUndefined();
    });

    it('updates with the version it was loaded with; a stale form is a 409 naming what changed, nothing written', async () => {
      const created = await create(ctx, pricing);
      const first = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${created.id}`, {
        ...bodyOf(created),
        priceUsdPerDay: '3',
        modalityIds: [1],
      });
      expect(first.status, first.text).toBe(200);
      expect(first.json<{ addOn: View }>().addOn).toMatchObject({
        priceUsdPerDay: '3.00',
        priceLabel: 'USD 3,00 por viajero por día',
        modalityIds: [1],
        version: 2,
      });
      const stale = await asOperator(ctx, otherPricing, 'PUT', `/api/backoffice/add-ons/${created.id}`, {
        ...bodyOf(created),
        name: 'Otro nombre',
      });
      expect(stale.status).toBe(409);
      const body = stale.json<ErrorBody>();
      expect(body.detail).toMatch(
        /Otro operador guardó este adicional mientras lo editabas \(ahora va en la versión 2\)/,
      );
      expect(body.errors).toContainEqual({
        field: 'priceUsdPerDay',
        code: 'stale',
        message: 'Precio por viajero por día (USD): ahora dice «3.00».',
      });
      expect(body.errors).toContainEqual({
        field: 'modalityIds',
        code: 'stale',
        message: 'Modalidades: ahora dice «1».',
      });
      const now = await asOperator(ctx, pricing, 'GET', `/api/backoffice/add-ons/${created.id}`);
      expect(now.json<{ addOn: View }>().addOn).toMatchObject({ name: 'Deportes de nieve', version: 2 });
      const audit = await auditOf(ctx, created.id);
      expect(audit.map((entry) => entry.action)).toStrictEqual(['add_on.created', 'add_on.updated']);
      expect(audit[1]?.before).toMatchObject({ priceUsdPerDay: '2.50', modalityIds: [], version: 1 });
      expect(audit[1]?.after).toMatchObject({ priceUsdPerDay: '3.00', modalityIds: [1], version: 2 });
    });

    it('two operators saving the same version at once: exactly one wins', async () => {
      const created = await create(ctx, pricing);
      const answers = await Promise.all(
        [pricing, otherPricing].map((operator, index) =>
          asOperator(ctx, operator, 'PUT', `/api/backoffice/add-ons/${created.id}`, {
            ...bodyOf(created),
            sortOrder: 20 + index,
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 409]);
      expect((await auditOf(ctx, created.id)).filter((entry) => entry.action === 'add_on.updated')).toHaveLength(1);
    });

    it('refuses bad input with the §8 body and words naming each field, never a 500', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ name: '' }, 'name', 'necesita un nombre'],
        [{ name: '<b></b>' }, 'name', 'necesita un nombre'],
        [{ name: 'x'.repeat(81) }, 'name', 'A lo más 80'],
        [{ description: 'x'.repeat(301) }, 'description', 'A lo más 300'],
        [{ benefits: Array.from({ length: 21 }, () => ({ label: 'a', value: 'b' })) }, 'benefits', 'A lo más 20'],
        [{ benefits: [{ label: 'x'.repeat(121), value: 'b' }] }, 'benefits.0.label', 'A lo más 120'],
        [{ benefits: [{ label: 'a', value: '' }] }, 'benefits.0.value', 'su límite'],
        [{ code: 'Con espacio' }, 'code', 'sin espacios'],
        [{ code: 'x'.repeat(41) }, 'code', 'A lo más 40'],
        [{ code: 'covid' }, 'code', 'upgrade covid'],
        [{ priceUsdPerDay: '0' }, 'priceUsdPerDay', 'mayor que cero'],
        [{ priceUsdPerDay: '1000,01' }, 'priceUsdPerDay', 'USD 1.000'],
        [{ priceUsdPerDay: '999999999' }, 'priceUsdPerDay', 'USD 1.000'],
        [{ priceUsdPerDay: '99999999999999999999' }, 'priceUsdPerDay', 'Escribe un número'],
        [{ priceUsdPerDay: '-5' }, 'priceUsdPerDay', 'Escribe un número'],
        [{ priceUsdPerDay: 'NaN' }, 'priceUsdPerDay', 'Escribe un número'],
        [{ priceUsdPerDay: '1e3' }, 'priceUsdPerDay', 'Escribe un número'],
        [{ priceUsdPerDay: '2,505' }, 'priceUsdPerDay', 'hasta dos decimales'],
        [{ priceUsdPerDay: 2.5 }, 'priceUsdPerDay', ''],
        [{ priceUsdPerDay: null }, 'priceUsdPerDay', 'Indica el precio'],
        [{ priceUsdPerDay: '' }, 'priceUsdPerDay', 'Indica el precio'],
        [{ planPercent: '10' }, 'planPercent', 'no lleva porcentaje'],
        [{ pricing: 'percent', planPercent: '10' }, 'priceUsdPerDay', 'no lleva precio por día'],
        [{ pricing: 'percent', priceUsdPerDay: null }, 'planPercent', 'Indica el porcentaje'],
        [{ pricing: 'percent', priceUsdPerDay: null, planPercent: '100,01' }, 'planPercent', 'a lo más 100'],
        [{ pricing: 'percent', priceUsdPerDay: null, planPercent: '0' }, 'planPercent', 'mayor que cero'],
        [{ pricing: 'weekly' }, 'pricing', ''],
        [{ passengerTypeIds: [999] }, 'passengerTypeIds', 'tramos de edad de la compañía'],
        [{ modalityIds: [999] }, 'modalityIds', 'modalidades de la compañía'],
        [{ destinationIds: [999] }, 'destinationIds', 'regiones de destino'],
        [{ productIds: [999_999] }, 'productIds', 'planes de la compañía'],
        [{ productIds: [-1] }, 'productIds.0', ''],
        [{ productIds: [99_999_999_999] }, 'productIds.0', ''],
        [{ modalityIds: 'todas' }, 'modalityIds', ''],
        [{ sortOrder: 1.5 }, 'sortOrder', ''],
        [{ sortOrder: -1 }, 'sortOrder', 'negativo'],
        [{ sortOrder: 1e12 }, 'sortOrder', '10.000'],
        [{ buyableAfterPurchase: 'si' }, 'buyableAfterPurchase', ''],
      ];
      for (const [overrides, field, words] of cases) {
        const answer = await asOperator(ctx, pricing, 'POST', '/api/backoffice/add-ons', addOnBody(overrides));
        expect(answer.status, `${JSON.stringify(overrides).slice(0, 80)}: ${answer.text}`).toBe(400);
        const body = answer.json<ErrorBody>();
        expect(body.detail).toMatch(/^Revisa los datos/);
        const error = body.errors.find((e) => e.field === field);
        expect(error, `${field}: ${answer.text}`).toBeDefined();
        expect(error?.message, answer.text).toContain(words);
      }
      const unknownKey = await asOperator(ctx, pricing, 'POST', '/api/backoffice/add-ons', {
        ...addOnBody(),
        precio: 3,
      });
      expect(unknownKey.status, unknownKey.text).toBe(400);
      expect(unknownKey.text).toContain('precio');
      // Nothing of these was written.
      const listed = await asOperator(ctx, pricing, 'GET', '/api/backoffice/add-ons');
      expect(listed.json<{ addOns: View[] }>().addOns.some((row) => row.name === '')).toBe(false);
    });

    it('a code is the company´s once: taken on create or rename is a 409 in words', async () => {
      const taken = await create(ctx, pricing);
      const again = await asOperator(ctx, pricing, 'POST', '/api/backoffice/add-ons', addOnBody({ code: taken.code }));
      expect(again.status).toBe(409);
      expect(again.json<ErrorBody>()).toMatchObject({
        detail: `Ya existe un adicional con el código ${taken.code}. Elige otro código o edita el existente.`,
        errors: [{ field: 'code', code: 'duplicate' }],
      });
      const other = await create(ctx, pricing);
      const rename = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${other.id}`, {
        ...bodyOf(other),
        code: 'deportes-aventura',
      });
      expect(rename.status).toBe(409);
      expect(rename.json<ErrorBody>().errors[0]?.field).toBe('code');
      const renamed = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${other.id}`, {
        ...bodyOf(other),
        code: `${other.code}-b`,
      });
      expect(renamed.status, renamed.text).toBe(200);
    });

    it('«Desactivar» instead of deleting: audited, refused twice; reactivated by saving it active', async () => {
      const created = await create(ctx, pricing);
      const off = await asOperator(ctx, pricing, 'POST', `/api/backoffice/add-ons/${created.id}/deactivate`, {
        version: created.version,
      });
      expect(off.status, off.text).toBe(200);
      const deactivated = off.json<{ addOn: View }>().addOn;
      expect(deactivated).toMatchObject({ active: false, version: 2 });
      const twice = await asOperator(ctx, pricing, 'POST', `/api/backoffice/add-ons/${created.id}/deactivate`, {
        version: 2,
      });
      expect(twice.status).toBe(409);
      expect(twice.json<ErrorBody>().detail).toBe('El adicional ya estaba desactivado.');
      const on = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${created.id}`, {
        ...bodyOf(deactivated),
        active: true,
      });
      expect(on.json<{ addOn: View }>().addOn).toMatchObject({ active: true, version: 3 });
      const audit = await auditOf(ctx, created.id);
      expect(audit.map((entry) => entry.action)).toStrictEqual([
        'add_on.created',
        'add_on.deactivated',
        'add_on.updated',
      ]);
      expect(audit[1]?.before).toMatchObject({ active: true, version: 1 });
      expect(audit[1]?.after).toMatchObject({ active: false, version: 2 });
      // No route deletes one: the row stays for the purchases that point at it.
      expect((await asOperator(ctx, pricing, 'DELETE', `/api/backoffice/add-ons/${created.id}`)).status).toBe(404);
      expect(await ctx.database.db.select().from(addOns).where(eq(addOns.id, created.id))).toHaveLength(1);
    });

    it('an unknown or malformed id is a 404 or a 400, never a 500', async () => {
      expect((await asOperator(ctx, pricing, 'GET', '/api/backoffice/add-ons/2000000000')).status).toBe(404);
      expect((await asOperator(ctx, pricing, 'GET', '/api/backoffice/add-ons/abc')).status).toBe(400);
      expect((await asOperator(ctx, pricing, 'GET', '/api/backoffice/add-ons/99999999999999')).status).toBe(400);
      const put = await asOperator(ctx, pricing, 'PUT', '/api/backoffice/add-ons/2000000000', {
        ...addOnBody(),
        version: 1,
      });
      expect(put.status).toBe(404);
      expect(put.json<ErrorBody>().detail).toBe('No existe ese adicional.');
    });

    it('a daily add-on priced per plan switched to a percent of the plan is saved (its plan prices dropped), never a 500', async () => {
      const created = await create(ctx, pricing);
      // Per-plan day prices, as the seed and the domain allow for any daily add-on (addOnDailyCentsFor).
      await ctx.database.db
        .update(addOns)
        .set({ planPrices: { '411': 300 } })
        .where(eq(addOns.id, created.id));
      const saved = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${created.id}`, {
        ...bodyOf(created),
        pricing: 'percent',
        priceUsdPerDay: null,
        planPercent: '10',
      });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json<{ addOn: View }>().addOn).toMatchObject({ pricing: 'percent', planPercent: '10' });
      const [row] = await ctx.database.db.select().from(addOns).where(eq(addOns.id, created.id));
      expect(row).toMatchObject({ pricing: 'percent', planPercentBp: 1000, priceCentsPerDay: null, planPrices: {} });
    });

    it('the covid upgrade keeps its code, price and eligibility (400 in words); its texts, benefits, state and order change', async () => {
      // The covid upgrade's row (moved into add_ons on its own; created here when this database does not have it).
      await ctx.database.db
        .insert(addOns)
        .values({ companyId: 1, code: 'covid', name: 'Upgrade covid', pricing: 'daily', priceCentsPerDay: 300 })
        .onConflictDoNothing();
      const [row] = await ctx.database.db
        .select()
        .from(addOns)
        .where(and(eq(addOns.companyId, 1), eq(addOns.code, 'covid')));
      const read = await asOperator(ctx, pricing, 'GET', `/api/backoffice/add-ons/${row?.id}`);
      const covid = read.json<{ addOn: View }>().addOn;
      expect(covid.priceFixed).toBe(true);
      const refused: [Record<string, unknown>, string, string][] = [
        [{ code: 'covid-19' }, 'code', 'no se cambia'],
        [
          covid.pricing === 'daily'
            ? { priceUsdPerDay: '9,99' }
            : { planPercent: '99', priceUsdPerDay: null, pricing: 'percent' },
          covid.pricing === 'daily' ? 'priceUsdPerDay' : 'planPercent',
          '«Precios»',
        ],
        [
          { pricing: covid.pricing === 'daily' ? 'percent' : 'daily', priceUsdPerDay: null, planPercent: '10' },
          'pricing',
          '«Precios»',
        ],
        [{ productIds: [410] }, 'productIds', 'solo cambian sus textos'],
        [{ buyableAfterPurchase: !covid.buyableAfterPurchase }, 'buyableAfterPurchase', 'solo cambian sus textos'],
      ];
      for (const [overrides, field, words] of refused) {
        const answer = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${covid.id}`, {
          ...bodyOf(covid),
          ...overrides,
        });
        expect(answer.status, `${JSON.stringify(overrides)}: ${answer.text}`).toBe(400);
        expect(answer.json<ErrorBody>().errors.find((e) => e.field === field)?.message, answer.text).toContain(words);
      }
      const saved = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${covid.id}`, {
        ...bodyOf(covid),
        name: 'Cobertura covid ampliada',
        description: 'Tratamiento y cuarentena por covid-19.',
        benefits: [{ label: 'Gastos médicos por covid-19', value: 'USD 40.000' }],
        sortOrder: 99,
        active: false,
      });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json<{ addOn: View }>().addOn).toMatchObject({
        code: 'covid',
        name: 'Cobertura covid ampliada',
        pricing: covid.pricing,
        priceUsdPerDay: covid.priceUsdPerDay,
        planPercent: covid.planPercent,
        sortOrder: 99,
        active: false,
        version: covid.version + 1,
      });
      const [after] = await ctx.database.db.select().from(addOns).where(eq(addOns.id, covid.id));
      expect(after).toMatchObject({ priceCentsPerDay: row?.priceCentsPerDay, planPercentBp: row?.planPercentBp });
      // No other add-on may take the code.
      const other = await create(ctx, pricing);
      const rename = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/add-ons/${other.id}`, {
        ...bodyOf(other),
        code: 'COVID',
      });
      expect(rename.status).toBe(400);
      expect(rename.json<ErrorBody>().errors[0]).toMatchObject({ field: 'code' });
    });
  },
  {},
  { now: clock.now },
);
