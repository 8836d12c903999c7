import { randomInt } from 'node:crypto';
import { todayInChile } from '@travesia/domain/dates';
import { and, asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries, certificates, companies, saleRefunds, sales } from '#app/db/schema.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { freshHolders, paidSaleOf } from './support/certificates.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call } from './support/http.ts';

/**
 * The console's «Ventas» (issue 24, screen 2): the search by every key an operator has on the phone, a sale's page,
 * and the actions on the buyer's behalf, each audited once.
 */

const clock = new TestClock();

type SaleRow = { id: number; status: string; holder: string | null; amountClp: number; travellers: number };
type SalePage = { sales: SaleRow[]; nextCursor: string | null };
type SalePageDetail = {
  travellers: { name: string; documentType: number; documentNumber: string }[];
  certificates: { number: string; voidedAt: string | null; voidedReason: string | null }[];
  verificationCodes: { version: number; code: string; replacedAt: string | null }[];
  emails: { kind: string }[];
};

async function search(ctx: TestContext, operator: Operator, query: Record<string, string>) {
  const answer = await asOperator(ctx, operator, 'GET', `/api/backoffice/sales?${new URLSearchParams(query)}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<SalePage>();
}

/** A refusal in the §8 body, with a detail in words. */
function expectError(answer: Answer, status: number) {
  expect(answer.status, answer.text).toBe(status);
  const body = answer.json<{ status: number; detail: string; instance: string }>();
  expect(body.status).toBe(status);
  expect(body.detail.length).toBeGreaterThan(0);
  expect(body.instance).toMatch(/^\/api\/backoffice\/sales/);
}

const idsOf = (page: SalePage) => page.sales.map((sale) => sale.id);

async function auditRows(ctx: TestContext, action: string, saleId: number) {
  return ctx.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, action), eq(auditEntries.targetId, String(saleId))));
}

/** A name no other test's sale holds, with an accent and an «ñ» the search must fold. */
function uniqueName() {
  const tag = randomInt(100_000, 999_999)
    .toString()
    .replace(/\d/g, (digit) => 'abcdefghij'[Number(digit)] ?? 'a');
  return { firstName: `Begoña ${tag}`, lastName: `Núñez${tag}` };
}

describeOnEachDatabase(
  'Operator console: sales',
  (ctx) => {
    let support: Operator;
    let finance: Operator;
    const supportOf = async () => {
      support ??= await enrolledOperator(ctx, `ventas.soporte.${randomInt(1e6)}@travesia.cl`, ['support'], clock);
      return support;
    };
    const financeOf = async () => {
      finance ??= await enrolledOperator(ctx, `ventas.finanzas.${randomInt(1e6)}@travesia.cl`, ['finance'], clock);
      return finance;
    };

    it('finds a paid sale by its number, a certificate number, the RUT in any form, the passport, the e-mail and the name', async () => {
      const operator = await supportOf();
      const holders = freshHolders();
      const name = uniqueName();
      const sale = await paidSaleOf(ctx, holders, { holderName: name });
      const other = await paidSaleOf(ctx, freshHolders());
      const [certificate] = await ctx.database.db
        .select({ number: certificates.number })
        .from(certificates)
        .where(eq(certificates.saleId, sale.idVenta))
        .orderBy(asc(certificates.id))
        .limit(1);

      const found = async (query: Record<string, string>) => idsOf(await search(ctx, operator, query));
      expect(await found({ q: String(sale.idVenta) })).toStrictEqual([sale.idVenta]);
      expect(await found({ q: String(sale.idVenta), by: 'sale' })).toStrictEqual([sale.idVenta]);
      expect(await found({ q: certificate?.number.toLowerCase() ?? '' })).toStrictEqual([sale.idVenta]);
      for (const rut of [holders.rut.dotsAndDash, holders.rut.dash, holders.rut.plain]) {
        expect(await found({ q: rut }), rut).toStrictEqual([sale.idVenta]);
      }
      expect(await found({ q: holders.passport, by: 'document' })).toStrictEqual([sale.idVenta]);
      // Any traveller's e-mail, whatever its case.
      expect(await found({ q: (holders.emails[2] ?? '').toUpperCase() })).toStrictEqual([sale.idVenta]);
      // A name's prefix, given name or surname first, accents and «ñ» folded, in any case.
      const surname = name.lastName.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase();
      expect(await found({ q: surname })).toStrictEqual([sale.idVenta]);
      expect(await found({ q: `${name.lastName} Bego`, by: 'name' })).toStrictEqual([sale.idVenta]);
      expect(await found({ q: `begona ${name.firstName.split(' ')[1]} nu` })).toStrictEqual([sale.idVenta]);
      // A LIKE wildcard is a literal: «%» finds nobody rather than everybody.
      expect(await found({ q: '%%', by: 'name' })).toStrictEqual([]);
      expect(await found({ q: 'nadie.jamas@example.cl' })).toStrictEqual([]);
      expect(await found({ q: String(other.idVenta) })).toStrictEqual([other.idVenta]);

      const [row] = (await search(ctx, operator, { q: String(sale.idVenta) })).sales;
      expect(row).toMatchObject({ status: 'paid', holder: `${name.firstName} ${name.lastName}`, travellers: 3 });
      expect(row?.amountClp).toBeGreaterThan(0);
    });

    it('filters by paid date and status, pages by keyset without repeating or skipping a sale, and refuses a bad cursor in words', async () => {
      const operator = await financeOf();
      const first = await paidSaleOf(ctx, freshHolders());
      const second = await paidSaleOf(ctx, freshHolders());
      const unpaid = await paidSaleOf(ctx, freshHolders(), { pay: false });
      const today = todayInChile();

      const paidToday = await search(ctx, operator, { paidFrom: today, paidTo: today, limit: '100' });
      expect(idsOf(paidToday)).toEqual(expect.arrayContaining([first.idVenta, second.idVenta]));
      expect(idsOf(paidToday)).not.toContain(unpaid.idVenta);
      const pending = await search(ctx, operator, { status: 'pending', limit: '100' });
      expect(idsOf(pending)).toContain(unpaid.idVenta);
      expect(pending.sales.every((sale) => sale.status === 'pending')).toBe(true);
      expect(idsOf(await search(ctx, operator, { paidTo: '2020-01-01' }))).toStrictEqual([]);

      // One row a page: every sale once, newest first, the newest sale first of all.
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page: SalePage = await search(ctx, operator, { limit: '1', ...(cursor ? { cursor } : {}) });
        seen.push(...idsOf(page));
        cursor = page.nextCursor;
      } while (cursor);
      const everySale = await ctx.database.db.select({ id: sales.id }).from(sales);
      expect([...seen].sort()).toStrictEqual(everySale.map((sale) => sale.id).sort());
      expect(seen[0]).toBe(unpaid.idVenta);

      const refused: Record<string, string>[] = [
        { cursor: 'no-es-un-cursor' },
        { q: 'abc', by: 'sale' },
        { paidFrom: '28-11-2026' },
      ];
      for (const query of refused) {
        const answer = await asOperator(ctx, operator, 'GET', `/api/backoffice/sales?${new URLSearchParams(query)}`);
        expectError(answer, 400);
      }
    });

    it("a sale's page shows its trip, travellers with their documents, payments, ledger, certificates, codes, e-mails and consents", async () => {
      const operator = await financeOf();
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const answer = await asOperator(ctx, operator, 'GET', `/api/backoffice/sales/${sale.idVenta}`);
      expect(answer.status, answer.text).toBe(200);
      const page = answer.json<{
        status: string;
        plan: string;
        trip: { destination: string; departureDate: string };
        travellers: { documentNumber: string; email: string }[];
        payments: { status: string; amountClp: number }[];
        ledger: { paidClp: number; entries: unknown[] };
        certificates: { number: string; travellerSeq: number; voidedAt: string | null }[];
        verificationCodes: { version: number; code: string; replacedAt: string | null }[];
        emails: { kind: string }[];
        consents: { dataProcessing: boolean } | null;
        withdrawal: { available: boolean };
      }>();
      expect(page.status).toBe('paid');
      expect(page.plan).toBeTruthy();
      expect(page.trip.destination).toBeTruthy();
      // Finance reconciles money: the travellers' documents and e-mails masked; support, who acts for them, reads them whole.
      expect(page.travellers.map((person) => person.documentNumber)).not.toContain(holders.rut.dotsAndDash);
      expect(page.travellers[0]?.documentNumber).toMatch(/^\d{1,2}\.\*\*\*\.\*\*\*-[\dK]$/);
      expect(page.travellers.map((person) => person.email).join(' ')).not.toContain(holders.emails[0]);
      const whole = (await asOperator(ctx, await supportOf(), 'GET', `/api/backoffice/sales/${sale.idVenta}`)).json<{
        travellers: { documentNumber: string; email: string }[];
      }>();
      expect(whole.travellers.map((person) => person.documentNumber)).toContain(holders.rut.dotsAndDash);
      expect(whole.travellers.map((person) => person.email)).toStrictEqual(holders.emails);
      expect(page.payments).toMatchObject([{ status: 'authorized' }]);
      expect(page.ledger.paidClp).toBe(page.payments[0]?.amountClp);
      expect(page.certificates.map((c) => c.travellerSeq)).toStrictEqual([1, 2, 3]);
      expect(page.certificates.every((c) => c.voidedAt === null)).toBe(true);
      expect(page.verificationCodes).toMatchObject([{ version: 1, replacedAt: null }]);
      expect(page.emails.map((email) => email.kind)).toContain('certificate-email');
      expect(page.withdrawal.available).toBe(true);

      // Who looked at whose data: one row per look, naming the sale only.
      const views = await auditRows(ctx, 'sale.viewed', sale.idVenta);
      expect(views.map((view) => view.actorOperatorId).sort()).toStrictEqual([operator.id, support.id].sort());
      expect(views[0]).toMatchObject({ targetType: 'sale', before: null, after: null });
      expectError(await asOperator(ctx, operator, 'GET', '/api/backoffice/sales/1'), 404);
      expectError(await asOperator(ctx, operator, 'GET', '/api/backoffice/sales/abc'), 400);
    });

    it('resends the certificates once per window, revokes «Mi compra» access, each with one audit row; finance may only read', async () => {
      const operator = await supportOf();
      const sale = await paidSaleOf(ctx, freshHolders());
      const url = `/api/backoffice/sales/${sale.idVenta}`;
      const first = await asOperator(ctx, operator, 'POST', `${url}/certificate-email`);
      expect(first.json()).toStrictEqual({ queued: true });
      const again = await asOperator(ctx, operator, 'POST', `${url}/certificate-email`);
      expect(again.json()).toStrictEqual({ queued: false });
      const resent = await auditRows(ctx, 'sale.certificates_resent', sale.idVenta);
      expect(resent).toHaveLength(1);
      expect(resent[0]).toMatchObject({ actorOperatorId: operator.id, targetType: 'sale' });

      // The buyer's open access dies with the revocation.
      const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
      const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
      const token = opened.json<{ token: string }>().token;
      const mine = () =>
        call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: { authorization: `Bearer ${token}` } });
      expect((await mine()).status).toBe(200);
      const revoked = await asOperator(ctx, operator, 'POST', `${url}/revoke-access`);
      expect(revoked.status, revoked.text).toBe(200);
      // As an unknown token: «Mi compra» answers 404, and the e-mailed link no longer opens it.
      expect((await mine()).status).toBe(404);
      const reopened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
      expect(reopened.status).toBe(400);
      const revocations = await auditRows(ctx, 'sale.access_revoked', sale.idVenta);
      expect(revocations).toHaveLength(1);
      const { linkVersion } = revoked.json<{ linkVersion: number }>();
      expect(revocations[0]).toMatchObject({ before: { linkVersion: linkVersion - 1 }, after: { linkVersion } });

      const reader = await financeOf();
      expectError(await asOperator(ctx, reader, 'POST', `${url}/revoke-access`), 403);
      expectError(await asOperator(ctx, reader, 'POST', `${url}/withdrawal`), 403);

      const unpaid = await paidSaleOf(ctx, freshHolders(), { pay: false });
      const refused = await asOperator(
        ctx,
        operator,
        'POST',
        `/api/backoffice/sales/${unpaid.idVenta}/certificate-email`,
      );
      expectError(refused, 409);
      expect(refused.json()).toMatchObject({ errors: [{ code: 'not_changeable' }] });
    });

    it("another company's sale is none of this console's: its page and its actions answer 404, nothing changes", async () => {
      const operator = await supportOf();
      const sale = await paidSaleOf(ctx, freshHolders());
      const { db } = ctx.database;
      await db
        .insert(companies)
        .values({ id: 2, name: 'Otra', legalName: 'Otra SpA', rut: '76.543.210-3', address: 'Santiago' })
        .onConflictDoNothing();
      await db.update(sales).set({ companyId: 2 }).where(eq(sales.id, sale.idVenta));
      try {
        const url = `/api/backoffice/sales/${sale.idVenta}`;
        expectError(await asOperator(ctx, operator, 'GET', url), 404);
        for (const action of ['certificate-email', 'revoke-access', 'withdrawal']) {
          expectError(await asOperator(ctx, operator, 'POST', `${url}/${action}`), 404);
        }
        const [row] = await db.select().from(sales).where(eq(sales.id, sale.idVenta));
        expect(row?.status).toBe('paid');
        expect(idsOf(await search(ctx, operator, { q: String(sale.idVenta) }))).toStrictEqual([]);
      } finally {
        await db.update(sales).set({ companyId: ctx.config.companyId }).where(eq(sales.id, sale.idVenta));
      }
    });

    it("corrects a traveller's name and document: new certificates and code, the old code «reemplazado», one audit row", async () => {
      const operator = await supportOf();
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const url = `/api/backoffice/sales/${sale.idVenta}`;
      const before = (await asOperator(ctx, operator, 'GET', url)).json<SalePageDetail>();
      const oldCode = before.verificationCodes[0]?.code ?? '';
      const passport = `PZ${randomInt(1_000_000, 9_999_999)}`;
      const corrected = await asOperator(ctx, operator, 'POST', `${url}/travellers/2/correction`, {
        firstName: 'Diego Andrés',
        lastName: 'Muñoz Vidal',
        document: { type: 3, id: passport },
        reason: 'Pasaporte mal escrito, pedido por teléfono',
      });
      expect(corrected.status, corrected.text).toBe(200);
      expect(corrected.json()).toStrictEqual({ certificatesVersion: 2 });

      const after = (await asOperator(ctx, operator, 'GET', url)).json<SalePageDetail>();
      expect(after.travellers[1]).toMatchObject({
        name: 'Diego Andrés Muñoz Vidal',
        documentType: 3,
        documentNumber: passport,
      });
      const valid = after.certificates.filter((c) => c.voidedAt === null).map((c) => c.number);
      expect(valid).toHaveLength(3);
      expect(valid.every((number) => number.endsWith('-R2'))).toBe(true);
      expect(after.certificates.filter((c) => c.voidedReason === 'correction')).toHaveLength(3);
      expect(after.verificationCodes.map((c) => [c.version, c.replacedAt === null])).toStrictEqual([
        [1, false],
        [2, true],
      ]);
      const verify = (code: string) => call(ctx.app, { method: 'GET', url: `/api/certificates/verification/${code}` });
      expect((await verify(oldCode)).json()).toMatchObject({ status: 'replaced' });
      expect((await verify(after.verificationCodes[1]?.code ?? '')).json()).toMatchObject({ replacedAt: null });
      // Found by the corrected passport and name; the e-mail with the new certificates is queued.
      expect(idsOf(await search(ctx, operator, { q: passport, by: 'document' }))).toStrictEqual([sale.idVenta]);
      expect(after.emails.filter((email) => email.kind === 'certificate-email').length).toBeGreaterThanOrEqual(2);

      const rows = await auditRows(ctx, 'sale.traveller_corrected', sale.idVenta);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        before: { seq: 2, firstName: 'Diego', documentNumber: holders.passport },
        after: { seq: 2, firstName: 'Diego Andrés', documentNumber: passport, certificatesVersion: 2 },
      });

      // A wrong RUT, an unknown traveller: refused in words, nothing changed.
      const badRut = await asOperator(ctx, operator, 'POST', `${url}/travellers/1/correction`, {
        firstName: 'Camila',
        lastName: 'Rojas',
        document: { type: 1, id: '12.345.678-9' },
        reason: 'Corrección',
      });
      expectError(badRut, 400);
      expect(badRut.json()).toMatchObject({ errors: [{ field: 'document.id' }] });
      const nobody = await asOperator(ctx, operator, 'POST', `${url}/travellers/9/correction`, {
        firstName: 'Nadie',
        lastName: 'Nunca',
        document: { type: 3, id: 'AB1234567' },
        reason: 'Corrección',
      });
      expectError(nobody, 404);
      expect((await asOperator(ctx, operator, 'GET', url)).json<SalePageDetail>().verificationCodes).toHaveLength(2);
    });

    it("two operators withdrawing one sale on the buyer's behalf at once: it is withdrawn once, one refund, one audit row", async () => {
      const first = await supportOf();
      const second = await enrolledOperator(ctx, `ventas.otro.${randomInt(1e6)}@travesia.cl`, ['admin'], clock);
      for (let round = 0; round < 4; round++) {
        const sale = await paidSaleOf(ctx, freshHolders());
        const url = `/api/backoffice/sales/${sale.idVenta}/withdrawal`;
        const answers = await Promise.all([
          asOperator(ctx, first, 'POST', url),
          asOperator(ctx, second, 'POST', url),
          asOperator(ctx, first, 'POST', url),
        ]);
        for (const answer of answers) {
          expect(answer.status, answer.text).toBe(200);
          expect(answer.json<{ status: string }>().status).not.toBe('paid');
        }
        const refunds = await ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, sale.idVenta));
        expect(refunds).toHaveLength(1);
        const rows = await auditRows(ctx, 'sale.withdrawn_for_buyer', sale.idVenta);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ before: { status: 'paid' }, after: { status: 'withdrawing' } });
      }
    });
  },
  {},
  { now: clock.now },
);
