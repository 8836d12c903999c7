import { randomInt } from 'node:crypto';
import { DocumentType } from '@travesia/domain/ids';
import { rutCheckDigit } from '@travesia/domain/rut';
import { expect } from 'vitest';
import {
  decideOnSandbox,
  followReturn,
  passengersBody,
  postInvoiceDetails,
  putPassengers,
  referencePlanId,
  startPayment,
  successUrl,
} from './checkout.ts';
import type { TestContext } from './harness.ts';
import { call } from './http.ts';
import { createQuotation } from './trips.ts';

/** The United Kingdom: in the Europe region of the demo catalogue, outside the Schengen area. */
export const unitedKingdom = 22;

/** A RUT nobody else in the database has, in its three accepted forms. */
export function freshRut() {
  const body = String(randomInt(10_000_000, 25_000_000));
  const dv = rutCheckDigit(body);
  const dotted = body.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return { dotsAndDash: `${dotted}-${dv}`, dash: `${body}-${dv}`, plain: `${body}${dv}` };
}

/** Travellers of their own (unique RUT, passport and e-mail addresses), so searches of one test never find another's. */
export function freshHolders() {
  const tag = randomInt(1_000_000, 9_999_999);
  const rut = freshRut();
  return {
    rut,
    passport: `PX${tag}`,
    emails: [`titular.${tag}@example.cl`, `acompanante.${tag}@example.com`, `abuela.${tag}@example.cl`],
  };
}

export type Holders = ReturnType<typeof freshHolders>;

/**
 * A sale paid through the sandbox whose travellers are the reference ones (Camila Rojas, Diego Muñoz, Rosa Pérez)
 * with `holders`' documents and e-mails: the first holds the RUT, the second the passport (DNI type, or the passport
 * type with `passportType`).
 */
export async function paidSaleOf(
  ctx: TestContext,
  holders: Holders,
  options: {
    country?: number;
    pay?: boolean;
    passportType?: boolean;
    /** The first traveller's name instead of the reference one (a search by name of one test's sale). */
    holderName?: { firstName: string; lastName: string };
  } = {},
) {
  const body = passengersBody();
  body.passangers = body.passangers.map((person, index) => ({
    ...person,
    ...(index === 0 && options.holderName ? options.holderName : {}),
    email: holders.emails[index] ?? person.email,
    document:
      index === 0
        ? { ...person.document, id: holders.rut.dotsAndDash }
        : index === 1
          ? { type: options.passportType ? DocumentType.passport : person.document.type, id: holders.passport }
          : person.document,
  }));
  if (options.country !== undefined) body.countryDestination = options.country;
  const quotationId = await createQuotation(ctx, { planId: referencePlanId });
  const saved = await putPassengers(ctx, quotationId, body);
  expect(saved.status, saved.text).toBe(204);
  expect((await postInvoiceDetails(ctx, quotationId)).status).toBe(204);
  const payment = await startPayment(ctx, quotationId);
  if (options.pay !== false) {
    const back = await decideOnSandbox(ctx, payment.redirectUrl, 'approve');
    expect(await followReturn(ctx, back)).toBe(successUrl(payment));
  }
  return { quotationId, ...payment };
}

/** The certificate PDF of a sale, downloaded with its access token. */
export async function certificatePdfOf(ctx: TestContext, sale: { idVenta: number; accessToken: string }) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${sale.accessToken}`,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.rawPayload;
}

export type FoundCertificate = {
  idVenta: number;
  certificate: string;
  name: string;
  lastName: string;
  email: string;
  departureDate: string;
  returnDate: string;
  downloadToken: string | null;
};

export const searchCertificates = (ctx: TestContext, word: string, remoteAddress?: string) =>
  call(ctx.app, {
    method: 'GET',
    url: `/api/certificates?word=${encodeURIComponent(word)}`,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
