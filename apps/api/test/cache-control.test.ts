import { expect, it } from 'vitest';
import {
  drainJobsAfterAll,
  givenConsents,
  paidSale,
  pathAndQuery,
  postInvoiceDetails,
  putPassengers,
  readyToPay,
  sandboxPage,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { type Answer, call, get } from './support/http.ts';
import { postQuotation, quotationBody } from './support/trips.ts';

/**
 * API answers carry quotations, travellers, billing data and sales: no browser or shared cache may keep one.
 * Every /api answer without a Cache-Control of its own gets `no-store`, except the public catalogue's
 * (http-cache.test.ts).
 */

const expectNoStore = (answer: Pick<Answer, 'headers' | 'status'>, what: string) => {
  expect(String(answer.headers['cache-control']), `${what} (${answer.status})`).toMatch(/(^|[\s,])no-store($|[\s,])/);
};

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);

describeOnEachDatabase(
  'Cache-Control of the API answers',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('every answer about a quotation, its travellers, billing, payment and certificates is no-store', async () => {
      const created = await postQuotation(ctx, quotationBody());
      expect(created.status).toBe(201);
      expectNoStore(created, 'POST quotation');

      const sale = await paidSale(ctx);
      const id = sale.quotationId;
      const reads: [string, string][] = [
        ['quotation', `/api/quotations/1/${id}`],
        ['passangers', `/api/quotations/${id}/passangers`],
        ['passangers-detail', `/api/quotations/${id}/passangers-detail`],
        ['invoice-details', `/api/quotations/${id}/invoice-details`],
        [
          'payment-result',
          `/api/companies/${sale.idTransaction}/payment-result/${sale.idVenta}?token=${sale.accessToken}`,
        ],
        ['certificate link', `/api/certificates/b2c/${sale.idVenta}?token=${sale.accessToken}`],
        ['plans of the quotation', `/api/1/plans-quotation/${id}`],
      ];
      for (const [what, url] of reads) {
        const answer = await get(ctx.app, url);
        expect(answer.status, `${what}: ${answer.text}`).toBe(200);
        expectNoStore(answer, what);
        expect(answer.headers.etag, `${what} carries no ETag`).toBeUndefined();
      }
      const link = (await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${sale.accessToken}`)).json<{
        message: string;
      }>().message;
      const pdf = await ctx.app.inject({ method: 'GET', url: pathAndQuery(link) });
      expect(pdf.statusCode).toBe(200);
      expectNoStore({ status: pdf.statusCode, headers: pdf.headers }, 'certificate PDF');
    });

    it('writes, the payment start, the sandbox page and error answers are no-store too', async () => {
      const id = await readyToPay(ctx, { passengers: false, invoice: false });
      const passengers = await putPassengers(ctx, id);
      expect(passengers.status, passengers.text).toBe(204);
      expectNoStore(passengers, 'PUT passangers');
      const invoice = await postInvoiceDetails(ctx, id);
      expect(invoice.status, invoice.text).toBe(204);
      expectNoStore(invoice, 'POST invoice-details');
      const payment = await call(ctx.app, {
        method: 'POST',
        url: '/api/payments',
        payload: { quotationId: id, gatewayId: 'sandbox', consents: givenConsents },
      });
      expect(payment.status, payment.text).toBe(201);
      expectNoStore(payment, 'POST payments');
      expectNoStore(await sandboxPage(ctx, payment.json<{ redirectUrl: string }>().redirectUrl), 'sandbox page');

      const unknown = '00000000-0000-4000-8000-000000000000';
      expectNoStore(await get(ctx.app, `/api/quotations/1/${unknown}`), 'unknown quotation');
      expectNoStore(await get(ctx.app, `/api/quotations/${unknown}/passangers`), 'passangers of an unknown quotation');
      expectNoStore(await get(ctx.app, '/api/quotations/1/not-an-id'), 'malformed quotation id');
      expectNoStore(await get(ctx.app, '/api/no-such-call'), 'unknown API path');
    });

    it('only public catalogue answers (no personal data) may be kept, for a minute; the API document is no-store', async () => {
      for (const url of ['/api/companies/1/footer', '/api/companies/1/website-parameters']) {
        const answer = await get(ctx.app, url);
        expect(answer.status).toBe(200);
        expect(answer.headers['cache-control'], url).toBe('public, max-age=60');
      }
      const docs = await get(ctx.app, '/api/docs');
      expect(docs.status).toBe(200);
      expectNoStore(docs, '/api/docs');
    });
  },
  env,
);
