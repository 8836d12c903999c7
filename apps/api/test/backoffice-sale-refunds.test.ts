import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Database } from '#app/db/client.ts';
import { saleRefunds } from '#app/db/schema.ts';
import {
  referenceTaken,
  refundAlreadyDone,
  refundChanged,
  refundNotHeld,
  refundNotHoldable,
  refundNotReleasable,
  requestSaleRefund,
} from '#app/modules/payments/sale-refunds.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { drainJobsAfterAll, paidSale, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { anyRequestId, call } from './support/http.ts';

/**
 * Screen 3 of the console, «Reembolsos de ventas» (issue 24): finance's queue of sale refunds and its three steps
 * (hold with a reason, record the bank transfer, release), each audited once with before and after, by whoever is
 * signed in; and two operators on one refund at once: exactly one acts, the other is told in words (409), many
 * rounds, on the PostgreSQL pool with parallel requests.
 */

const clock = new TestClock();
// The sweeper does not run by itself here: a test sweeps when it means to.
const env: NodeJS.ProcessEnv = { WORKER: 'off' };
useTemporaryDataDir(env);
const rounds = 8;

type ConsoleRefund = {
  id: number;
  saleId: number;
  paymentId: number;
  gateway: string;
  buyOrder: string;
  reason: string;
  amountClp: number;
  state: 'pending' | 'failing' | 'held' | 'transferred' | 'refunded';
  createdAt: string;
  transferReference: string | null;
  markedBy: string | null;
  heldBy: string | null;
  heldReason: string | null;
  version: number;
};
type AuditRow = {
  id: string;
  targetType: string;
  targetId: string;
  actor: { label: string; operatorId: string | null; apiKeyId: string | null };
  before: ConsoleRefund;
  after: ConsoleRefund;
};

let serial = 0;
/** A paid sale (sandbox) with `count` refunds of 100 pesos requested (a date change's kind): their ids, oldest first. */
async function refundsToGive(ctx: TestContext, count: number) {
  const sale = await paidSale(ctx);
  const ids: number[] = [];
  await ctx.database.db.transaction(async (txn) => {
    const tx = txn as unknown as Database;
    for (let n = 0; n < count; n++) {
      const { refunds } = await requestSaleRefund(tx, {
        saleId: sale.idVenta,
        reason: 'date_change',
        amountClp: 100,
        idempotencyKey: `console-test:${++serial}`,
      });
      ids.push(...refunds.map((refund) => refund.id));
    }
  });
  return { saleId: sale.idVenta, ids };
}

const base = '/api/backoffice/sale-refunds';
const list = (ctx: TestContext, operator: Operator, query = '') => asOperator(ctx, operator, 'GET', `${base}${query}`);
/** The refund as the queue shows it now (every state). */
async function current(ctx: TestContext, operator: Operator, id: number): Promise<ConsoleRefund> {
  for (let cursor: string | null = ''; cursor !== null; ) {
    const answer = await list(ctx, operator, `?state=all${cursor ? `&cursor=${cursor}` : ''}`);
    expect(answer.status, answer.text).toBe(200);
    const page = answer.json<{ refunds: ConsoleRefund[]; nextCursor: string | null }>();
    const found = page.refunds.find((refund) => refund.id === id);
    if (found) return found;
    cursor = page.nextCursor;
  }
  throw new Error(`refund ${id} not listed`);
}
const hold = (ctx: TestContext, operator: Operator, id: number, body: unknown) =>
  asOperator(ctx, operator, 'POST', `${base}/${id}/hold`, body);
const transfer = (ctx: TestContext, operator: Operator, id: number, body: unknown) =>
  asOperator(ctx, operator, 'POST', `${base}/${id}/transfer`, body);
const release = (ctx: TestContext, operator: Operator, id: number, body: unknown) =>
  asOperator(ctx, operator, 'POST', `${base}/${id}/release`, body);
/** The audit rows of `action` on refund `id` (read by an administrator). */
async function auditOf(ctx: TestContext, admin: Operator, action: string, id: number) {
  const answer = await asOperator(ctx, admin, 'GET', `/api/backoffice/audit?action=${action}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ entries: AuditRow[] }>().entries.filter((entry) => entry.targetId === String(id));
}
const row = async (ctx: TestContext, id: number) =>
  (await ctx.database.db.select().from(saleRefunds).where(eq(saleRefunds.id, id)))[0];

describeOnEachDatabase(
  'Console: sale refunds (screen 3)',
  (ctx) => {
    drainJobsAfterAll(ctx);
    let admin: Operator;
    let finance: Operator;
    let finance2: Operator;
    it('enrols the operators', async () => {
      admin = await enrolledOperator(ctx, 'admin-reembolsos@travesia.cl', ['admin'], clock);
      finance = await enrolledOperator(ctx, 'finanzas@travesia.cl', ['finance'], clock);
      finance2 = await enrolledOperator(ctx, 'finanzas2@travesia.cl', ['finance'], clock);
      const support = await enrolledOperator(ctx, 'soporte-reembolsos@travesia.cl', ['support'], clock);
      expect((await list(ctx, support)).status).toBe(403);
    });

    it('lists the queue by state, oldest first, in keyset pages, with what the operator needs of each refund', async () => {
      const { saleId, ids } = await refundsToGive(ctx, 53);
      const seen: ConsoleRefund[] = [];
      let pages = 0;
      for (let cursor: string | null = ''; cursor !== null; pages++) {
        const answer = await list(ctx, finance, `?state=pending${cursor ? `&cursor=${cursor}` : ''}`);
        expect(answer.status, answer.text).toBe(200);
        const page = answer.json<{ refunds: ConsoleRefund[]; nextCursor: string | null }>();
        expect(page.refunds.length).toBeLessThanOrEqual(50);
        seen.push(...page.refunds);
        cursor = page.nextCursor;
      }
      expect(pages).toBeGreaterThanOrEqual(2);
      const listedIds = seen.map((refund) => refund.id);
      expect(new Set(listedIds).size).toBe(listedIds.length);
      expect(listedIds).toStrictEqual([...listedIds].sort((a, b) => a - b));
      expect(ids.every((id) => listedIds.includes(id))).toBe(true);
      expect(seen.find((refund) => refund.id === ids[0])).toMatchObject({
        saleId,
        amountClp: 100,
        reason: 'date_change',
        state: 'pending',
        gateway: 'sandbox',
        buyOrder: expect.any(String),
        transferReference: null,
        version: 1,
      });
      // One swept (the sandbox gives it back): refunded, out of the pending queue, in «refunded».
      const [first] = ids as [number];
      await ctx.database.db
        .update(saleRefunds)
        .set({ nextAttemptAt: new Date('2100-01-01T00:00:00Z') })
        .where(eq(saleRefunds.saleId, saleId));
      await ctx.database.db
        .update(saleRefunds)
        .set({ nextAttemptAt: new Date(0) })
        .where(eq(saleRefunds.id, first));
      await ctx.app.sweepPayments();
      expect((await current(ctx, finance, first)).state).toBe('refunded');
      const refunded = (await list(ctx, finance, '?state=refunded')).json<{ refunds: ConsoleRefund[] }>().refunds;
      expect(refunded.map((refund) => refund.id)).toContain(first);
      const open = (await list(ctx, finance, '?state=open')).json<{ refunds: ConsoleRefund[] }>().refunds;
      expect(open.map((refund) => refund.id)).not.toContain(first);
      // A failing one (its last attempt failed) is in «failing» and in «waiting» (the «Hoy» figure), not in «pending».
      const second = ids[1] as number;
      await ctx.database.db.update(saleRefunds).set({ lastError: 'Rechazado' }).where(eq(saleRefunds.id, second));
      expect((await current(ctx, finance, second)).state).toBe('failing');
      const failing = (await list(ctx, finance, '?state=failing')).json<{ refunds: ConsoleRefund[] }>().refunds;
      expect(failing.map((refund) => refund.id)).toContain(second);
      const waiting = (await list(ctx, finance, '?state=waiting')).json<{ refunds: ConsoleRefund[] }>().refunds;
      expect(waiting.map((refund) => refund.id)).toContain(second);
      // A bad filter or cursor: 400 in the §8 body.
      const bad = await list(ctx, finance, '?state=nada');
      expect(bad.status).toBe(400);
      expect(bad.json()).toMatchObject({ status: 400, errors: [{ field: 'state' }], requestId: anyRequestId });
      expect((await list(ctx, finance, '?cursor=-4')).status).toBe(400);
    });

    it('hold, transfer and release: each by the signed-in operator, with one audit row holding before and after', async () => {
      const { ids } = await refundsToGive(ctx, 2);
      const [one, two] = ids as [number, number];

      // Held with a reason; a name in the body is not who did it: the session is.
      const held = await hold(ctx, finance, one, { version: 1, reason: 'Tarjeta de débito', operator: 'Otro' });
      expect(held.status, held.text).toBe(200);
      const heldRefund = held.json<{ refund: ConsoleRefund }>().refund;
      expect(heldRefund).toMatchObject({
        id: one,
        state: 'held',
        heldBy: finance.email,
        heldReason: 'Tarjeta de débito',
        gateway: 'sandbox',
        version: 2,
      });
      const holds = await auditOf(ctx, admin, 'sale_refund.hold', one);
      expect(holds).toHaveLength(1);
      expect(holds[0]).toMatchObject({
        targetType: 'sale_refund',
        actor: { label: finance.email, operatorId: finance.id },
        before: { state: 'pending', heldBy: null, version: 1 },
        after: { state: 'held', heldBy: finance.email, heldReason: 'Tarjeta de débito', version: 2 },
      });

      // The transfer recorded: transferred, the reference kept, by the session's operator.
      const done = await transfer(ctx, finance, one, { version: 2, reference: ' TRF 2026/11-0001 ', operator: 'Otro' });
      expect(done.status, done.text).toBe(200);
      expect(done.json<{ refund: ConsoleRefund }>().refund).toMatchObject({
        state: 'transferred',
        transferReference: 'TRF 2026/11-0001',
        markedBy: finance.email,
        version: 3,
      });
      const transfers = await auditOf(ctx, admin, 'sale_refund.transfer', one);
      expect(transfers).toHaveLength(1);
      expect(transfers[0]).toMatchObject({
        before: { state: 'held', transferReference: null, version: 2 },
        after: { state: 'transferred', transferReference: 'TRF 2026/11-0001', markedBy: finance.email, version: 3 },
      });

      // Released: back in the sweeper's queue, pending, the hold and its reason gone.
      expect((await hold(ctx, finance, two, { version: 1, reason: 'Revisar con el banco' })).status).toBe(200);
      const released = await release(ctx, finance2, two, { version: 2 });
      expect(released.status, released.text).toBe(200);
      expect(released.json<{ refund: ConsoleRefund }>().refund).toMatchObject({
        state: 'pending',
        heldBy: null,
        heldReason: null,
        version: 3,
      });
      const releases = await auditOf(ctx, admin, 'sale_refund.release', two);
      expect(releases).toHaveLength(1);
      expect(releases[0]).toMatchObject({
        actor: { label: finance2.email },
        before: { state: 'held', heldReason: 'Revisar con el banco' },
        after: { state: 'pending', heldReason: null },
      });
      expect((await row(ctx, two))?.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

      // An API key with the finance role acts as itself.
      const key = await asOperator(ctx, admin, 'POST', '/api/backoffice/api-keys', {
        name: 'conciliacion',
        roles: ['finance'],
        expiresAt: new Date(clock.at.getTime() + 30 * 24 * 3600_000).toISOString(),
      });
      expect(key.status, key.text).toBe(201);
      const byKey = await call(ctx.app, {
        method: 'POST',
        url: `${base}/${two}/hold`,
        headers: { authorization: `Bearer ${key.json<{ secret: string }>().secret}` },
        payload: { version: 3, reason: 'Conciliación automática' },
      });
      expect(byKey.status, byKey.text).toBe(200);
      expect(byKey.json<{ refund: ConsoleRefund }>().refund.heldBy).toBe('api-key:conciliacion');
      const keyHolds = await auditOf(ctx, admin, 'sale_refund.hold', two);
      expect(keyHolds.map((entry) => entry.actor.label)).toContain('api-key:conciliacion');
    });

    it('refuses bad input with 400 in the §8 body, and a reused transfer reference with 409, changing nothing', async () => {
      const { ids } = await refundsToGive(ctx, 2);
      const [one, two] = ids as [number, number];
      expect((await hold(ctx, finance, one, { version: 1, reason: 'Débito' })).status).toBe(200);
      expect((await hold(ctx, finance, two, { version: 1, reason: 'Débito' })).status).toBe(200);
      const refusals: [unknown, string][] = [
        [{ version: 2 }, 'reference'],
        [{ version: 2, reference: '   ' }, 'reference'],
        [{ version: 2, reference: 'x'.repeat(101) }, 'reference'],
        [{ version: 2, reference: '<script>alert(1)</script>' }, 'reference'],
        [{ version: 2, reference: '-TRF' }, 'reference'],
        [{ reference: 'TRF-1' }, 'version'],
        [{ version: 'dos', reference: 'TRF-1' }, 'version'],
      ];
      for (const [body, field] of refusals) {
        const answer = await transfer(ctx, finance, one, body);
        expect(answer.status, answer.text).toBe(400);
        expect(answer.json()).toMatchObject({
          status: 400,
          detail: 'Revisa los datos del reembolso.',
          errors: [{ field, code: expect.any(String), message: expect.stringMatching(/^[A-Z¿]/) }],
          requestId: anyRequestId,
        });
        // In Spanish, for the operator's form.
        expect(answer.json<{ errors: { message: string }[] }>().errors[0]?.message).toMatch(/referencia|versión/);
      }
      const noReason = await hold(ctx, finance, one, { version: 2, reason: ' ' });
      expect(noReason.status).toBe(400);
      expect(noReason.json()).toMatchObject({ errors: [{ field: 'reason' }] });
      expect((await row(ctx, one))?.version).toBe(2);
      expect(await auditOf(ctx, admin, 'sale_refund.transfer', one)).toHaveLength(0);

      // One reference, one transfer: the second refund cannot reuse it (the unique index), and stays held.
      const reference = `TRF-UNICA-${Date.now()}`;
      expect((await transfer(ctx, finance, one, { version: 2, reference })).status).toBe(200);
      const reused = await transfer(ctx, finance, two, { version: 2, reference });
      expect(reused.status, reused.text).toBe(409);
      expect(reused.json()).toStrictEqual({
        status: 409,
        detail: referenceTaken,
        instance: `${base}/${two}/transfer`,
        errors: [{ field: 'reference', code: 'reference_taken', message: referenceTaken }],
        requestId: anyRequestId,
      });
      expect(await row(ctx, two)).toMatchObject({ status: 'pending', transferReference: null, version: 2 });
      expect(await auditOf(ctx, admin, 'sale_refund.transfer', two)).toHaveLength(0);
      // The admin API (and so the CLI: the same service) refuses it too, by the same index.
      const key = await asOperator(ctx, admin, 'POST', '/api/backoffice/api-keys', {
        name: 'finanzas-script',
        roles: ['finance'],
        expiresAt: new Date(clock.at.getTime() + 30 * 24 * 3600_000).toISOString(),
      });
      const byAdminApi = await call(ctx.app, {
        method: 'POST',
        url: `/api/admin/sale-refunds/${two}/manual`,
        headers: { authorization: `Bearer ${key.json<{ secret: string }>().secret}` },
        payload: { reference },
      });
      expect(byAdminApi.status, byAdminApi.text).toBe(409);
      expect(byAdminApi.json()).toMatchObject({ errors: [{ field: 'reference', code: 'reference_taken' }] });
      expect(await row(ctx, two)).toMatchObject({ status: 'pending', transferReference: null });
    });

    it('a hold finds the gateway had given the refund back: recorded as refunded, audited once, nothing to transfer', async () => {
      const { ids } = await refundsToGive(ctx, 1);
      const [id] = ids as [number];
      const paymentId = (await row(ctx, id))?.paymentId as number;
      // The sandbox's ledger says it gave the 100 pesos back (an earlier attempt that died before recording it).
      await ctx.database.db.execute(
        sql`update sandbox_transactions set refunded_clp = 100 where token = (select external_id from payments where id = ${paymentId})`,
      );
      const held = await hold(ctx, finance, id, { version: 1, reason: 'Débito' });
      expect(held.status, held.text).toBe(200);
      expect(held.json<{ refund: ConsoleRefund }>().refund).toMatchObject({ state: 'refunded', heldBy: null });
      const rows = await auditOf(ctx, admin, 'sale_refund.hold', id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ before: { state: 'pending' }, after: { state: 'refunded' } });
    });

    it('refuses a step that does not fit the state, or names a version since changed, with 409 in words', async () => {
      const { ids } = await refundsToGive(ctx, 1);
      const [id] = ids as [number];
      const refusal = async (answer: Awaited<ReturnType<typeof hold>>, message: string, code: string) => {
        expect(answer.status, answer.text).toBe(409);
        expect(answer.json()).toMatchObject({ status: 409, detail: message, errors: [{ code, message }] });
      };
      await refusal(await release(ctx, finance, id, { version: 1 }), refundNotReleasable, 'invalid_transition');
      await refusal(
        await transfer(ctx, finance, id, { version: 1, reference: 'TRF-X1' }),
        refundNotHeld,
        'refund_not_held',
      );
      expect((await hold(ctx, finance, id, { version: 1, reason: 'Débito' })).status).toBe(200);
      await refusal(
        await hold(ctx, finance, id, { version: 2, reason: 'Otra vez' }),
        refundNotHoldable,
        'invalid_transition',
      );
      // The version seen before the hold: someone else changed it.
      await refusal(await release(ctx, finance, id, { version: 1 }), refundChanged, 'stale');
      await refusal(await hold(ctx, finance, id, { version: 1, reason: 'Débito' }), refundChanged, 'stale');
      expect((await transfer(ctx, finance, id, { version: 2, reference: `TRF-X2-${Date.now()}` })).status).toBe(200);
      await refusal(
        await transfer(ctx, finance, id, { version: 3, reference: 'TRF-X3' }),
        refundAlreadyDone,
        'invalid_transition',
      );
      await refusal(await release(ctx, finance, id, { version: 3 }), refundNotReleasable, 'invalid_transition');
      expect((await asOperator(ctx, finance, 'POST', `${base}/2000000000/release`, { version: 1 })).status).toBe(404);
      // Refused steps wrote nothing to the trail.
      expect(await auditOf(ctx, admin, 'sale_refund.hold', id)).toHaveLength(1);
      expect(await auditOf(ctx, admin, 'sale_refund.release', id)).toHaveLength(0);
      expect(await auditOf(ctx, admin, 'sale_refund.transfer', id)).toHaveLength(1);
    });

    it('two operators on one refund at once: exactly one acts, the other gets 409 «Otro operador…», one audit row each round', async () => {
      const { ids } = await refundsToGive(ctx, rounds);
      const expectOneWinner = (answers: Awaited<ReturnType<typeof hold>>[]) => {
        expect(answers.map((answer) => answer.status).sort(), answers.map((a) => a.text).join('\n')).toStrictEqual([
          200, 409,
        ]);
        expect(answers.find((answer) => answer.status === 409)?.json()).toMatchObject({
          detail: refundChanged,
          errors: [{ field: 'version', code: 'stale', message: refundChanged }],
        });
        return answers.find((answer) => answer.status === 200)?.json<{ refund: ConsoleRefund }>().refund;
      };
      const [shared] = ids as [number];
      for (let round = 0; round < rounds; round++) {
        // Both hold the same pending refund, then both release it.
        const seen = await current(ctx, finance, shared);
        const heldBy = expectOneWinner(
          await Promise.all([
            hold(ctx, finance, shared, { version: seen.version, reason: `Ronda ${round} A` }),
            hold(ctx, finance2, shared, { version: seen.version, reason: `Ronda ${round} B` }),
          ]),
        );
        expect(heldBy?.state).toBe('held');
        expect(await auditOf(ctx, admin, 'sale_refund.hold', shared)).toHaveLength(round + 1);
        const released = expectOneWinner(
          await Promise.all([
            release(ctx, finance, shared, { version: seen.version + 1 }),
            release(ctx, finance2, shared, { version: seen.version + 1 }),
          ]),
        );
        expect(released?.state).toBe('pending');
        expect(await auditOf(ctx, admin, 'sale_refund.release', shared)).toHaveLength(round + 1);
      }
      // Each round a different held refund: one records the transfer while the other releases it (or records its own).
      const stepsOn = async (id: number) => [
        ...(await auditOf(ctx, admin, 'sale_refund.transfer', id)),
        ...(await auditOf(ctx, admin, 'sale_refund.release', id)),
      ];
      for (const [round, id] of ids.entries()) {
        const seen = await current(ctx, finance, id);
        const earlier = (await stepsOn(id)).length;
        const held = await hold(ctx, finance, id, { version: seen.version, reason: 'Débito' });
        expect(held.status, held.text).toBe(200);
        const version = seen.version + 1;
        const other =
          round % 2 === 0
            ? release(ctx, finance2, id, { version })
            : transfer(ctx, finance2, id, { version, reference: `TRF-B-${round}-${Date.now()}` });
        const winner = expectOneWinner(
          await Promise.all([
            transfer(ctx, finance, id, { version, reference: `TRF-A-${round}-${Date.now()}` }),
            other,
          ]),
        );
        expect(['transferred', 'pending']).toContain(winner?.state);
        // The trail is newest first: exactly one more row, the winner's.
        const rows = await stepsOn(id);
        expect(rows).toHaveLength(earlier + 1);
        const newest = rows.sort((a, b) => Number(b.id) - Number(a.id))[0];
        expect(newest?.after.state).toBe(winner?.state);
        const stored = await row(ctx, id);
        expect(stored?.version).toBe(version + 1);
        if (winner?.state === 'transferred') expect(stored?.transferReference).toBe(winner.transferReference);
      }
    });
  },
  env,
  { now: clock.now },
);
