import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { invalidateReadCache } from '#app/app.ts';
import { payments, saleRefunds } from '#app/db/schema.ts';
import { addOns } from '#app/modules/plans/tables.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import {
  decideOnSandbox,
  followReturn,
  givenConsents,
  passengersBody,
  postPayment,
  putPassengers,
  readyToPay,
  referencePlanId,
  saleRows,
  startPayment,
  successUrl,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { createQuotation, putQuotation, quotationBody, tripDates } from './support/trips.ts';

/**
 * Issue 27 §1: add-ons chosen per traveller on the purchase step, priced on the server, charged with the plan, kept in
 * the paid snapshot. The reference trip (support/checkout.ts): Europe, 10 days, plan 411 (no IVA), two travellers of
 * 0–74 and one of 75–84.
 */

type Offer = {
  id: number;
  code: string;
  name: string;
  precio: string;
  bands: {
    passengerTypeId: number;
    available: boolean;
    reason: string | null;
    price: { amountClp: number; amountUsd: number; formatted: string } | null;
  }[];
};
type AddOnsAnswer = {
  planId: number;
  days: number;
  addOns: Offer[];
  travellers: { seq: number; passengerTypeId: number; addOns: { id: number; name: string; amountClp: number }[] }[];
  problems: { seq: number; addOnId: number; message: string }[];
  totals: { planClp: number; addOnsClp: number; totalClp: number; totalUsd: number; formatted: { total: string } };
};

const adult = 1;
const senior = 2;

async function addOnsOf(ctx: TestContext, quotationId: string) {
  const answer = await get(ctx.app, `/api/companies/1/quotations/${quotationId}/add-ons`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<AddOnsAnswer>();
}

const idOf = async (ctx: TestContext, code: string) => {
  const [row] = await ctx.database.db
    .select({ id: addOns.id })
    .from(addOns)
    .where(and(eq(addOns.companyId, 1), eq(addOns.code, code)));
  if (!row) throw new Error(`no add-on ${code}`);
  return row.id;
};

/** The reference travellers with add-ons chosen per position. */
function withAddOns(chosen: (number | string)[][]) {
  const body = passengersBody();
  return { ...body, passangers: body.passangers.map((p, index) => ({ ...p, adicionales: chosen[index] ?? [] })) };
}

/** A quotation with plan and billing saved and the travellers with these add-ons. */
async function quotationWith(ctx: TestContext, chosen: number[][], days = 10) {
  const quotationId = await readyToPay(ctx, { passengers: false, quotation: tripDates(days) });
  const saved = await putPassengers(ctx, quotationId, withAddOns(chosen));
  expect(saved.status, saved.text).toBe(204);
  return quotationId;
}

const planUsdPerBand = async (ctx: TestContext, quotationId: string) => {
  const answer = await get(ctx.app, `/api/1/plans/${referencePlanId}?quotationId=${quotationId}`);
  const [plan] = answer.json<{ perPassenger: { passengerTypeId: number; amountUsd: number }[] }[]>();
  return new Map((plan?.perPassenger ?? []).map((one) => [one.passengerTypeId, one.amountUsd]));
};

async function pay(ctx: TestContext, quotationId: string) {
  const payment = await startPayment(ctx, quotationId);
  const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 1);
  expect(await followReturn(ctx, back)).toBe(successUrl(payment));
  const [sale] = await saleRows(ctx, quotationId);
  if (!sale) throw new Error('no sale');
  return { payment, sale };
}

describeOnEachDatabase('add-ons per traveller (issue 27 §1)', (ctx) => {
  it('offers each band what it may buy with the chosen plan, priced per traveller, and says why not', async () => {
    const quotationId = await readyToPay(ctx, { passengers: false });
    const answer = await addOnsOf(ctx, quotationId);
    expect(answer.planId).toBe(referencePlanId);
    expect(answer.days).toBe(10);
    // The covid upgrade is chosen by the quotation's flag, never per traveller.
    expect(answer.addOns.map((offer) => offer.code)).not.toContain('covid');
    const sports = answer.addOns.find((offer) => offer.code === 'deportes-aventura');
    expect(sports?.precio).toBe('USD 2,50 por día');
    const sportsAdult = sports?.bands.find((band) => band.passengerTypeId === adult);
    // USD 2,50 a day × 10 days, plan 411 carries no IVA.
    expect(sportsAdult?.price?.amountUsd).toBe(25);
    const sportsSenior = sports?.bands.find((band) => band.passengerTypeId === senior);
    expect(sportsSenior).toMatchObject({ available: false, price: null });
    expect(sportsSenior?.reason).toMatch(/edad/);
    // A percent add-on is a share of what the plan costs one traveller of that band.
    const perBand = await planUsdPerBand(ctx, quotationId);
    const preexisting = answer.addOns.find((offer) => offer.code === 'preexistencias-plus');
    for (const band of [adult, senior]) {
      const price = preexisting?.bands.find((b) => b.passengerTypeId === band)?.price;
      expect(Math.abs((price?.amountUsd ?? 0) - 0.3 * (perBand.get(band) ?? 0))).toBeLessThanOrEqual(0.01);
    }
    expect(answer.travellers).toEqual([]);
    expect(answer.totals.addOnsClp).toBe(0);
  });

  it('a daily add-on priced per plan costs the chosen plan’s own price; with no price for that plan it is not offered', async () => {
    const quotationId = await readyToPay(ctx, { passengers: false });
    const sports = and(eq(addOns.companyId, 1), eq(addOns.code, 'deportes-aventura'));
    const offered = async () => (await addOnsOf(ctx, quotationId)).addOns.find((o) => o.code === 'deportes-aventura');
    try {
      // The reference plan's own price overrides the USD 2,50 a day of every other plan.
      await ctx.database.db
        .update(addOns)
        .set({ planPrices: { [referencePlanId]: 400 } })
        .where(sports);
      await invalidateReadCache(ctx.app);
      const own = await offered();
      expect(own?.precio).toBe('USD 4,00 por día');
      expect(own?.bands.find((band) => band.passengerTypeId === adult)?.price?.amountUsd).toBe(40);
      // Priced for another plan only: not sold with this one, in words if chosen.
      await ctx.database.db
        .update(addOns)
        .set({ priceCentsPerDay: null, planPrices: { 410: 400 } })
        .where(sports);
      await invalidateReadCache(ctx.app);
      expect(await offered()).toBeUndefined();
      const id = await idOf(ctx, 'deportes-aventura');
      const refused = await putPassengers(ctx, quotationId, withAddOns([[id]]));
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).toContain('Este adicional no está disponible con el plan que elegiste.');
    } finally {
      await ctx.database.db.update(addOns).set({ priceCentsPerDay: 250, planPrices: {} }).where(sports);
      await invalidateReadCache(ctx.app);
    }
  });

  it('keeps each traveller’s choice and prices the purchase as plan + add-ons, the amount the payment charges', async () => {
    const sports = await idOf(ctx, 'deportes-aventura');
    const preexisting = await idOf(ctx, 'preexistencias-plus');
    const quotationId = await quotationWith(ctx, [[sports, preexisting], [], [preexisting]]);
    const saved = await get(ctx.app, `/api/quotations/${quotationId}/passangers`);
    expect(saved.json<{ passangers: { adicionales: number[] }[] }>().passangers.map((p) => p.adicionales)).toEqual([
      [sports, preexisting],
      [],
      [preexisting],
    ]);
    const answer = await addOnsOf(ctx, quotationId);
    expect(answer.problems).toEqual([]);
    expect(answer.travellers.map((t) => t.addOns.map((a) => a.id))).toEqual([[sports, preexisting], [], [preexisting]]);
    const lines = answer.travellers.flatMap((t) => t.addOns.map((a) => a.amountClp));
    expect(answer.totals.addOnsClp).toBe(lines.reduce((sum, clp) => sum + clp, 0));
    expect(answer.totals.totalClp).toBe(answer.totals.planClp + answer.totals.addOnsClp);
    expect(answer.totals.addOnsClp).toBeGreaterThan(0);

    const { payment, sale } = await pay(ctx, quotationId);
    expect(sale.amountClp).toBe(answer.totals.totalClp);
    expect(sale.amountUsdCents).toBe(Math.round(answer.totals.totalUsd * 100));
    const [attempt] = await ctx.database.db.select().from(payments).where(eq(payments.id, payment.idTransaction));
    expect(attempt?.amountClp).toBe(answer.totals.totalClp);
    const bought = sale.purchase;
    expect(bought?.price.plan?.totalClp).toBe(answer.totals.planClp);
    expect(bought?.price.addOns?.totalClp).toBe(answer.totals.addOnsClp);
    expect(bought?.travellers.map((t) => (t.addOns ?? []).map((a) => a.name))).toEqual([
      ['Deportes y aventura', 'Preexistencias ampliadas'],
      [],
      ['Preexistencias ampliadas'],
    ]);
    const first = bought?.travellers[0]?.addOns?.[0];
    expect(first?.benefits.length).toBeGreaterThan(0);
    expect(first?.pricing).toEqual({ kind: 'daily', centsPerDay: 250 });
    expect(first?.totalUsdCents).toBe(2500);
  });

  it('refuses, in words and field by field, an add-on a traveller may not buy; nothing is written', async () => {
    const sports = await idOf(ctx, 'deportes-aventura');
    const quotationId = await quotationWith(ctx, [[sports]]);
    const refused = await putPassengers(ctx, quotationId, withAddOns([[], [], [sports]]));
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json<{ errors: unknown[] }>().errors).toEqual([
      expect.objectContaining({
        field: 'passangers.2.adicionales',
        code: 'add_on_unavailable',
        message: expect.stringMatching(/^Deportes y aventura: .*edad/),
      }),
    ]);
    for (const chosen of [[999_999], ['x'], [-1], [1.5], [2 ** 40], Array.from({ length: 11 }, (_, i) => i + 1)]) {
      const answer = await putPassengers(ctx, quotationId, withAddOns([chosen]));
      expect(answer.status, `${JSON.stringify(chosen)}: ${answer.text}`).toBe(400);
      expect(answer.json<{ errors: { field: string }[] }>().errors[0]?.field).toMatch(/^passangers\.0\.adicionales/);
    }
    const kept = await get(ctx.app, `/api/quotations/${quotationId}/passangers`);
    expect(kept.json<{ passangers: { adicionales: number[] }[] }>().passangers[0]?.adicionales).toEqual([sports]);
  });

  it('refuses to start a payment whose chosen add-on can no longer be bought, and opens nothing', async () => {
    const cancellation = await idOf(ctx, 'cancelacion-cualquier-motivo');
    const quotationId = await quotationWith(ctx, [[cancellation]]);
    await ctx.database.db.update(addOns).set({ active: false }).where(eq(addOns.id, cancellation));
    await invalidateReadCache(ctx.app);
    try {
      const answer = await postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.json<{ errors: unknown[] }>().errors).toEqual([
        expect.objectContaining({
          field: 'quotationId',
          code: 'add_on_unavailable',
          message: expect.stringMatching(/^Cancelación por cualquier motivo \(pasajero 1\) ya no se puede contratar/),
        }),
      ]);
      expect(await saleRows(ctx, quotationId)).toEqual([]);
      expect((await addOnsOf(ctx, quotationId)).problems).toHaveLength(1);
    } finally {
      await ctx.database.db.update(addOns).set({ active: true }).where(eq(addOns.id, cancellation));
      await invalidateReadCache(ctx.app);
    }
  });

  it('charges what was priced when the payment started, whatever the add-on costs when it is approved', async () => {
    const electronics = await idOf(ctx, 'electronica-equipaje-plus');
    const quotationId = await quotationWith(ctx, [[electronics], [electronics]]);
    const before = await addOnsOf(ctx, quotationId);
    const payment = await startPayment(ctx, quotationId);
    await ctx.database.db.update(addOns).set({ priceCentsPerDay: 900 }).where(eq(addOns.id, electronics));
    await invalidateReadCache(ctx.app);
    try {
      // The new price is in force: the same purchase started now would cost more.
      expect((await addOnsOf(ctx, quotationId)).totals.addOnsClp).toBeGreaterThan(before.totals.addOnsClp);
      const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', 1);
      expect(await followReturn(ctx, back)).toBe(successUrl(payment));
      const [sale] = await saleRows(ctx, quotationId);
      expect(sale?.status).toBe('paid');
      expect(sale?.amountClp).toBe(before.totals.totalClp);
      expect(sale?.purchase?.price.addOns?.totalClp).toBe(before.totals.addOnsClp);
    } finally {
      await ctx.database.db.update(addOns).set({ priceCentsPerDay: 150 }).where(eq(addOns.id, electronics));
      await invalidateReadCache(ctx.app);
    }
  });

  it('a date change re-prices a per-day add-on for the new days, as a new purchase of those days would', async () => {
    const sports = await idOf(ctx, 'deportes-aventura');
    const { sale } = await pay(ctx, await quotationWith(ctx, [[sports]]));
    const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.id);
    const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
    const { token } = opened.json<{ token: string }>();
    const longer = tripDates(12);
    const preview = await call(ctx.app, {
      method: 'POST',
      url: '/api/purchases/mine/date-change/preview',
      headers: { authorization: `Bearer ${token}` },
      payload: longer,
    });
    expect(preview.status, preview.text).toBe(200);
    const same = await addOnsOf(ctx, await quotationWith(ctx, [[sports]], 12));
    expect(preview.json<{ amountClp: number }>().amountClp).toBe(same.totals.totalClp);
    expect(same.travellers[0]?.addOns[0]?.amountClp).toBeGreaterThan(0);
  });

  it('after the purchase, the buyer adds an add-on marked for it from «Mi compra», pays it, and a withdrawal gives it back', async () => {
    const { sale } = await pay(ctx, await readyToPay(ctx));
    const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.id);
    const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
    const headers = { authorization: `Bearer ${opened.json<{ token: string }>().token}` };
    type ToBuy = {
      travellers: {
        seq: number;
        bought: string[];
        offers: { id: number; name: string; price: { amountClp: number } }[];
      }[];
    };
    const offered = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine/add-ons', headers });
    expect(offered.status, offered.text).toBe(200);
    const [camila, , rosa] = offered.json<ToBuy>().travellers;
    // Sports and electronics are marked buyable after the purchase in the demo; sports only for 0–74.
    expect(camila?.offers.map((offer) => offer.name)).toEqual(['Deportes y aventura', 'Electrónica y equipaje plus']);
    expect(rosa?.offers.map((offer) => offer.name)).toEqual(['Electrónica y equipaje plus']);
    const sports = camila?.offers[0];
    expect(sports?.price.amountClp).toBeGreaterThan(0);

    const refused = await call(ctx.app, {
      method: 'POST',
      url: '/api/purchases/mine/add-ons',
      headers,
      payload: { travellers: [{ seq: 1, adicionales: [await idOf(ctx, 'preexistencias-plus')] }] },
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json<{ errors: { field: string }[] }>().errors[0]?.field).toBe('travellers.0.adicionales');

    const bought = await call(ctx.app, {
      method: 'POST',
      url: '/api/purchases/mine/add-ons',
      headers,
      payload: { travellers: [{ seq: 1, adicionales: [sports?.id] }] },
    });
    expect(bought.status, bought.text).toBe(200);
    const started = bought.json<{ status: string; amountClp: number; redirectUrl: string }>();
    expect(started).toMatchObject({ status: 'awaiting_payment', amountClp: sports?.price.amountClp });
    // Nothing changes until the gateway approves.
    expect((await saleRows(ctx, sale.quotationId))[0]?.amountClp).toBe(sale.amountClp);
    const back = await decideOnSandbox(ctx, started.redirectUrl, 'approve', 1);
    expect(await followReturn(ctx, back)).toBe('/mi-compra?cambio=pagado');
    const [after] = await saleRows(ctx, sale.quotationId);
    expect(after?.amountClp).toBe(sale.amountClp + (sports?.price.amountClp ?? 0));
    expect(after?.purchase?.travellers[0]?.addOns).toEqual([
      expect.objectContaining({ name: 'Deportes y aventura', boughtAfterPurchase: true }),
    ]);
    expect(after?.purchase?.price.addOns?.totalClp).toBe(sports?.price.amountClp);
    const again = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine/add-ons', headers });
    const camilaNow = again.json<ToBuy>().travellers[0];
    expect(camilaNow?.bought).toEqual(['Deportes y aventura']);
    expect(camilaNow?.offers.map((offer) => offer.name)).toEqual(['Electrónica y equipaje plus']);

    // The withdrawal gives back everything paid: the purchase and the add-on's own payment.
    const withdrawn = await call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal', headers });
    expect(withdrawn.status, withdrawn.text).toBe(200);
    const refunds = await ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, sale.id));
    expect(refunds.reduce((sum, refund) => sum + refund.amountClp, 0)).toBe(after?.amountClp);
    expect(refunds).toHaveLength(2);
  });

  it('refuses a traveller named twice after the purchase: the same add-on is never sold (and charged) twice', async () => {
    const { sale } = await pay(ctx, await readyToPay(ctx));
    const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.id);
    const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
    const headers = { authorization: `Bearer ${opened.json<{ token: string }>().token}` };
    const sports = await idOf(ctx, 'deportes-aventura');
    const twice = await call(ctx.app, {
      method: 'POST',
      url: '/api/purchases/mine/add-ons',
      headers,
      payload: {
        travellers: [
          { seq: 1, adicionales: [sports] },
          { seq: 1, adicionales: [sports] },
        ],
      },
    });
    expect(twice.status, twice.text).toBe(400);
    expect(twice.json<{ errors: { field: string; code: string }[] }>().errors).toEqual([
      expect.objectContaining({ field: 'travellers.1.seq', code: 'invalid_sequence' }),
    ]);
    const changes = await ctx.database.db.select().from(payments).where(eq(payments.saleId, sale.id));
    expect(changes.map((payment) => payment.purpose)).toEqual(['purchase']);
  });

  it('free add-ons bought at once (parallel requests) are each kept or refused, never applied and then lost', async () => {
    const { sale } = await pay(ctx, await readyToPay(ctx));
    const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.id);
    const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
    const headers = { authorization: `Bearer ${opened.json<{ token: string }>().token}` };
    const offered = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine/add-ons', headers });
    const ids = offered.json<{ travellers: { offers: { id: number }[] }[] }>().travellers[0]?.offers.map((o) => o.id);
    expect(ids?.length).toBeGreaterThan(1);
    // Free: nothing to pay, each applied at once at the same amount.
    for (const id of ids ?? []) {
      await ctx.database.db.update(addOns).set({ priceCentsPerDay: 0, planPrices: {} }).where(eq(addOns.id, id));
    }
    await invalidateReadCache(ctx.app);
    const answers = await Promise.all(
      (ids ?? []).map((id) =>
        call(ctx.app, {
          method: 'POST',
          url: '/api/purchases/mine/add-ons',
          headers,
          payload: { travellers: [{ seq: 1, adicionales: [id] }] },
        }),
      ),
    );
    const applied = (ids ?? []).filter((_, index) => answers[index]?.status === 200);
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    expect(applied.length).toBeGreaterThan(0);
    const [after] = await saleRows(ctx, sale.quotationId);
    expect(after?.purchase?.travellers[0]?.addOns?.map((line) => line.id).sort()).toEqual(applied.sort());
    expect(after?.amountClp).toBe(sale.amountClp);
  });

  it('a traveller of an age band no longer quoted has her add-on named as a problem, never priced at $0', async () => {
    const preexisting = await idOf(ctx, 'preexistencias-plus');
    const quotationId = await quotationWith(ctx, [[], [], [preexisting]]);
    expect((await addOnsOf(ctx, quotationId)).totals.addOnsClp).toBeGreaterThan(0);
    // Rosa's band (75–84) is no longer quoted: the saved travellers no longer match the quotation.
    const body = quotationBody({ planId: referencePlanId, passangerTypes: [{ passengerTypeId: adult, quantity: 3 }] });
    const changed = await putQuotation(ctx, quotationId, body);
    expect(changed.status, changed.text).toBe(200);
    const after = await addOnsOf(ctx, quotationId);
    expect(after.travellers.find((one) => one.seq === 3)?.addOns).toEqual([]);
    expect(after.problems).toEqual([
      expect.objectContaining({ seq: 3, addOnId: preexisting, message: expect.stringContaining('no coinciden') }),
    ]);
    expect(after.totals.addOnsClp).toBe(0);
    expect(after.totals.totalClp).toBe(after.totals.planClp);
  });

  it('answers 400 in words before a plan is chosen, and 404 for another company', async () => {
    const quotationId = await createQuotation(ctx);
    const answer = await get(ctx.app, `/api/companies/1/quotations/${quotationId}/add-ons`);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.json<{ errors: { code: string }[] }>().errors[0]?.code).toBe('plan_required');
    const other = await get(ctx.app, `/api/companies/2/quotations/${quotationId}/add-ons`);
    expect(other.status).toBe(404);
    const malformed = await get(ctx.app, '/api/companies/1/quotations/not-a-uuid/add-ons');
    expect(malformed.status).toBe(400);
  });
});
