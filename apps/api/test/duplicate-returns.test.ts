import { errorMessages } from '@travesia/domain/messages';
import { asc, eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { payments, quotations, sandboxTransactions, travellers as travellerRows } from '#app/db/schema.ts';
import {
  countCertificates,
  countEmails,
  decideOnSandbox,
  drainJobsAfterAll,
  failureUrl,
  followReturn,
  passengersBody,
  paymentResult,
  putPassengers,
  readyToPay,
  referencePlanId,
  saleRows,
  startPayment,
  successUrl,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { expectBadRequest } from './support/http.ts';
import { inDays, putQuotation, quotationBody, readQuotation } from './support/trips.ts';

/**
 * A gateway return that finds its payment claimed by another process waits a moment for that process, then answers
 * with the state as it stands; it never hangs on a claim whose holder died. The claim expires after its lifetime
 * (about 30 s) and the sweeper settles the payment. While a payment is being confirmed, the purchase cannot change.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

/** What a duplicate return may take at most: the 2 s wait for the claim holder, with a generous margin. */
const answerBoundMs = 5_000;
const confirmingMessage = 'Estamos confirmando un pago de esta compra; espera su resultado antes de modificarla';

/** A sandbox payment the payer approved, whose browser has not come back yet; with the return URL it will follow. */
async function approvedNotReturned(ctx: TestContext) {
  const quotationId = await readyToPay(ctx);
  const payment = await startPayment(ctx, quotationId);
  const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve');
  return { quotationId, payment, back };
}

/** The attempt claimed by a process that then crashed: confirming, claimed now (on the database's clock). */
async function claimByDeadProcess(ctx: TestContext, paymentId: number) {
  await ctx.database.db
    .update(payments)
    .set({ status: 'confirming', claimedAt: sql`date_trunc('milliseconds', now())` })
    .where(eq(payments.id, paymentId));
}

/** The claim's age moves past its lifetime (≈ 30 s): claimed a minute ago. */
async function ageClaim(ctx: TestContext, paymentId: number) {
  await ctx.database.db
    .update(payments)
    .set({ claimedAt: sql`now() - interval '60 seconds'` })
    .where(eq(payments.id, paymentId));
}

async function paymentRow(ctx: TestContext, paymentId: number) {
  const [row] = await ctx.database.db.select().from(payments).where(eq(payments.id, paymentId));
  if (!row) throw new Error(`payment ${paymentId} not found`);
  return row;
}

async function sandboxStatus(ctx: TestContext, paymentId: number) {
  const { externalId } = await paymentRow(ctx, paymentId);
  const [row] = await ctx.database.db
    .select({ status: sandboxTransactions.status })
    .from(sandboxTransactions)
    .where(eq(sandboxTransactions.token, externalId ?? ''));
  return row?.status;
}

describeOnEachDatabase(
  'Duplicate gateway returns against a claim',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('a duplicate return while a dead process holds the claim answers within seconds: 303 /error…, CONFIRMING, the gateway not asked; after the claim lifetime the sweeper settles it AUTHORIZED and the next return goes to /exito', async () => {
      const { quotationId, payment, back } = await approvedNotReturned(ctx);
      await claimByDeadProcess(ctx, payment.idTransaction);

      const started = Date.now();
      const location = await followReturn(ctx, back);
      const elapsed = Date.now() - started;
      expect(location).toBe(failureUrl(payment));
      expect(elapsed).toBeLessThan(answerBoundMs);

      expect(await paymentResult(ctx, payment)).toMatchObject({ resultTransaction: 'CONFIRMING', certificates: [] });
      // The claim is still the dead process's: nobody committed at the gateway, nothing was paid.
      expect(await sandboxStatus(ctx, payment.idTransaction)).toBe('approved');
      expect((await saleRows(ctx, quotationId)).map((s) => s.status)).toStrictEqual(['pending']);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(0);

      // A claim younger than its lifetime may belong to a live process: the sweeper leaves it alone.
      expect(await ctx.app.sweepPayments()).toBe(0);
      expect((await paymentRow(ctx, payment.idTransaction)).status).toBe('confirming');
      expect(await sandboxStatus(ctx, payment.idTransaction)).toBe('approved');

      // Older than the claim lifetime: the sweeper claims it again, asks the gateway and records the payment.
      await ageClaim(ctx, payment.idTransaction);
      expect(await ctx.app.sweepPayments()).toBe(1);
      const result = await paymentResult(ctx, payment);
      expect(result).toMatchObject({ resultTransaction: 'AUTHORIZED', gateway: 'sandbox' });
      expect(result.certificates).toHaveLength(travellers.length);
      expect(await sandboxStatus(ctx, payment.idTransaction)).toBe('committed');
      const [sale] = await saleRows(ctx, quotationId);
      expect(sale?.status).toBe('paid');
      expect(sale?.paidAt).toBeInstanceOf(Date);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
      expect(await countEmails(ctx, payment.idVenta)).toBe(1);

      // The browser coming back once more now lands on the success page, at once.
      const again = Date.now();
      expect(await followReturn(ctx, back)).toBe(successUrl(payment));
      expect(Date.now() - again).toBeLessThan(answerBoundMs);
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
    });

    it('a duplicate return waits for the claim holder: when the holder settles the payment during the wait, the duplicate answers its outcome (/exito)', async () => {
      const { quotationId, payment, back } = await approvedNotReturned(ctx);
      await claimByDeadProcess(ctx, payment.idTransaction);

      let answered = false;
      const duplicate = followReturn(ctx, back).finally(() => {
        answered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // Still waiting for the holder, not answered straight away.
      expect(answered).toBe(false);
      // The holder's work, done for real by the sweeper (the claim aged first so it may take it).
      await ageClaim(ctx, payment.idTransaction);
      expect(await ctx.app.sweepPayments()).toBe(1);
      expect(await duplicate).toBe(successUrl(payment));
      expect((await saleRows(ctx, quotationId))[0]?.status).toBe('paid');
      expect(await countCertificates(ctx, payment.idVenta)).toBe(travellers.length);
    });

    it('while an attempt is confirming, a new return date (PUT quotation) and new travellers (PUT passangers) → 400 «Estamos confirmando un pago…» and nothing changes; once settled, the same changes go through', async () => {
      const quotationId = await readyToPay(ctx);
      const payment = await startPayment(ctx, quotationId);
      await claimByDeadProcess(ctx, payment.idTransaction);
      const claimed = await paymentRow(ctx, payment.idTransaction);

      const readState = async () => {
        const [quotation] = await ctx.database.db.select().from(quotations).where(eq(quotations.id, quotationId));
        const people = await ctx.database.db
          .select({ seq: travellerRows.seq, firstName: travellerRows.firstName, lastName: travellerRows.lastName })
          .from(travellerRows)
          .where(eq(travellerRows.quotationId, quotationId))
          .orderBy(asc(travellerRows.seq));
        return { quotation, people, sales: await saleRows(ctx, quotationId) };
      };
      const before = await readState();
      const beforeView = await readQuotation(ctx, quotationId);
      const longerTrip = quotationBody({ planId: referencePlanId, returnDate: inDays(40) });
      expect(longerTrip.returnDate).not.toBe(beforeView.returnDate);
      const renamed = passengersBody();
      for (const person of renamed.passangers) person.lastName = 'Cambiado';

      const tripErrors = expectBadRequest(
        await putQuotation(ctx, quotationId, longerTrip),
        errorMessages.invalidInputs,
        `/api/quotations/1/${quotationId}`,
      );
      expect(tripErrors).toStrictEqual([
        { field: 'quotationId', code: 'payment_confirming', message: confirmingMessage },
      ]);
      const peopleErrors = expectBadRequest(
        await putPassengers(ctx, quotationId, renamed),
        errorMessages.invalidInputs,
        `/api/quotations/${quotationId}/passangers`,
      );
      expect(peopleErrors).toStrictEqual([
        { field: 'quotationId', code: 'payment_confirming', message: confirmingMessage },
      ]);

      // Nothing changed: the trip, its version, the travellers, the sale and the attempt still being confirmed.
      expect(await readState()).toStrictEqual(before);
      expect(await readQuotation(ctx, quotationId)).toStrictEqual(beforeView);
      const after = await paymentRow(ctx, payment.idTransaction);
      expect(after).toStrictEqual(claimed);
      expect(after.status).toBe('confirming');

      // The refusal is the confirmation's: once the attempt is settled (declined), the same changes are accepted.
      await ctx.database.db
        .update(payments)
        .set({ status: 'declined', detail: 'Pago rechazado', confirmedAt: new Date() })
        .where(eq(payments.id, payment.idTransaction));
      const people = await putPassengers(ctx, quotationId, renamed);
      expect(people.status, people.text).toBe(204);
      const trip = await putQuotation(ctx, quotationId, longerTrip);
      expect(trip.status, trip.text).toBe(200);
      expect((await readQuotation(ctx, quotationId)).returnDate).toBe(longerTrip.returnDate);
    });
  },
  env,
);
