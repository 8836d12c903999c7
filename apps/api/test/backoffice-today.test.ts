import { expect, it } from 'vitest';
import { asOperator, enrolledOperator, TestClock } from './support/backoffice.ts';
import { drainJobsAfterAll, paidSale, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';

/** The console's «Hoy» (issue 24) counts what today's tables hold: a sale paid now is a sale of today and of the month. */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

describeOnEachDatabase(
  'Operator console: «Hoy»',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('a sale paid now adds one to the sales of today and of the month, and its amount to both totals', async () => {
      // The app runs on the real clock here (sales are stamped by it): the test's TOTP codes follow it.
      const clock = new TestClock();
      clock.at = new Date();
      const operator = await enrolledOperator(ctx, 'hoy@travesia.cl', ['finance'], clock);
      const figures = async () => {
        const answer = await asOperator(ctx, operator, 'GET', '/api/backoffice/today');
        expect(answer.status, answer.text).toBe(200);
        const list = answer.json<{ figures: { key: string; value: number }[] }>().figures;
        return Object.fromEntries(list.map((figure) => [figure.key, figure.value]));
      };
      const before = await figures();
      const sale = await paidSale(ctx);
      const after = await figures();
      const amount = sale.result.amountClp;
      expect(amount).toBeGreaterThan(0);
      expect(after['sales-today']).toBe((before['sales-today'] ?? 0) + 1);
      expect(after['sales-month']).toBe((before['sales-month'] ?? 0) + 1);
      expect(after['sales-today-amount']).toBe((before['sales-today-amount'] ?? 0) + amount);
      expect(after['sales-month-amount']).toBe((before['sales-month-amount'] ?? 0) + amount);
      expect(after['payments-confirming']).toBe(0);
    });
  },
  env,
);
