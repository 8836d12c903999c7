import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { sales } from '#app/db/schema.ts';
import { signedLinkToken } from '#app/modules/purchases/service.ts';
import {
  decideOnSandbox,
  drainJobsAfterAll,
  failureUrl,
  followReturn,
  type PaymentCreated,
  paidSale,
  paymentResult,
  readyToPay,
  startPayment,
  successUrl,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { type FakeWebpay, failedBody, startFakeWebpay } from './support/fake-webpay.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { useFakeSmtp } from './support/smtp.ts';

/**
 * A sale paid through the sandbox gateway moved no money and covers nobody: its certificate PDF, its e-mail and its
 * payment result say so. So does one paid on Webpay's integration environment, or with Transbank's public
 * integration credentials (issue 22: a production store took such payments as real). A sale paid through Webpay
 * with the store's own credentials (the loopback double of its REST API standing in for production) carries none.
 */

/** A store's own Webpay credentials (not Transbank's public integration ones). */
const ownCredentials = { commerceCode: '597012345678', apiKey: 'own-webpay-api-key' };
const env: NodeJS.ProcessEnv = {
  WEBPAY_COMMERCE_CODE: ownCredentials.commerceCode,
  WEBPAY_API_KEY: ownCredentials.apiKey,
};
/** A store left on the integration credentials (the double answers as Webpay's integration environment would). */
const integrationEnv: NodeJS.ProcessEnv = {};
let webpay: FakeWebpay;
let integration: FakeWebpay;
useTemporaryDataDir(env);
useTemporaryDataDir(integrationEnv);
const { mailsOfSale, mailsTo } = useFakeSmtp(env);
// The Webpay doubles must listen before the suites' beforeAll reads WEBPAY_ENVIRONMENT.
beforeAll(async () => {
  webpay = await startFakeWebpay(ownCredentials);
  integration = await startFakeWebpay();
  env.WEBPAY_ENVIRONMENT = webpay.url;
  integrationEnv.WEBPAY_ENVIRONMENT = integration.url;
  integrationEnv.SMTP_URL = env.SMTP_URL;
});
afterAll(async () => {
  await webpay?.close();
  await integration?.close();
});

const subjectMark = '[SIN VALOR — PAGO DE PRUEBA]';
const fullNames = travellers.map((t) => `${t.firstName} ${t.lastName}`);

/** The buyer's certificate e-mail of a sale (the first; each other traveller gets one too), once the job queue ran. */
async function certificateMail(ctx: TestContext, saleId: number) {
  await ctx.app.runJobs();
  const mails = mailsOfSale(saleId);
  expect(mails).toHaveLength(travellers.length);
  const [mail] = mails;
  if (!mail) throw new Error('no e-mail');
  const attachment = mail.parsed.attachments[0]?.content;
  if (!attachment) throw new Error('no attachment');
  return {
    subject: mail.parsed.subject ?? '',
    text: mail.parsed.text ?? '',
    html: String(mail.parsed.html),
    attachment,
  };
}

/** The PDF as the buyer downloads it: the link answered for the sale's access token, then the file it names. */
async function downloadedPdfText(ctx: TestContext, sale: { idVenta: number; accessToken: string }) {
  const link = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}?token=${sale.accessToken}`);
  expect(link.status, link.text).toBe(200);
  const response = await ctx.app.inject({ method: 'GET', url: link.json<{ message: string }>().message });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/pdf');
  const text = pdfText(response.rawPayload);
  // The text was read at all: the travellers are on it (so a missing mark below is not a failed extraction).
  for (const name of fullNames) expect(text).toContain(name);
  return text;
}

async function saleRow(ctx: TestContext, saleId: number) {
  const [row] = await ctx.database.db.select().from(sales).where(eq(sales.id, saleId));
  if (!row) throw new Error(`sale ${saleId} not found`);
  return row;
}

/** GET /payment-gateways as the payment step asks it: each gateway's id and whether it takes test payments. */
async function listedGateways(ctx: TestContext) {
  const listed = await get(ctx.app, '/api/companies/1/payment-gateways');
  expect(listed.status, listed.text).toBe(200);
  return Object.fromEntries(
    listed
      .json<{ id: string; name: string; testMode: boolean }[]>()
      .map((g) => [g.id, { name: g.name, testMode: g.testMode }]),
  );
}

/** A Webpay attempt whose card the double declines, back at /error. */
async function declinedOnWebpay(ctx: TestContext, double: FakeWebpay, quotationId?: string) {
  const payment = await startPayment(ctx, quotationId ?? (await readyToPay(ctx)), 'webpay');
  const token = new URL(payment.redirectUrl).searchParams.get('token_ws') ?? '';
  double.onCommit = (tx) => ({ status: 200, body: failedBody(tx) });
  const declined = await call(ctx.app, {
    method: 'POST',
    url: '/api/payments/return/webpay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token_ws: token }).toString(),
  });
  expect(declined.headers.location).toBe(failureUrl(payment));
  return payment;
}

/** A quotation paid through Webpay: started, approved at the double (its default commit), back to /exito. */
async function paidThroughWebpay(ctx: TestContext, quotationId?: string, double = webpay) {
  const id = quotationId ?? (await readyToPay(ctx));
  const payment = await startPayment(ctx, id, 'webpay');
  const token = new URL(payment.redirectUrl).searchParams.get('token_ws') ?? '';
  expect(double.transactions.has(token)).toBe(true);
  const back = await call(ctx.app, {
    method: 'POST',
    url: '/api/payments/return/webpay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token_ws: token }).toString(),
  });
  expect(back.status, back.text).toBe(303);
  expect(back.headers.location).toBe(successUrl(payment));
  return payment;
}

/** Nothing of the test mark anywhere: PDF, e-mail, payment result, sale row. */
async function expectNoTestMarks(ctx: TestContext, payment: PaymentCreated) {
  const result = await paymentResult(ctx, payment);
  expect(result).toMatchObject({ resultTransaction: 'AUTHORIZED', gateway: 'webpay', testPayment: false });
  expect((await saleRow(ctx, payment.idVenta)).testPayment).toBe(false);

  const pdf = await downloadedPdfText(ctx, payment);
  expect(pdf).not.toContain('SIN VALOR');
  expect(pdf).not.toContain('PAGO DE PRUEBA');
  expect(pdf).not.toMatch(/pasarela de prueba/i);

  const mail = await certificateMail(ctx, payment.idVenta);
  expect(mail.subject.startsWith('Tu certificado de asistencia en viaje')).toBe(true);
  expect(mail.subject).not.toContain('SIN VALOR');
  expect(mail.text).toContain('Adjuntamos los certificados'); // the buyer's e-mail: one PDF per traveller
  for (const body of [mail.text, mail.html]) {
    expect(body).not.toContain('SIN VALOR');
    expect(body).not.toContain('PAGO DE PRUEBA');
    expect(body).not.toMatch(/pasarela de prueba/i);
  }
  const attached = pdfText(mail.attachment);
  expect(attached).toContain(fullNames[0]);
  expect(attached).not.toContain('SIN VALOR');
  expect(attached).not.toContain('PAGO DE PRUEBA');

  const purchase = await myPurchase(ctx, payment.idVenta);
  expect(purchase.testPayment).toBe(false);
  expect(purchase.receipt).toContain(`Venta N° ${payment.idVenta}`);
  expect(purchase.receipt).not.toContain('PAGO DE PRUEBA');
}

describeOnEachDatabase(
  'Test payments are marked, real ones are not',
  (ctx) => {
    drainJobsAfterAll(ctx);
    afterEach(() => webpay.reset());

    it('a sale paid through the sandbox: the downloaded PDF says SIN VALOR and PAGO DE PRUEBA, the e-mail subject starts with [SIN VALOR — PAGO DE PRUEBA] and its text says so, payment-result testPayment true, the sale row test_payment true', async () => {
      const sale = await paidSale(ctx);

      expect(sale.result).toMatchObject({ gateway: 'sandbox', testPayment: true });
      expect((await saleRow(ctx, sale.idVenta)).testPayment).toBe(true);

      const pdf = await downloadedPdfText(ctx, sale);
      expect(pdf).toContain('SIN VALOR');
      expect(pdf).toContain('PAGO DE PRUEBA');

      const mail = await certificateMail(ctx, sale.idVenta);
      expect(mail.subject.startsWith(subjectMark)).toBe(true);
      expect(mail.subject).toContain(`venta N° ${sale.idVenta}`);
      expect(mail.text.startsWith('SIN VALOR — PAGO DE PRUEBA')).toBe(true);
      expect(mail.text).toMatch(/pasarela de prueba/);
      expect(mail.text).toMatch(/no otorga cobertura/);
      expect(mail.html).toContain('SIN VALOR — PAGO DE PRUEBA');
      const attached = pdfText(mail.attachment);
      expect(attached).toContain('SIN VALOR');
      expect(attached).toContain('PAGO DE PRUEBA');
    });

    it("the payment step's gateway list marks the sandbox as a test gateway and Webpay on the store's own credentials as a real one", async () => {
      expect(ctx.config.webpay.testMode).toBe(false);
      expect(await listedGateways(ctx)).toStrictEqual({
        sandbox: { name: 'Pago de prueba', testMode: true },
        webpay: { name: 'Webpay Plus', testMode: false },
      });
    });

    it('a sale paid through Webpay has none of those marks: plain PDF and e-mail, testPayment false, test_payment false', async () => {
      const payment = await paidThroughWebpay(ctx);
      await expectNoTestMarks(ctx, payment);
    });

    it("a real sale's withdrawal e-mails carry no test mark", async () => {
      const payment = await paidThroughWebpay(ctx);
      for (const text of await withdrawalMailTexts(ctx, payment.idVenta)) {
        expect(text).toContain('Compra anulada');
        expect(text).not.toContain('SIN VALOR');
        expect(text).not.toMatch(/prueba/i);
      }
    });

    it('a buyer who first tried the sandbox (declined) and then paid through Webpay gets an unmarked sale: the mark follows the paying gateway', async () => {
      const quotationId = await readyToPay(ctx);
      const trial = await startPayment(ctx, quotationId, 'sandbox');
      const back = await decideOnSandbox(ctx, trial.redirectUrl, 'decline');
      expect(await followReturn(ctx, back)).toBe(failureUrl(trial));
      const payment = await paidThroughWebpay(ctx, quotationId);
      expect(payment.idVenta).toBe(trial.idVenta);
      await expectNoTestMarks(ctx, payment);
    });

    it('and the other way round: a declined Webpay attempt, then paid in the sandbox, is a test payment', async () => {
      const quotationId = await readyToPay(ctx);
      const real = await declinedOnWebpay(ctx, webpay, quotationId);
      expect((await paymentResult(ctx, real)).testPayment).toBe(false);

      const sandbox = await startPayment(ctx, quotationId, 'sandbox');
      const back = await decideOnSandbox(ctx, sandbox.redirectUrl, 'approve');
      expect(await followReturn(ctx, back)).toBe(successUrl(sandbox));
      expect(await paymentResult(ctx, sandbox)).toMatchObject({ resultTransaction: 'AUTHORIZED', testPayment: true });
      expect((await saleRow(ctx, sandbox.idVenta)).testPayment).toBe(true);
      const pdf = await downloadedPdfText(ctx, sandbox);
      expect(pdf).toContain('PAGO DE PRUEBA');
      expect((await certificateMail(ctx, sandbox.idVenta)).subject.startsWith(subjectMark)).toBe(true);
    });
  },
  env,
);

/** «Mi compra» of a sale, opened as its e-mailed link does: the view and the receipt PDF's text. */
async function myPurchase(ctx: TestContext, saleId: number) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, saleId);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  const headers = { authorization: `Bearer ${opened.json<{ token: string }>().token}` };
  const view = await call(ctx.app, { method: 'GET', url: '/api/purchases/mine', headers });
  expect(view.status, view.text).toBe(200);
  const receipt = await ctx.app.inject({ method: 'GET', url: '/api/purchases/mine/comprobante.pdf', headers });
  expect(receipt.statusCode).toBe(200);
  return { testPayment: view.json<{ testPayment: boolean }>().testPayment, receipt: pdfText(receipt.rawPayload) };
}

/**
 * The buyer withdraws from a sale in «Mi compra»; once its refund is given back, the texts of both withdrawal e-mails
 * («Recibimos tu retracto», «Reembolso completado») the first traveller received.
 */
async function withdrawalMailTexts(ctx: TestContext, saleId: number) {
  const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, saleId);
  const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
  expect(opened.status, opened.text).toBe(200);
  const headers = { authorization: `Bearer ${opened.json<{ token: string }>().token}` };
  const withdrawn = await call(ctx.app, { method: 'POST', url: '/api/purchases/mine/withdrawal', headers });
  expect(withdrawn.status, withdrawn.text).toBe(200);
  const about = () =>
    mailsTo(travellers[0]?.email ?? '').filter((m) => m.parsed.subject?.includes(`compra N° ${saleId} anulada`));
  for (let round = 0; round < 50 && about().length < 2; round += 1) {
    await ctx.app.sweepPayments();
    await ctx.app.runJobs();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const mails = about();
  expect(mails.map((m) => m.parsed.subject?.split(' – ')[0]).sort()).toStrictEqual([
    'Recibimos tu retracto',
    'Reembolso completado',
  ]);
  return mails.map((m) => m.parsed.text ?? '');
}

describeOnEachDatabase(
  "Webpay's integration environment (Transbank's public credentials) takes test payments, marked as the sandbox's",
  (ctx) => {
    drainJobsAfterAll(ctx);
    afterEach(() => integration.reset());

    it("the payment step's gateway list says Webpay takes test payments, as the sandbox (its name unchanged)", async () => {
      expect(await listedGateways(ctx)).toStrictEqual({
        sandbox: { name: 'Pago de prueba', testMode: true },
        webpay: { name: 'Webpay Plus', testMode: true },
      });
    });

    it('a declined card on the integration environment: its result is a test payment (the failure page says so)', async () => {
      const payment = await declinedOnWebpay(ctx, integration);
      expect(await paymentResult(ctx, payment)).toMatchObject({
        resultTransaction: 'DECLINED',
        gateway: 'webpay',
        testPayment: true,
      });
    });

    it('the payment result, the sale, the certificate PDF, its e-mail, «Mi compra» and the receipt all say SIN VALOR — PAGO DE PRUEBA', async () => {
      expect(ctx.config.webpay.testMode).toBe(true);
      const payment = await paidThroughWebpay(ctx, undefined, integration);
      expect(await paymentResult(ctx, payment)).toMatchObject({
        resultTransaction: 'AUTHORIZED',
        gateway: 'webpay',
        testPayment: true,
      });
      expect((await saleRow(ctx, payment.idVenta)).testPayment).toBe(true);

      const pdf = await downloadedPdfText(ctx, payment);
      expect(pdf).toContain('SIN VALOR');
      expect(pdf).toContain('PAGO DE PRUEBA');
      const mail = await certificateMail(ctx, payment.idVenta);
      expect(mail.subject.startsWith(subjectMark)).toBe(true);
      expect(mail.text.startsWith('SIN VALOR — PAGO DE PRUEBA')).toBe(true);
      expect(pdfText(mail.attachment)).toContain('PAGO DE PRUEBA');

      const purchase = await myPurchase(ctx, payment.idVenta);
      expect(purchase.testPayment).toBe(true);
      expect(purchase.receipt).toContain('SIN VALOR');
      expect(purchase.receipt).toContain('PAGO DE PRUEBA');
    });

    it('its withdrawal e-mails (refund requested, refund done) open with SIN VALOR — PAGO DE PRUEBA', async () => {
      const payment = await paidThroughWebpay(ctx, undefined, integration);
      for (const text of await withdrawalMailTexts(ctx, payment.idVenta)) {
        expect(text).toMatch(/^Hola,\s+SIN VALOR — PAGO DE PRUEBA: esta compra se pagó con un pago de prueba/);
      }
    });
  },
  integrationEnv,
);
