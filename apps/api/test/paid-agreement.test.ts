import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { payments, quotations, sales } from '#app/db/schema.ts';
import {
  decideOnSandbox,
  drainJobsAfterAll,
  failureUrl,
  followReturn,
  paymentResult,
  readyToPay,
  startPayment,
  successUrl,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { readQuotation } from './support/trips.ts';

/**
 * Decision 010: the sale is the one owner of «paid». A quotation reads paid exactly when a paid sale exists, on every
 * path that makes a sale paid (the browser's return, the sweeper, the sandbox's test payments) and on every path
 * that does not (declined, abandoned, superseded); its stored status never says paid.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

/** What the API says of the quotation and what the payments module's sale says, side by side. */
async function bothAnswers(ctx: TestContext, quotationId: string) {
  const { status } = await readQuotation(ctx, quotationId);
  const paidSales = await ctx.database.db
    .select({ id: sales.id })
    .from(sales)
    .where(sql`${sales.quotationId} = ${quotationId} and ${sales.status} = 'paid'`);
  const [stored] = await ctx.database.db
    .select({ status: quotations.status })
    .from(quotations)
    .where(eq(quotations.id, quotationId));
  return { quotationSaysPaid: status === 'paid', paidSaleExists: paidSales.length === 1, status, stored };
}

/** The two agree, and the answer is `paid`; the stored column holds only the visitor's progress. */
async function expectAgreement(ctx: TestContext, quotationId: string, paid: boolean) {
  const answers = await bothAnswers(ctx, quotationId);
  expect(answers.quotationSaysPaid, JSON.stringify(answers)).toBe(answers.paidSaleExists);
  expect(answers.paidSaleExists, JSON.stringify(answers)).toBe(paid);
  expect(answers.stored?.status).not.toBe('paid');
}

describeOnEachDatabase(
  'One owner of «paid»: the quotation reads paid exactly when its sale is paid',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('browser return: quoted → payment-started (not paid) → declined (not paid) → a new attempt approved (paid), at every step the two agree', async () => {
      const quotationId = await readyToPay(ctx);
      await expectAgreement(ctx, quotationId, false);
      expect((await readQuotation(ctx, quotationId)).status).toBe('plan-selected');

      const declined = await startPayment(ctx, quotationId);
      await expectAgreement(ctx, quotationId, false);
      expect((await readQuotation(ctx, quotationId)).status).toBe('payment-started');
      expect(await followReturn(ctx, await decideOnSandbox(ctx, declined.redirectUrl, 'decline'))).toBe(
        failureUrl(declined),
      );
      await expectAgreement(ctx, quotationId, false);

      const approved = await startPayment(ctx, quotationId);
      expect(await followReturn(ctx, await decideOnSandbox(ctx, approved.redirectUrl, 'approve'))).toBe(
        successUrl(approved),
      );
      await expectAgreement(ctx, quotationId, true);
      expect((await readQuotation(ctx, quotationId)).status).toBe('paid');
    });

    it('abandoned on the sandbox page, then superseded by a newer attempt that pays: the older attempt never makes it paid, the newer one does', async () => {
      const quotationId = await readyToPay(ctx);
      const first = await startPayment(ctx, quotationId);
      expect(await followReturn(ctx, await decideOnSandbox(ctx, first.redirectUrl, 'abandon'))).toBe(failureUrl(first));
      await expectAgreement(ctx, quotationId, false);
      const second = await startPayment(ctx, quotationId);
      const third = await startPayment(ctx, quotationId);
      // The second was superseded by the third: approving it on the page pays nothing.
      expect(await followReturn(ctx, await decideOnSandbox(ctx, second.redirectUrl, 'approve'))).toBe(
        failureUrl(second),
      );
      await expectAgreement(ctx, quotationId, false);
      expect(await followReturn(ctx, await decideOnSandbox(ctx, third.redirectUrl, 'approve'))).toBe(successUrl(third));
      await expectAgreement(ctx, quotationId, true);
    });

    it('sweeper: an approved attempt whose claim holder died is paid by the sweeper, and only then does the quotation read paid', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      await decideOnSandbox(ctx, payment.redirectUrl, 'approve');
      // Claimed by a process that crashed a minute ago (older than the claim lifetime), the browser never back.
      await ctx.database.db
        .update(payments)
        .set({ status: 'confirming', claimedAt: sql`now() - interval '60 seconds'` })
        .where(eq(payments.id, payment.idTransaction));
      await expectAgreement(ctx, quotationId, false);
      expect(await ctx.app.sweepPayments()).toBe(1);
      expect((await paymentResult(ctx, payment)).resultTransaction).toBe('AUTHORIZED');
      await expectAgreement(ctx, quotationId, true);
    });

    it('the sale alone decides: a sale made paid (or pending again) with no other write is what the quotation reads, and the quotation row cannot store paid', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      await ctx.database.db.update(sales).set({ status: 'paid' }).where(eq(sales.id, payment.idVenta));
      await expectAgreement(ctx, quotationId, true);
      await ctx.database.db.update(sales).set({ status: 'pending' }).where(eq(sales.id, payment.idVenta));
      await expectAgreement(ctx, quotationId, false);
      expect((await readQuotation(ctx, quotationId)).status).toBe('payment-started');
      // The column's CHECK constraint (migration 0007) refuses a second answer.
      await expect(
        ctx.database.db.execute(sql`update quotations set status = 'paid' where id = ${quotationId}`),
      ).rejects.toThrow();
    });
  },
  env,
);
