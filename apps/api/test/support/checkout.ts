import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDays } from '@travesia/domain/dates';
import { DocumentType, type DocumentTypeId, Nationality } from '@travesia/domain/ids';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { certificates, jobs, sales } from '#app/db/schema.ts';
import { certificateEmailKind } from '#app/modules/certificates/service.ts';
import { saleLedger } from '#app/modules/payments/ledger.ts';
import { type AddOnToSell, sellAddOns } from './add-ons.ts';
import type { TestContext } from './harness.ts';
import { call, get } from './http.ts';
import { createQuotation, inDays, type QuotationBody } from './trips.ts';

/**
 * A quotation ready to pay (plan chosen, travellers and billing data saved) and the steps of paying it, as the
 * storefront does them through the HTTP API.
 */

/** A plan sold for the reference trip of support/trips.ts (Europe, 10 days, 2 adults + 1 senior). */
export const referencePlanId = 411;
/** Spain, a country of the Europe region. */
export const spain = 17;
const leavingIn = 10;

/** A birth date whose age on the departure date (today + 10, as trips.ts quotes) is `age`. */
function bornAged(age: number): string {
  const [year = '2000', month = '01', day = '01'] = inDays(leavingIn).split('-');
  const anniversary = `${Number(year) - age}-${month}-${month === '02' && day === '29' ? '28' : day}`;
  return addDays(anniversary, -40);
}

export type Traveller = { firstName: string; lastName: string; email: string; documentId: string };

/** The three travellers of the reference quotation: 30 and 28 (adults), 78 (senior); accented names on purpose. */
export const travellers: Traveller[] = [
  { firstName: 'Camila', lastName: 'Rojas', email: 'camila@example.cl', documentId: '12.345.678-5' },
  { firstName: 'Diego', lastName: 'Muñoz', email: 'diego@example.com', documentId: 'AR30111222' },
  { firstName: 'Rosa', lastName: 'Pérez', email: 'rosa@example.cl', documentId: '7.654.321-6' },
];

export function passengersBody() {
  const ages = [30, 28, 78];
  return {
    shareEmergencyContact: true,
    emergencyContact: { firstName: 'Pedro', lastName: 'Soto', phone: '+56 2 2345 6789' },
    countryDestination: spain,
    passangers: travellers.map((t, index) => ({
      firstName: t.firstName,
      lastName: t.lastName,
      gender: index === 1 ? 'M' : 'F',
      birthDate: bornAged(ages[index] ?? 30),
      nationality: index === 1 ? Nationality.other : Nationality.chile,
      document: { type: (index === 1 ? DocumentType.dni : DocumentType.rut) as DocumentTypeId, id: t.documentId },
      email: t.email,
      phone: '+56 9 1234 5678',
      emergencyContact: null,
    })),
  };
}

export const invoiceBody = () => ({
  personalInformation: {
    address: 'Av. Providencia',
    streetNumber: '1234',
    apartment: '56',
    locality: 'Providencia',
    province: 'Santiago',
  },
  generateInvoice: false,
  companyDetails: null,
});

export const putPassengers = (ctx: TestContext, quotationId: string, body: unknown = passengersBody()) =>
  call(ctx.app, {
    method: 'PUT',
    url: `/api/quotations/${quotationId}/passangers`,
    payload: body as Record<string, unknown>,
  });

export const postInvoiceDetails = (ctx: TestContext, quotationId: string) =>
  call(ctx.app, { method: 'POST', url: `/api/quotations/${quotationId}/invoice-details`, payload: invoiceBody() });

/** Creates a quotation and completes as many checkout steps as asked (all of them by default); answers its id. */
export async function readyToPay(
  ctx: TestContext,
  options: { plan?: boolean; passengers?: boolean; invoice?: boolean; quotation?: Partial<QuotationBody> } = {},
): Promise<string> {
  const { plan = true, passengers = true, invoice = true } = options;
  const id = await createQuotation(ctx, { ...(plan ? { planId: referencePlanId } : {}), ...options.quotation });
  if (passengers) {
    const saved = await putPassengers(ctx, id);
    expect(saved.status, saved.text).toBe(204);
  }
  if (invoice) {
    const saved = await postInvoiceDetails(ctx, id);
    expect(saved.status, saved.text).toBe(204);
  }
  return id;
}

export type PaymentCreated = { redirectUrl: string; idVenta: number; idTransaction: number; accessToken: string };

/** What the payment step's buyer ticks: the required consent, not the optional one. */
export const givenConsents = { dataProcessing: true, marketing: false };

export const postPayment = (ctx: TestContext, body: unknown) =>
  call(ctx.app, { method: 'POST', url: '/api/payments', payload: body as Record<string, unknown> });

/** POST /api/payments that must be accepted. */
export async function startPayment(ctx: TestContext, quotationId: string, gatewayId = 'sandbox') {
  const answer = await postPayment(ctx, { quotationId, gatewayId, consents: givenConsents });
  expect(answer.status, answer.text).toBe(201);
  return answer.json<PaymentCreated>();
}

/** The path and query of an absolute URL (app.inject takes paths). */
export const pathAndQuery = (url: string) => {
  const parsed = new URL(url, 'http://localhost');
  return `${parsed.pathname}${parsed.search}`;
};

/** The Accept header a browser sends when it navigates or posts a form. */
export const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * An HTML page of the sandbox gateway, injected directly as a browser asks for it: its inline CSS
 * (`select,button{…"Segoe UI"…}`) reads like SQL to http.ts's leak check, which is meant for API answers.
 */
export async function sandboxPage(ctx: TestContext, url: string, form?: string) {
  const response = await ctx.app.inject(
    form === undefined
      ? { method: 'GET', url: pathAndQuery(url), headers: { accept: browserAccept } }
      : {
          method: 'POST',
          url: pathAndQuery(url),
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: browserAccept },
          payload: form,
        },
  );
  return { status: response.statusCode, headers: response.headers, text: response.body };
}

/** What the payer does on the sandbox page; answers where the page sends the browser back (the return URL). */
export async function decideOnSandbox(
  ctx: TestContext,
  redirectUrl: string,
  decision: 'approve' | 'decline' | 'abandon',
  instalments = 1,
): Promise<string> {
  const answer = await sandboxPage(
    ctx,
    redirectUrl,
    new URLSearchParams({ decision, instalments: String(instalments) }).toString(),
  );
  expect(answer.status, answer.text).toBe(303);
  return String(answer.headers.location);
}

/** The browser arriving at a return URL with a GET; answers the 303's Location. */
export async function followReturn(ctx: TestContext, returnUrl: string): Promise<string> {
  const answer = await call(ctx.app, { method: 'GET', url: pathAndQuery(returnUrl) });
  expect(answer.status, answer.text).toBe(303);
  return String(answer.headers.location);
}

export const successUrl = (payment: { idVenta: number; idTransaction: number }) =>
  `/exito?venta=${payment.idVenta}&transaccion=${payment.idTransaction}`;
export const failureUrl = (payment: { idVenta: number; idTransaction: number }) =>
  `/error?venta=${payment.idVenta}&transaccion=${payment.idTransaction}`;

export type PaymentResult = {
  idTransaction: number;
  idVenta: number;
  resultTransaction: string;
  detailResoonse: string;
  message: string;
  quotationId: string | null;
  planId: number;
  amountClp: number;
  amountUsd: number;
  gateway: string;
  instalments: number | null;
  paymentTypeCode: string | null;
  authorizationCode: string | null;
  cardLastDigits: string | null;
  certificates: { number: string; name: string; lastName: string }[];
  testPayment: boolean;
};

/** The ids of an attempt, and the sale's access token when the caller holds it (the browser that started it). */
export type PaymentIds = { idVenta: number; idTransaction: number; accessToken?: string };

export const getPaymentResult = (ctx: TestContext, payment: PaymentIds) =>
  get(
    ctx.app,
    `/api/companies/${payment.idTransaction}/payment-result/${payment.idVenta}${payment.accessToken ? `?token=${payment.accessToken}` : ''}`,
  );

export async function paymentResult(ctx: TestContext, payment: PaymentIds) {
  const answer = await getPaymentResult(ctx, payment);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<PaymentResult>();
}

/**
 * A quotation paid through the sandbox gateway (approved in `instalments`), with what the API answered. `addOns`:
 * add-ons sold to travellers (by index) on top of the plan (sellAddOns).
 */
export async function paidSale(
  ctx: TestContext,
  instalments = 1,
  quotation?: Partial<QuotationBody>,
  options: { addOns?: Record<number, AddOnToSell[]> } = {},
) {
  const quotationId = await readyToPay(ctx, quotation ? { quotation } : {});
  const payment = await startPayment(ctx, quotationId);
  if (options.addOns) await sellAddOns(ctx.database.db, payment, options.addOns);
  const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve', instalments);
  expect(await followReturn(ctx, back)).toBe(successUrl(payment));
  const result = await paymentResult(ctx, payment);
  expect(result.resultTransaction).toBe('AUTHORIZED');
  return { quotationId, ...payment, result };
}

/**
 * A quotation paid through Webpay (the test's fake on loopback: WEBPAY_ENVIRONMENT set to support/fake-webpay's url,
 * whose default commit authorizes); answers its ids and its Webpay token.
 */
export async function paidWithWebpay(ctx: TestContext) {
  const quotationId = await readyToPay(ctx);
  const payment = await startPayment(ctx, quotationId, 'webpay');
  const token = new URL(payment.redirectUrl).searchParams.get('token_ws') ?? '';
  const back = await call(ctx.app, {
    method: 'POST',
    url: '/api/payments/return/webpay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token_ws: token }).toString(),
  });
  expect(back.status, back.text).toBe(303);
  expect(String(back.headers.location)).toBe(successUrl(payment));
  return { quotationId, ...payment, token };
}

/** The amount the server prices for a quotation's plan, as the plan view shows it (montoConversion, CLP). */
export async function pricedClp(ctx: TestContext, quotationId: string, planId = referencePlanId): Promise<number> {
  const answer = await get(ctx.app, `/api/1/plans/${planId}?quotationId=${quotationId}`);
  expect(answer.status, answer.text).toBe(200);
  const [plan] = answer.json<{ montoConversion: number }[]>();
  expect(plan?.montoConversion).toBeGreaterThan(0);
  return plan?.montoConversion ?? 0;
}

/** The rows behind a sale, read from the database. */
export async function saleRows(ctx: TestContext, quotationId: string) {
  return ctx.database.db.select().from(sales).where(eq(sales.quotationId, quotationId));
}

export async function countCertificates(ctx: TestContext, saleId: number) {
  const [row] = await ctx.database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(certificates)
    .where(eq(certificates.saleId, saleId));
  return row?.count ?? 0;
}

/** The certificate e-mail jobs queued for a sale (with this dedupe key, if given), oldest first. */
export function emailJobsOfSale(ctx: TestContext, saleId: number, dedupeKey?: string) {
  const ofSale = and(eq(jobs.kind, certificateEmailKind), sql`${jobs.payload}->>'saleId' = ${String(saleId)}`);
  return ctx.database.db
    .select()
    .from(jobs)
    .where(dedupeKey ? and(ofSale, eq(jobs.dedupeKey, dedupeKey)) : ofSale)
    .orderBy(asc(jobs.id));
}

export async function countEmails(ctx: TestContext, saleId: number, dedupeKey?: string) {
  return (await emailJobsOfSale(ctx, saleId, dedupeKey)).length;
}

/** `$1.234.567`: pesos grouped by dots, written here independently of the app's formatter. */
export const clpText = (amount: number) => `$${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, '.')}`;

/**
 * A temporary DATA_DIR for a suite (the mailer's local catcher writes .eml files under it), removed afterwards.
 * Fills `env.DATA_DIR` in a beforeAll, so call it at the top of the file, before describeOnEachDatabase.
 */
export function useTemporaryDataDir(env: NodeJS.ProcessEnv) {
  beforeAll(async () => {
    env.DATA_DIR = await mkdtemp(join(tmpdir(), 'travesia-test-data-'));
  });
  afterAll(async () => {
    if (env.DATA_DIR) await rm(env.DATA_DIR, { recursive: true, force: true });
  });
}

/** Waits for the background job run a payment started, and runs what is left, before the suite closes its app. */
export function drainJobsAfterAll(ctx: TestContext) {
  afterAll(async () => {
    await ctx.app?.runJobs();
  });
}

/**
 * Every refund of the sale given back at the gateway. A withdrawal or a cheaper date change nudges a refund run of its
 * own, which may hold a refund's claim meanwhile: sweep until the ledger has nothing pending.
 */
export async function settleSaleRefunds(ctx: TestContext, saleId: number) {
  await expect
    .poll(
      async () => {
        await ctx.app.sweepPayments();
        return (await saleLedger(ctx.database.db, saleId)).pendingRefundClp;
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(0);
}
