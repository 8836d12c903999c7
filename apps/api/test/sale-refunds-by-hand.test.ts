import { errorMessages } from '@travesia/domain/messages';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { auditEntries, payments, saleRefunds, sales } from '#app/db/schema.ts';
import { gatewayUnavailable, refundInProgress, refundNotHeld } from '#app/modules/payments/sale-refunds.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import { runRefundsCli } from '#app/refunds-cli.ts';
import { drainJobsAfterAll, paidSale, paidWithWebpay, useTemporaryDataDir } from './support/checkout.ts';
import { captured, cliEnvironment } from './support/cli.ts';
import { authorizedBody, type FakeWebpay, startFakeWebpay } from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, anyRequestId, call, expectError } from './support/http.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';
import { tripDates } from './support/trips.ts';

/**
 * A sale refund the gateway cannot make (Webpay refuses partial refunds of debit payments): the operator finds it
 * (admin API, CLI) and records the bank transfer; that completes it exactly as a gateway success would, once, and the
 * payment sweeper never asks the gateway for it again — whatever runs at the same time.
 */

const adminToken = 'a-sale-refunds-admin-token-of-32-characters';
// The worker does not run by itself here: each test sweeps and runs the jobs when it means to.
const env: NodeJS.ProcessEnv = { ADMIN_TOKEN: adminToken, WORKER: 'off' };
useTemporaryDataDir(env);
let smtp: FakeSmtp;
let webpay: FakeWebpay;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  webpay = await startFakeWebpay();
  env.SMTP_URL = smtp.url;
  env.WEBPAY_ENVIRONMENT = webpay.url;
});
afterAll(async () => {
  await smtp?.close();
  await webpay?.close();
});

type SaleRefundView = {
  id: number;
  saleId: number;
  reason: string;
  amountClp: number;
  status: 'pending' | 'refunded';
  attempts: number;
  lastError: string | null;
  method: 'gateway' | 'manual' | null;
  transferReference: string | null;
  markedBy: string | null;
  heldAt: string | null;
  heldBy: string | null;
  refundedAt: string | null;
  changed?: boolean;
  outcome?: 'held' | 'refunded' | 'unchanged';
  gateway?: string;
};

const admin = { authorization: `Bearer ${adminToken}` };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const stuck = (ctx: TestContext, query = '') =>
  call(ctx.app, { method: 'GET', url: `/api/admin/sale-refunds${query}`, headers: admin });
const markByHand = (ctx: TestContext, id: number, body: Record<string, unknown>, headers = admin) =>
  call(ctx.app, { method: 'POST', url: `/api/admin/sale-refunds/${id}/manual`, headers, payload: body });
const hold = (ctx: TestContext, id: number, body: Record<string, unknown> = {}, headers = admin) =>
  call(ctx.app, { method: 'POST', url: `/api/admin/sale-refunds/${id}/hold`, headers, payload: body });
/** Holds a refund (the gateway says it gave nothing back) and checks it is held. */
async function held(ctx: TestContext, id: number) {
  const answer = await hold(ctx, id);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.json()).toMatchObject({ id, status: 'pending', outcome: 'held' });
}

async function openPurchase(ctx: TestContext, saleId: number) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, saleId);
  const answer = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ token: string }>().token;
}
const mine = async (ctx: TestContext, token: string) => {
  const answer = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers: auth(token) });
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{
    withdrawal: { status: string; refund: { status: string; method: string | null } | null };
    dateChanges: { differenceClp: number; refund: string | null }[];
  }>();
};
const refundsOf = (ctx: TestContext, saleId: number) =>
  ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.saleId, saleId));
const saleStatus = async (ctx: TestContext, saleId: number) =>
  (await ctx.database.db.select({ status: sales.status }).from(sales).where(eq(sales.id, saleId)))[0]?.status;
const dueNow = (ctx: TestContext, saleId: number) =>
  ctx.database.db.update(saleRefunds).set({ nextAttemptAt: sql`now()` }).where(eq(saleRefunds.saleId, saleId));
const refundedJobs = async (ctx: TestContext, saleId: number) => {
  const rows = await ctx.database.db.execute(
    sql`select count(*)::int as count from jobs where kind = 'withdrawal-email' and payload->>'stage' = 'refunded' and payload->>'saleId' = ${String(saleId)}`,
  );
  return Number(/"count":(\d+)/.exec(JSON.stringify(rows))?.[1]);
};
const mailsTo = (address: string, subject: string) =>
  smtp.received.filter((m) => m.to.includes(address) && m.parsed.subject?.includes(subject));

/** A sale paid through (the fake) Webpay, with «Mi compra» open; answers its ids, Webpay token and access token. */
async function paidWithWebpayOpened(ctx: TestContext) {
  const payment = await paidWithWebpay(ctx);
  return { saleId: payment.idVenta, token: payment.token, access: await openPurchase(ctx, payment.idVenta) };
}

const withdraw = (ctx: TestContext, access: string) =>
  call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal', headers: auth(access) });

/** A sale paid through (the fake) Webpay, withdrawn from «Mi compra»: its refund is pending, not attempted yet. */
async function withdrawnWithWebpay(ctx: TestContext) {
  const { saleId, token, access } = await paidWithWebpayOpened(ctx);
  const withdrawn = await call(ctx.app, {
    method: 'POST',
    url: '/api/purchases/mine/withdrawal',
    headers: auth(access),
  });
  expect(withdrawn.json()).toMatchObject({ status: 'withdrawing' });
  const [refund] = await refundsOf(ctx, saleId);
  if (!refund) throw new Error('no refund requested');
  return { saleId, token, access, refund };
}

/** Webpay's status of a payment it has given nothing back of (what an operator's hold asks first). */
const nothingGivenBack = () => {
  webpay.onStatus = (transaction) => ({ status: 200, body: authorizedBody(transaction) });
};
/** Webpay refuses the refund of a debit payment (a partial refund, or a debit card's): it stays pending for ever. */
const refuseDebit = () => {
  webpay.onRefund = () => ({ status: 422, body: { error_message: 'Operación no permitida para tarjeta de débito' } });
  nothingGivenBack();
};

describeOnEachDatabase(
  'Sale refunds given back by transfer (the operator’s step)',
  (ctx, kind) => {
    drainJobsAfterAll(ctx);
    afterEach(() => webpay.reset());

    it('a withdrawal refund Webpay refuses is listed, marked by hand once: sale withdrawn, buyer e-mailed, never asked of the gateway again', async () => {
      refuseDebit();
      const { saleId, token, access, refund } = await withdrawnWithWebpay(ctx);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);

      // Listed: pending with a last error (whatever the attempts), with the gateway and its order to find it there.
      const listed = (await stuck(ctx, `?saleId=${saleId}`)).json<SaleRefundView[]>();
      expect(listed).toMatchObject([
        { id: refund.id, saleId, reason: 'withdrawal', status: 'pending', attempts: 1, gateway: 'webpay' },
      ]);
      expect(listed[0]?.lastError).toBeTruthy();
      expect((await stuck(ctx, `?saleId=${saleId}&reason=date_change`)).json()).toStrictEqual([]);

      // The reference is required and limited; nothing changes on a refusal.
      const missing = await markByHand(ctx, refund.id, {});
      expect(missing.status).toBe(400);
      expect(missing.json()).toMatchObject({ status: 400, errors: [{ field: 'reference', code: 'required' }] });
      expect((await markByHand(ctx, refund.id, { reference: '   ' })).status).toBe(400);
      const long = await markByHand(ctx, refund.id, { reference: 'x'.repeat(101) });
      expect(long.json()).toMatchObject({ status: 400, errors: [{ field: 'reference', code: 'too_long' }] });
      expect((await refundsOf(ctx, saleId))[0]).toMatchObject({ status: 'pending', method: null });
      // Nobody else: no token, a wrong one → the catch-all 404; an unknown refund → 404.
      const stranger = await markByHand(ctx, refund.id, { reference: 'TRF-1' }, { authorization: 'Bearer nope' });
      expectError(stranger, 404, errorMessages.resourceNotFound, `/api/admin/sale-refunds/${refund.id}/manual`);
      const anonymous = await call(ctx.app, { method: 'GET', url: '/api/admin/sale-refunds' });
      expectError(anonymous, 404, errorMessages.resourceNotFound, '/api/admin/sale-refunds');
      expect((await markByHand(ctx, 2_000_000_000, { reference: 'TRF-1' })).status).toBe(404);
      expect((await hold(ctx, 2_000_000_000)).status).toBe(404);
      expectError(
        await hold(ctx, refund.id, {}, { authorization: 'Bearer nope' }),
        404,
        errorMessages.resourceNotFound,
        `/api/admin/sale-refunds/${refund.id}/hold`,
      );

      // Not held: the transfer must not be recorded (a retry of the sweeper could have given it back meanwhile).
      const notHeld = await markByHand(ctx, refund.id, { reference: 'TRF-000123' });
      expect(notHeld.json()).toStrictEqual({
        status: 409,
        detail: refundNotHeld,
        instance: `/api/admin/sale-refunds/${refund.id}/manual`,
        errors: [{ field: 'id', code: 'refund_not_held', message: refundNotHeld }],
        requestId: anyRequestId,
      });
      expect((await refundsOf(ctx, saleId))[0]).toMatchObject({ status: 'pending', method: null, heldAt: null });

      // Held: Webpay asked first (it gave nothing back), then the sweeper leaves it alone however due it is.
      const statusCalls = webpay.callsFor(token, 'status').length;
      const holding = await hold(ctx, refund.id, { operator: 'Paula (finanzas)' });
      expect(holding.status, holding.text).toBe(200);
      expect(holding.json()).toMatchObject({ status: 'pending', outcome: 'held', heldBy: 'Paula (finanzas)' });
      expect(webpay.callsFor(token, 'status')).toHaveLength(statusCalls + 1);
      expect((await stuck(ctx, `?saleId=${saleId}`)).json<SaleRefundView[]>()[0]?.heldAt).toBeTruthy();
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
      expect((await hold(ctx, refund.id)).json()).toMatchObject({ outcome: 'unchanged', heldBy: 'Paula (finanzas)' });
      // Released (no transfer after all): back in the sweeper's queue, due now; held again before the transfer.
      const release = (id: number) =>
        call(ctx.app, { method: 'POST', url: `/api/admin/sale-refunds/${id}/release`, headers: admin });
      expect((await release(refund.id)).json()).toMatchObject({ changed: true, heldAt: null, status: 'pending' });
      expect((await release(refund.id)).json()).toMatchObject({ changed: false });
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(2);
      expect((await hold(ctx, refund.id, { operator: 'Paula (finanzas)' })).json()).toMatchObject({ outcome: 'held' });

      const marked = await markByHand(ctx, refund.id, { reference: ' TRF-000123 ', operator: 'Paula (finanzas)' });
      expect(marked.status, marked.text).toBe(200);
      expect(marked.json()).toMatchObject({
        id: refund.id,
        status: 'refunded',
        method: 'manual',
        transferReference: 'TRF-000123',
        markedBy: 'Paula (finanzas)',
        changed: true,
      });
      expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
      expect((await mine(ctx, access)).withdrawal).toMatchObject({
        status: 'withdrawn',
        refund: { status: 'refunded', method: 'manual' },
      });
      await ctx.app.runJobs();
      const done = mailsTo('camila@example.cl', `Reembolso completado – compra N° ${saleId}`);
      expect(done).toHaveLength(1);
      expect(done[0]?.parsed.text).toContain('por transferencia bancaria');

      // Again: its state, nothing changes (not the reference either).
      const again = await markByHand(ctx, refund.id, { reference: 'TRF-999' });
      expect(again.status).toBe(200);
      expect(again.json()).toMatchObject({ status: 'refunded', transferReference: 'TRF-000123', changed: false });
      expect(await refundedJobs(ctx, saleId)).toBe(1);
      // Not listed any more, and however due it looks, the sweeper never calls the gateway for it again.
      expect((await stuck(ctx, `?saleId=${saleId}&minAttempts=0`)).json()).toStrictEqual([]);
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(2);
    });

    it('a refund the sweeper is attempting at the gateway right now: 409 «en proceso», then it can be marked', async () => {
      refuseDebit();
      webpay.delayMs = 400;
      const { saleId, refund } = await withdrawnWithWebpay(ctx);
      const sweeping = ctx.app.sweepPayments();
      await expect.poll(async () => (await refundsOf(ctx, saleId))[0]?.attempts, { timeout: 5_000 }).toBe(1);
      const holdBusy = await hold(ctx, refund.id);
      expect(holdBusy.json()).toStrictEqual({
        status: 409,
        detail: refundInProgress,
        instance: `/api/admin/sale-refunds/${refund.id}/hold`,
        errors: [{ field: 'id', code: 'refund_in_progress', message: refundInProgress }],
        requestId: anyRequestId,
      });
      const busy = await markByHand(ctx, refund.id, { reference: 'TRF-2' });
      expect(busy.status).toBe(409);
      expect(busy.json()).toStrictEqual({
        status: 409,
        detail: refundInProgress,
        instance: `/api/admin/sale-refunds/${refund.id}/manual`,
        errors: [{ field: 'id', code: 'refund_in_progress', message: refundInProgress }],
        requestId: anyRequestId,
      });
      await sweeping;
      expect((await refundsOf(ctx, saleId))[0]).toMatchObject({ status: 'pending', claimedUntil: null, heldAt: null });
      await held(ctx, refund.id);
      expect((await markByHand(ctx, refund.id, { reference: 'TRF-2' })).json()).toMatchObject({ changed: true });
      expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
    });

    it('a cheaper date change’s refund marked by hand shows as «reembolsado por transferencia»', async () => {
      const sale = await paidSale(ctx);
      const access = await openPurchase(ctx, sale.idVenta);
      const confirmed = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/date-change',
        headers: auth(access),
        payload: tripDates(5),
      });
      expect(confirmed.json()).toMatchObject({ action: 'refund', status: 'applied' });
      const [refund] = await refundsOf(ctx, sale.idVenta);
      expect(refund).toMatchObject({ reason: 'date_change', status: 'pending' });
      expect((await mine(ctx, access)).dateChanges[0]?.refund).toBe('reembolso en proceso');
      // Listed with minAttempts 0 only (never attempted, no error yet).
      expect((await stuck(ctx, `?saleId=${sale.idVenta}`)).json()).toStrictEqual([]);
      expect((await stuck(ctx, `?saleId=${sale.idVenta}&minAttempts=-1`)).status).toBe(400);

      await held(ctx, refund?.id ?? 0);
      const marked = await markByHand(ctx, refund?.id ?? 0, { reference: 'TRF-DC-1' });
      expect(marked.json()).toMatchObject({ reason: 'date_change', method: 'manual', markedBy: 'admin API' });
      expect((await mine(ctx, access)).dateChanges[0]?.refund).toBe('reembolsado por transferencia');
      // The sale itself is untouched (still paid, with its new dates).
      expect(await saleStatus(ctx, sale.idVenta)).toBe('paid');
    });

    it('a retry that finds the gateway gave the money back counts only the gateway’s refunds, not a transfer', async () => {
      // A cheaper date change's difference given back by transfer, then a withdrawal of the rest through Webpay.
      const { saleId, token, access } = await paidWithWebpayOpened(ctx);
      const [sale] = await ctx.database.db.select().from(payments).where(eq(payments.saleId, saleId));
      if (!sale) throw new Error('no payment');
      const changed = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/date-change',
        headers: auth(access),
        payload: tripDates(5),
      });
      expect(changed.json()).toMatchObject({ action: 'refund', status: 'applied' });
      const [difference] = await refundsOf(ctx, saleId);
      nothingGivenBack();
      await held(ctx, difference?.id ?? 0);
      expect((await markByHand(ctx, difference?.id ?? 0, { reference: 'TRF-DIF' })).json()).toMatchObject({
        changed: true,
      });
      expect((await withdraw(ctx, access)).json()).toMatchObject({ status: 'withdrawing' });
      // Webpay annuls the rest but the answer is lost; its status then shows the annulment.
      const rest = (await refundsOf(ctx, saleId)).find((r) => r.reason === 'withdrawal')?.amountClp ?? 0;
      expect(rest).toBe(sale.amountClp - (difference?.amountClp ?? 0));
      let given = 0;
      webpay.onRefund = () => {
        given = rest;
        return { status: 500, body: { error_message: 'connection reset' } };
      };
      webpay.onStatus = (transaction) => ({
        status: 200,
        body:
          given > 0
            ? authorizedBody(transaction, { status: 'PARTIALLY_NULLIFIED', balance: transaction.amount - given })
            : authorizedBody(transaction),
      });
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      // Recorded from the status (what Webpay gave back covers this refund: the transfer is not Webpay's), not asked again.
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
      expect((await refundsOf(ctx, saleId)).map((r) => [r.reason, r.status, r.method])).toStrictEqual([
        ['date_change', 'refunded', 'manual'],
        ['withdrawal', 'refunded', 'gateway'],
      ]);
      expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
    });

    it('the CLI lists and marks through the console API, as its API key: audited, e-mailed by the server', async () => {
      refuseDebit();
      const { saleId, token, refund } = await withdrawnWithWebpay(ctx);
      await ctx.app.sweepPayments();
      const { env, apiKey } = await cliEnvironment(ctx, ['finance'], `tesoreria-${kind}`);
      const lines: string[] = [];
      const run = async (...args: string[]) => {
        const answer = await captured(() => runRefundsCli(args, env));
        lines.push(answer.out, answer.err);
        return answer.code;
      };
      expect(await run('sale-refunds', '--sale', String(saleId))).toBe(0);
      expect(await run('sale-refunds', '--reason', 'otra')).toBe(1);
      expect(await run('sale-refund-transferred', String(refund.id))).toBe(1);
      expect(await run('sale-refund-transferred', '2000000000', '--reference', 'X')).toBe(1);
      expect(await run('sale-refund-hold', 'x')).toBe(1);
      // Not held first: refused by the API (409), said in words, nothing recorded.
      expect(await run('sale-refund-transferred', String(refund.id), '--reference', 'TRF-CLI-6')).toBe(1);
      // --by is ignored with a note: the key is who did it.
      expect(await run('sale-refund-hold', String(refund.id), '--by', 'Jorge')).toBe(0);
      expect(await run('sale-refunds', '--sale', String(saleId))).toBe(0);
      expect(await run('sale-refund-transferred', String(refund.id), '--reference', 'TRF-CLI-7')).toBe(0);
      expect(await run('sale-refund-transferred', String(refund.id), '--reference', 'TRF-CLI-8')).toBe(0);
      const said = lines.join('\n');
      expect(said).toContain(`#${refund.id} venta ${saleId} withdrawal`);
      expect(said).toContain('1 sale refund(s) to give back by hand');
      expect(said).toContain('Unknown reason «otra»');
      expect(said).toContain('--reference is required');
      expect(said).toContain('No sale refund #2000000000');
      expect(said).toContain(`Error: ${refundNotHeld}`);
      expect(said).toContain('--by is deprecated and ignored');
      expect(said).toContain(`#${refund.id}: held (sale ${saleId}`);
      expect(said).toContain(`retenido por api-key:tesoreria-${kind}`);
      expect(said).toContain(`#${refund.id}: refunded by transfer TRF-CLI-7`);
      expect(said).toContain(`#${refund.id}: already refunded (manual TRF-CLI-7); nothing changed`);
      expect((await refundsOf(ctx, saleId))[0]).toMatchObject({
        method: 'manual',
        markedBy: `api-key:tesoreria-${kind}`,
      });
      expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
      // One audit row per step, as the key.
      const audited = await ctx.database.db
        .select({ action: auditEntries.action })
        .from(auditEntries)
        .where(and(eq(auditEntries.actorApiKeyId, apiKey.id), eq(auditEntries.targetId, String(refund.id))));
      expect(audited.map((row) => row.action).sort()).toStrictEqual(['sale_refund.hold', 'sale_refund.transfer']);
      // The server's jobs send the e-mail (the worker; here run by hand).
      await ctx.app.runJobs();
      expect(mailsTo('camila@example.cl', `Reembolso completado – compra N° ${saleId}`)).toHaveLength(1);
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
    });

    it('the admin API called with an API key leaves one audit row per change, as the key; ADMIN_TOKEN and no-ops none', async () => {
      refuseDebit();
      const { saleId, refund } = await withdrawnWithWebpay(ctx);
      await ctx.app.sweepPayments();
      const { env, apiKey } = await cliEnvironment(ctx, ['finance'], `admin-api-${kind}`);
      const key = auth(env.TRAVESIA_API_KEY);
      const audited = async () =>
        (
          await ctx.database.db
            .select()
            .from(auditEntries)
            .where(eq(auditEntries.targetId, String(refund.id)))
            .orderBy(auditEntries.id)
        ).map((row) => [row.action, row.actorApiKeyId, row.actorLabel]);
      expect((await hold(ctx, refund.id, {}, key)).json()).toMatchObject({ outcome: 'held' });
      const released = await call(ctx.app, {
        method: 'POST',
        url: `/api/admin/sale-refunds/${refund.id}/release`,
        headers: key,
      });
      expect(released.json()).toMatchObject({ changed: true });
      // ADMIN_TOKEN (deprecated) names nobody: no row.
      await held(ctx, refund.id);
      const marked = await markByHand(ctx, refund.id, { reference: 'TRF-AUDIT-1', operator: 'Jorge' }, key);
      expect(marked.json()).toMatchObject({ changed: true, markedBy: `api-key:admin-api-${kind}` });
      // Already refunded: answered as it is, nothing changed, no row.
      expect((await markByHand(ctx, refund.id, { reference: 'TRF-AUDIT-1' }, key)).json()).toMatchObject({
        changed: false,
      });
      const label = `api-key:admin-api-${kind}`;
      expect(await audited()).toStrictEqual([
        ['sale_refund.hold', apiKey.id, label],
        ['sale_refund.release', apiKey.id, label],
        ['sale_refund.transfer', apiKey.id, label],
      ]);
      const [transfer] = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.targetId, String(refund.id)), eq(auditEntries.action, 'sale_refund.transfer')));
      expect(transfer?.before).toMatchObject({ status: 'pending', method: null });
      expect(transfer?.after).toMatchObject({ status: 'refunded', method: 'manual', transferReference: 'TRF-AUDIT-1' });
      expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
    });

    it('the CLI releases a held refund back to the sweeper, due now; an unknown or unheld one is said so', async () => {
      refuseDebit();
      const { saleId, token, refund } = await withdrawnWithWebpay(ctx);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
      const { env } = await cliEnvironment(ctx, ['finance']);
      /** Runs the CLI as `npm run refunds -- sale-refund-release …` does; answers its exit code and what it printed. */
      const release = (...args: string[]) => captured(() => runRefundsCli(['sale-refund-release', ...args], env));
      const notHeld = { code: 0, out: `#${refund.id}: not held (pending); nothing changed`, err: '' };

      // Not held: answered as it is (exit 0, as the release route's `changed: false`), nothing changed.
      const before = (await refundsOf(ctx, saleId))[0];
      expect(await release(String(refund.id))).toStrictEqual(notHeld);
      expect((await refundsOf(ctx, saleId))[0]).toStrictEqual(before);
      // An unknown id, a malformed one or none at all: an error line and exit 1.
      expect(await release('2000000000')).toMatchObject({ code: 1, out: '', err: 'Error: No sale refund #2000000000' });
      for (const args of [['x'], []]) {
        const answer = await release(...args);
        expect(answer).toMatchObject({ code: 1, out: '' });
        expect(answer.err).toContain('Which sale refund?');
      }

      await held(ctx, refund.id);
      // Held: the sweeper leaves it alone however due it is; then its next attempt is pushed out, to see release
      // make it due now.
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
      await ctx.database.db
        .update(saleRefunds)
        .set({ nextAttemptAt: sql`now() + interval '1 hour'` })
        .where(eq(saleRefunds.id, refund.id));
      expect(await release(String(refund.id))).toStrictEqual({
        code: 0,
        out: `#${refund.id}: released; the payment sweeper will try it again now`,
        err: '',
      });
      const released = (await refundsOf(ctx, saleId))[0];
      expect(released).toMatchObject({ status: 'pending', heldAt: null, heldBy: null, method: null, attempts: 1 });
      expect(new Date(released?.nextAttemptAt ?? 0).getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
      // Again: no longer held, nothing changed.
      expect(await release(String(refund.id))).toStrictEqual(notHeld);
      // Back in the sweeper's queue: the next sweep asks the gateway again, without making it due by hand.
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(2);
      expect((await refundsOf(ctx, saleId))[0]).toMatchObject({ status: 'pending', attempts: 2, heldAt: null });
    });

    it('a hold that finds the gateway already gave the money back records it as the gateway’s: nothing to transfer', async () => {
      // Webpay annuls the refund but its answer is lost: the row stays pending with an error, listed as stuck.
      const { saleId, token, refund } = await withdrawnWithWebpay(ctx);
      let given = 0;
      webpay.onRefund = (transaction) => {
        given = transaction.amount;
        return { status: 500, body: { error_message: 'connection reset' } };
      };
      webpay.onStatus = (transaction) => ({
        status: 200,
        body:
          given > 0 ? authorizedBody(transaction, { status: 'NULLIFIED', balance: 0 }) : authorizedBody(transaction),
      });
      await ctx.app.sweepPayments();
      expect((await stuck(ctx, `?saleId=${saleId}`)).json()).toMatchObject([{ id: refund.id, status: 'pending' }]);

      const holding = await hold(ctx, refund.id);
      expect(holding.status, holding.text).toBe(200);
      expect(holding.json()).toMatchObject({
        outcome: 'refunded',
        status: 'refunded',
        method: 'gateway',
        heldAt: null,
      });
      expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
      expect(await refundedJobs(ctx, saleId)).toBe(1);
      // No transfer can be recorded for it any more; the gateway is not asked again.
      const marked = await markByHand(ctx, refund.id, { reference: 'TRF-LATE' });
      expect(marked.json()).toMatchObject({
        status: 'refunded',
        method: 'gateway',
        transferReference: null,
        changed: false,
      });
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(1);
      expect(await refundedJobs(ctx, saleId)).toBe(1);
    });

    it('a hold while the gateway does not answer: 503, nothing held, the sweeper still retries it', async () => {
      refuseDebit();
      const { saleId, token, refund } = await withdrawnWithWebpay(ctx);
      await ctx.app.sweepPayments();
      webpay.onStatus = () => ({ status: 500, body: { error_message: 'internal error' } });
      const answer = await hold(ctx, refund.id);
      expect(answer.json()).toStrictEqual({
        status: 503,
        detail: gatewayUnavailable,
        instance: `/api/admin/sale-refunds/${refund.id}/hold`,
        errors: [{ field: 'id', code: 'gateway_unavailable', message: gatewayUnavailable }],
        requestId: anyRequestId,
      });
      expect((await refundsOf(ctx, saleId))[0]).toMatchObject({ status: 'pending', heldAt: null, heldBy: null });
      await dueNow(ctx, saleId);
      await ctx.app.sweepPayments();
      expect(webpay.callsFor(token, 'refund')).toHaveLength(2);
    });

    it(`5 holds and 3 sweeps at once, then 10 marks and 3 sweeps, six rounds: one refund, by transfer only when held first [${kind}]`, async () => {
      const winners = { manual: 0, gateway: 0 };
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      for (let round = 0; round < 6; round += 1) {
        // Refused once (so it needs a hand), then the gateway would accept it — slowly: the races are real.
        refuseDebit();
        const { saleId, token, refund } = await withdrawnWithWebpay(ctx);
        await ctx.app.sweepPayments();
        webpay.onRefund = () => ({ status: 200, body: { type: 'NULLIFIED', response_code: 0 } });
        webpay.delayMs = 60;
        await dueNow(ctx, saleId);
        const callsBefore = webpay.callsFor(token, 'refund').length;
        const holds = () => Array.from({ length: 5 }, () => hold(ctx, refund.id));
        const marks = () => Array.from({ length: 10 }, (_, i) => markByHand(ctx, refund.id, { reference: `TRF-${i}` }));
        const sweeps = () => [ctx.app.sweepPayments(), ctx.app.sweepPayments(), ctx.app.sweepPayments()];
        let running: Promise<unknown>[];
        let holding: Promise<Answer[]>;
        if (round % 3 === 1) {
          // A sweep has claimed it and is at the gateway when the holds come (and two more sweeps with them).
          const first = ctx.app.sweepPayments();
          await expect.poll(async () => (await refundsOf(ctx, saleId))[0]?.attempts, { timeout: 5_000 }).toBe(2);
          holding = Promise.all(holds());
          running = [first, ctx.app.sweepPayments(), ctx.app.sweepPayments()];
        } else if (round % 3 === 2) {
          holding = Promise.all(holds());
          await pause(5);
          running = sweeps();
        } else {
          holding = Promise.all(holds());
          running = sweeps();
        }
        const holdAnswers = await holding;
        await Promise.all(running);
        for (const answer of holdAnswers) expect([200, 409], answer.text).toContain(answer.status);
        const heldNow = holdAnswers.filter((a) => a.status === 200 && a.json<SaleRefundView>().outcome === 'held');
        expect(heldNow.length).toBeLessThanOrEqual(1);
        // The transfer is recorded while sweeps keep running.
        const [answers] = await Promise.all([Promise.all(marks()), Promise.all(sweeps())]);
        for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
        const recorded = answers.filter((a) => a.status === 200 && a.json<SaleRefundView>().changed);
        const [row] = await refundsOf(ctx, saleId);
        const gatewayCalls = webpay.callsFor(token, 'refund').length - callsBefore;
        if (row?.method === 'manual') {
          winners.manual += 1;
          // Held before any sweep took it: the gateway was never asked, and never will be.
          expect(heldNow).toHaveLength(1);
          expect(row.status).toBe('refunded');
          expect(recorded).toHaveLength(1);
          expect(gatewayCalls).toBe(0);
        } else {
          // A sweep took it first: the holds were told it is in progress (or found it refunded), no transfer recorded.
          expect(row).toMatchObject({ status: 'refunded', method: 'gateway', heldAt: null });
          winners.gateway += 1;
          expect(heldNow).toHaveLength(0);
          expect(recorded).toHaveLength(0);
          expect(gatewayCalls).toBe(1);
        }
        expect(await saleStatus(ctx, saleId)).toBe('withdrawn');
        expect(await refundedJobs(ctx, saleId)).toBe(1);
        // Afterwards: more sweeps, holds and marks change nothing and call nobody.
        await dueNow(ctx, saleId);
        await Promise.all([
          ctx.app.sweepPayments(),
          hold(ctx, refund.id),
          markByHand(ctx, refund.id, { reference: 'TRF-late' }),
        ]);
        expect(webpay.callsFor(token, 'refund').length - callsBefore).toBe(gatewayCalls);
        expect((await refundsOf(ctx, saleId))[0]?.transferReference).toBe(row?.transferReference);
        webpay.reset();
      }
      expect(winners.manual + winners.gateway).toBe(6);
      // The rounds where a sweep was at the gateway first always end with the gateway's refund.
      expect(winners.gateway).toBeGreaterThanOrEqual(2);
    });
  },
  env,
);
