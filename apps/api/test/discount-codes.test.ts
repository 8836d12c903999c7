import { rutCheckDigit } from '@travesia/domain/rut';
import { and, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries, discountCodeUses, sales } from '#app/db/schema.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import {
  decideOnSandbox,
  followReturn,
  givenConsents,
  type PaymentCreated,
  paidSale,
  paymentResult,
  postPayment,
  pricedClp,
  readyToPay,
  saleRows,
  startPayment,
  successUrl,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { get } from './support/http.ts';
import { inDays, searchParams, searchUrl } from './support/trips.ts';

/**
 * Discount codes as an insurer uses them (issue 25 item 3): percent or fixed amount, validity, total and per-buyer
 * limits, plans, deactivation; the console's screen with its version check and audit; and the use counting that
 * buyers paying at once cannot beat (on PostgreSQL the payment starts run in parallel on the pool).
 */

const clock = new TestClock();
const rounds = 3;
let serial = 0;

/** A fresh code name (the store is shared by every test of the file). */
const newCode = (prefix: string) => `${prefix}${++serial}${Date.now() % 100_000}`;
/** A valid RUT of its own for each buyer, so their document differs. */
const newRut = () => {
  const body = 20_000_000 + ++serial * 7919;
  return `${body}-${rutCheckDigit(body)}`;
};

type Listed = {
  code: string;
  kind: string;
  percent: string | null;
  amountUsd: string | null;
  maxUses: number | null;
  maxUsesPerBuyer: number | null;
  productIds: number[] | null;
  active: boolean;
  state: string;
  version: number;
  usage: {
    paidSales: number;
    reserved: number;
    discountUsdCents: number;
    discountClp: number;
    revenueUsdCents: number;
    revenueClp: number;
  };
};
type Outcome = { code: string | null; status: string; message: string | null };
type Plan = { id: number; totalAmount: number; montoConversion: number; discountCode: Outcome };

const codeBody = (overrides: Record<string, unknown> = {}) => ({
  kind: 'percent',
  percent: '10',
  amountUsd: null,
  validFrom: inDays(-5),
  validTo: inDays(30),
  maxUses: null,
  maxUsesPerBuyer: null,
  productIds: null,
  ...overrides,
});

async function createCode(ctx: TestContext, operator: Operator, code: string, overrides: Record<string, unknown> = {}) {
  const answer = await asOperator(ctx, operator, 'POST', '/api/backoffice/discount-codes', {
    code,
    ...codeBody(overrides),
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.json<{ code: { version: number } }>().code;
}

async function listed(ctx: TestContext, operator: Operator, code: string): Promise<Listed> {
  const answer = await asOperator(ctx, operator, 'GET', '/api/backoffice/discount-codes');
  expect(answer.status, answer.text).toBe(200);
  const found = answer.json<{ codes: Listed[] }>().codes.find((row) => row.code === code);
  expect(found).toBeDefined();
  return found as Listed;
}

async function search(ctx: TestContext, discountCode: string): Promise<Plan[]> {
  const answer = await get(ctx.app, searchUrl(searchParams({ discountCode })));
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Plan[]>();
}
const planOf = (plans: Plan[], id: number) => plans.find((plan) => plan.id === id) as Plan;

async function comparator(ctx: TestContext, quotationId: string): Promise<Plan[]> {
  const answer = await get(ctx.app, `/api/1/plans-comparador?quotationId=${quotationId}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Plan[]>();
}

/** A buyer of their own (e-mail and RUT in the quote step) with a quotation ready to pay with `code`. */
const buyerQuotation = (ctx: TestContext, code: string, email = `comprador${++serial}@example.cl`, rut = newRut()) =>
  readyToPay(ctx, { quotation: { discountCode: code, email, rut } });

const auditOf = (ctx: TestContext, code: string) =>
  ctx.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'discount_code'), eq(auditEntries.targetId, code)))
    .orderBy(auditEntries.id);

async function approve(ctx: TestContext, payment: PaymentCreated) {
  const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve');
  expect(await followReturn(ctx, back)).toBe(successUrl(payment));
}

describeOnEachDatabase(
  'Discount codes: kinds, limits, plans, the console and counting at payment',
  (ctx, kind) => {
    let pricing: Operator;
    let otherPricing: Operator;
    let finance: Operator;
    let support: Operator;

    it('pricing and admin edit; finance reads; support does not see them', async () => {
      pricing = await enrolledOperator(ctx, `precios-${kind}@travesia.cl`, ['pricing'], clock);
      otherPricing = await enrolledOperator(ctx, `precios2-${kind}@travesia.cl`, ['pricing'], clock);
      finance = await enrolledOperator(ctx, `finanzas-${kind}@travesia.cl`, ['finance'], clock);
      support = await enrolledOperator(ctx, `soporte-${kind}@travesia.cl`, ['support'], clock);
      const code = newCode('ROLES');
      await createCode(ctx, pricing, code);
      expect((await asOperator(ctx, finance, 'GET', '/api/backoffice/discount-codes')).status).toBe(200);
      const byFinance = await asOperator(ctx, finance, 'POST', '/api/backoffice/discount-codes', {
        code: newCode('NO'),
        ...codeBody(),
      });
      expect(byFinance.status).toBe(403);
      expect((await asOperator(ctx, support, 'GET', '/api/backoffice/discount-codes')).status).toBe(403);
    });

    it('codes stored before the migration are percent codes for every plan with no limits, and still apply', async () => {
      const seeded = await listed(ctx, finance, 'BIENVENIDA10');
      expect(seeded).toMatchObject({
        kind: 'percent',
        percent: '10',
        amountUsd: null,
        maxUses: null,
        maxUsesPerBuyer: null,
        productIds: null,
        active: true,
        state: 'activo',
      });
      expect((await listed(ctx, finance, 'INVIERNO2025')).state).toBe('vencido');
      for (const plan of await search(ctx, 'BIENVENIDA10')) expect(plan.discountCode.status).toBe('applied');
    });

    it('refuses bad input with the §8 body and words per field, never a 500', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ code: 'con espacio' }, 'code', 'Usa de 3 a 30 letras'],
        [{ percent: '150' }, 'percent', 'entre 0,01 y 100'],
        [{ percent: null }, 'percent', 'Indica el porcentaje'],
        [{ kind: 'amount', amountUsd: null, percent: null }, 'amountUsd', 'Indica el monto'],
        [{ kind: 'amount', amountUsd: '0', percent: null }, 'amountUsd', 'mayor que cero'],
        [{ kind: 'amount', amountUsd: '10.999', percent: null }, 'amountUsd', 'Escribe un monto'],
        [{ validFrom: inDays(5), validTo: inDays(1) }, 'validTo', 'anterior a la de inicio'],
        [{ validFrom: '2026-02-30' }, 'validFrom', 'AAAA-MM-DD'],
        [{ maxUses: 2, maxUsesPerBuyer: 3 }, 'maxUsesPerBuyer', 'mayor que el límite total'],
        [{ maxUses: 0 }, 'maxUses', 'al menos 1'],
        [{ productIds: [999_999] }, 'productIds', 'planes de la compañía'],
        [{ productIds: [] }, 'productIds', 'al menos un plan'],
      ];
      for (const [overrides, field, words] of cases) {
        const answer = await asOperator(ctx, pricing, 'POST', '/api/backoffice/discount-codes', {
          code: newCode('MALO'),
          ...codeBody(),
          ...overrides,
        });
        expect(answer.status, `${JSON.stringify(overrides)}: ${answer.text}`).toBe(400);
        const body = answer.json<{ detail: string; errors: { field: string; message: string }[] }>();
        expect(body.detail).toMatch(/^Revisa los datos/);
        expect(body.errors.find((error) => error.field === field)?.message, answer.text).toContain(words);
      }
      const code = newCode('DOBLE');
      await createCode(ctx, pricing, code);
      const again = await asOperator(ctx, pricing, 'POST', '/api/backoffice/discount-codes', {
        code: code.toLowerCase(),
        ...codeBody(),
      });
      expect(again.status).toBe(409);
      expect(again.json<{ detail: string }>().detail).toBe(
        `Ya existe el código ${code}. Elige otro nombre o edita el existente.`,
      );
    });

    it('a fixed amount in USD limited to one plan: applied there, refused in words on the others', async () => {
      const code = newCode('FIJO');
      await createCode(ctx, pricing, code, { kind: 'amount', amountUsd: '10', percent: null, productIds: [410] });
      const plans = await search(ctx, code);
      // Esencial: 100.00 − 15 % − USD 10.00 = 75.00
      expect(planOf(plans, 410)).toMatchObject({
        totalAmount: 75,
        discountCode: {
          code,
          status: 'applied',
          message: 'Código de descuento aplicado: USD 10,00 de descuento',
        },
      });
      const plain = await search(ctx, '');
      const plus = planOf(plans, 411);
      expect(plus.discountCode).toStrictEqual({
        code,
        status: 'refused',
        message: 'El código de descuento no aplica a este plan.',
      });
      expect(plus.totalAmount).toBe(planOf(plain, 411).totalAmount);
    });

    it('an amount larger than the price takes the plan to zero, never below', async () => {
      const code = newCode('GRANDE');
      await createCode(ctx, pricing, code, { kind: 'amount', amountUsd: '5000', percent: null });
      const esencial = planOf(await search(ctx, code), 410);
      expect(esencial.totalAmount).toBe(0);
      expect(esencial.montoConversion).toBe(0);
    });

    it('deactivated: refused in words («ya no está vigente»), state desactivado, audited with before and after', async () => {
      const code = newCode('APAGAR');
      const created = await createCode(ctx, pricing, code);
      expect(planOf(await search(ctx, code), 410).discountCode.status).toBe('applied');
      const off = await asOperator(ctx, pricing, 'POST', `/api/backoffice/discount-codes/${code}/deactivate`, {
        version: created.version,
      });
      expect(off.status, off.text).toBe(200);
      expect(planOf(await search(ctx, code), 410).discountCode).toStrictEqual({
        code,
        status: 'refused',
        message: 'El código de descuento ya no está vigente; te mostramos los precios sin él.',
      });
      expect((await listed(ctx, finance, code)).state).toBe('desactivado');
      const audit = await auditOf(ctx, code);
      expect(audit.map((row) => row.action)).toStrictEqual(['discount_code.created', 'discount_code.deactivated']);
      expect(audit[1]?.before).toMatchObject({ active: true, version: 1 });
      expect(audit[1]?.after).toMatchObject({ active: false, version: 2 });
      expect(audit[1]?.actorLabel).toContain('precios-');
    });

    it('states: programado (starts later) and vencido (ended)', async () => {
      const later = newCode('LUEGO');
      await createCode(ctx, pricing, later, { validFrom: inDays(40), validTo: inDays(60) });
      const over = newCode('PASADO');
      await createCode(ctx, pricing, over, { validFrom: inDays(-60), validTo: inDays(-10) });
      expect((await listed(ctx, pricing, later)).state).toBe('programado');
      expect((await listed(ctx, pricing, over)).state).toBe('vencido');
      expect(planOf(await search(ctx, over), 410).discountCode.message).toBe(
        'El código de descuento está vencido; te mostramos los precios sin él.',
      );
    });

    it('a stale form is refused (409) naming what the other save changed; nothing written, one audit row per save', async () => {
      const code = newCode('EDITAR');
      const created = await createCode(ctx, pricing, code);
      const first = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/discount-codes/${code}`, {
        ...codeBody({ maxUses: 50 }),
        version: created.version,
      });
      expect(first.status, first.text).toBe(200);
      const stale = await asOperator(ctx, otherPricing, 'PUT', `/api/backoffice/discount-codes/${code}`, {
        ...codeBody({ percent: '15' }),
        version: created.version,
      });
      expect(stale.status).toBe(409);
      const body = stale.json<{ detail: string; errors: { field: string; code: string; message: string }[] }>();
      expect(body.detail).toMatch(/Otro operador guardó este código mientras lo editabas \(ahora va en la versión 2\)/);
      expect(body.errors).toContainEqual({
        field: 'maxUses',
        code: 'stale',
        message: 'Límite total de usos: ahora dice «50».',
      });
      expect(body.errors).toContainEqual({ field: 'percent', code: 'stale', message: 'Porcentaje: ahora dice «10».' });
      const row = await listed(ctx, pricing, code);
      expect(row.version).toBe(2);
      expect((await auditOf(ctx, code)).map((entry) => entry.action)).toStrictEqual([
        'discount_code.created',
        'discount_code.updated',
      ]);
    });

    it('two operators saving the same version at once: exactly one wins, over several rounds', async () => {
      for (let round = 0; round < rounds; round += 1) {
        const code = newCode('CARRERA');
        const created = await createCode(ctx, pricing, code);
        const answers = await Promise.all(
          [pricing, otherPricing].map((operator, index) =>
            asOperator(ctx, operator, 'PUT', `/api/backoffice/discount-codes/${code}`, {
              ...codeBody({ maxUses: 10 + index }),
              version: created.version,
            }),
          ),
        );
        expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 409]);
        expect((await auditOf(ctx, code)).filter((entry) => entry.action === 'discount_code.updated')).toHaveLength(1);
      }
    });

    it('a paid sale counts one use: usage, discount given and revenue from the sale; the limit then refuses in words', async () => {
      const code = newCode('UNO');
      await createCode(ctx, pricing, code, { kind: 'amount', amountUsd: '10', percent: null, maxUses: 1 });
      const sale = await paidSale(ctx, 1, { discountCode: code, email: `paga${++serial}@example.cl`, rut: newRut() });
      const [row] = await saleRows(ctx, sale.quotationId);
      const usage = await listed(ctx, finance, code);
      expect(usage.state).toBe('agotado');
      expect(usage.usage).toMatchObject({
        paidSales: 1,
        reserved: 0,
        discountUsdCents: 1000,
        revenueUsdCents: row?.amountUsdCents,
        revenueClp: row?.amountClp,
      });
      expect(usage.usage.discountClp).toBeGreaterThan(0);
      expect(planOf(await search(ctx, code), 411).discountCode).toStrictEqual({
        code,
        status: 'refused',
        message: 'El código ya alcanzó su límite de usos; te mostramos los precios sin él.',
      });
      // The paid quotation itself still shows the price it paid with its code.
      expect(planOf(await comparator(ctx, sale.quotationId), 411).discountCode.status).toBe('applied');
    });

    it('a paid sale keeps the terms it paid with: a later edit of the code (or its plans) does not reprice it for a date change', async () => {
      const code = newCode('TERMINOS');
      const created = await createCode(ctx, pricing, code, { percent: '10' });
      const sale = await paidSale(ctx, 1, {
        discountCode: code,
        email: `terminos${++serial}@example.cl`,
        rut: newRut(),
      });
      const [row] = await saleRows(ctx, sale.quotationId);
      const paidPlan = row?.productId as number;
      const paid = planOf(await comparator(ctx, sale.quotationId), paidPlan);
      expect(paid.discountCode.status).toBe('applied');
      // The campaign is changed to 50 % for other plans only: the paid purchase (what a date change reprices) keeps 10 %.
      const edited = await asOperator(ctx, pricing, 'PUT', `/api/backoffice/discount-codes/${code}`, {
        ...codeBody({ percent: '50', productIds: [paidPlan === 411 ? 412 : 411] }),
        version: created.version,
      });
      expect(edited.status, edited.text).toBe(200);
      const after = planOf(await comparator(ctx, sale.quotationId), paidPlan);
      expect(after.discountCode.status).toBe('applied');
      expect(after.totalAmount).toBe(paid.totalAmount);
      expect(after.montoConversion).toBe(paid.montoConversion);
    });

    it('per buyer: the same e-mail or the same document is the same buyer; told on the comparator and at payment', async () => {
      const code = newCode('PORPERSONA');
      await createCode(ctx, pricing, code, { maxUsesPerBuyer: 1 });
      const email = `repite${++serial}@example.cl`;
      const rut = newRut();
      await paidSale(ctx, 1, { discountCode: code, email, rut });
      const message = 'Ya usaste este código de descuento las veces que permite; te mostramos los precios sin él.';
      // Same e-mail, another RUT: known from the quote step, so the comparator already says it.
      const sameEmail = await buyerQuotation(ctx, code, email.toUpperCase(), newRut());
      expect(planOf(await comparator(ctx, sameEmail), 411).discountCode.message).toBe(message);
      // Only the e-mail known (no RUT in the quote step): the same.
      const emailOnly = await readyToPay(ctx, { quotation: { discountCode: code, email, rut: null } });
      expect(planOf(await comparator(ctx, emailOnly), 411).discountCode.message).toBe(message);
      // Same RUT written another way, another e-mail: refused at payment start, in words, nothing charged.
      const sameRut = await buyerQuotation(ctx, code, `otro${++serial}@example.cl`, rut.replace('-', ''));
      const refused = await postPayment(ctx, { quotationId: sameRut, gatewayId: 'sandbox', consents: givenConsents });
      expect(refused.status).toBe(400);
      expect(refused.json<{ errors: { code: string; message: string }[] }>().errors).toContainEqual({
        field: 'quotationId',
        code: 'discount_code_refused',
        message:
          'Ya usaste este código de descuento las veces que permite. No se hizo ningún cargo: vuelve a tu cotización para ver el precio sin el código.',
      });
      expect(await saleRows(ctx, sameRut)).toHaveLength(0);
      // Somebody else pays with it.
      const other = await buyerQuotation(ctx, code);
      await approve(ctx, await startPayment(ctx, other));
    });

    it('one use left and five buyers paying at once: exactly one paid sale at the discounted price, the others told before paying (rounds)', async () => {
      for (let round = 0; round < rounds; round += 1) {
        const code = newCode('ULTIMO');
        await createCode(ctx, pricing, code, { kind: 'amount', amountUsd: '20', percent: null, maxUses: 1 });
        const quotations = await Promise.all(Array.from({ length: 5 }, () => buyerQuotation(ctx, code)));
        const shown = await Promise.all(quotations.map((id) => pricedClp(ctx, id, 411)));
        const starts = await Promise.all(
          quotations.map((quotationId) =>
            postPayment(ctx, { quotationId, gatewayId: 'sandbox', consents: givenConsents }),
          ),
        );
        const accepted = starts.filter((answer) => answer.status === 201);
        expect(accepted, starts.map((answer) => answer.text).join('\n')).toHaveLength(1);
        for (const answer of starts.filter((one) => one.status !== 201)) {
          expect(answer.status).toBe(400);
          expect(answer.json<{ errors: { code: string; message: string }[] }>().errors[0]).toMatchObject({
            code: 'discount_code_refused',
            message: expect.stringContaining('ya alcanzó su límite de usos. No se hizo ningún cargo'),
          });
        }
        const winner = accepted[0]?.json<PaymentCreated>() as PaymentCreated;
        await approve(ctx, winner);
        const result = await paymentResult(ctx, winner);
        expect(result.resultTransaction).toBe('AUTHORIZED');
        const index = starts.findIndex((answer) => answer.status === 201);
        expect(result.amountClp).toBe(shown[index]);
        // Only the winner has a sale; nobody else was sent to pay anything.
        const withSale = await ctx.database.db
          .select({ count: sql<number>`count(*)::int` })
          .from(sales)
          .where(sql`${sales.quotationId} in ${quotations}`);
        expect(withSale[0]?.count).toBe(1);
        expect((await listed(ctx, finance, code)).usage.paidSales).toBe(1);
      }
    });

    it('a declined payment frees its use for the next buyer', async () => {
      const code = newCode('RECHAZO');
      await createCode(ctx, pricing, code, { maxUses: 1 });
      const first = await buyerQuotation(ctx, code);
      const attempt = await startPayment(ctx, first);
      const second = await buyerQuotation(ctx, code);
      expect(
        (await postPayment(ctx, { quotationId: second, gatewayId: 'sandbox', consents: givenConsents })).status,
      ).toBe(400);
      const back = await decideOnSandbox(ctx, attempt.redirectUrl, 'decline');
      await followReturn(ctx, back);
      await approve(ctx, await startPayment(ctx, second));
      expect((await listed(ctx, finance, code)).usage).toMatchObject({ paidSales: 1, reserved: 0 });
    });

    it('a reservation that lapsed is not paid over the limit: the late payer is refused before the charge', async () => {
      const code = newCode('TARDE');
      await createCode(ctx, pricing, code, { maxUses: 1 });
      const slow = await buyerQuotation(ctx, code);
      const slowAttempt = await startPayment(ctx, slow);
      // The slow payer's page stayed open past the reservation; another buyer takes the use meanwhile.
      await ctx.database.db
        .update(discountCodeUses)
        .set({ reservedUntil: sql`now() - interval '1 minute'` })
        .where(eq(discountCodeUses.quotationId, slow));
      const quick = await buyerQuotation(ctx, code);
      await approve(ctx, await startPayment(ctx, quick));
      const back = await decideOnSandbox(ctx, slowAttempt.redirectUrl, 'approve');
      await followReturn(ctx, back);
      const late = await paymentResult(ctx, slowAttempt);
      expect(late.resultTransaction).not.toBe('AUTHORIZED');
      expect(await saleRows(ctx, slow)).toMatchObject([{ status: 'pending' }]);
      expect((await listed(ctx, finance, code)).usage.paidSales).toBe(1);
    });
  },
  {},
  { now: clock.now },
);
