import { todayInChile } from '@travesia/domain/dates';
import { expect } from 'vitest';
import {
  decideOnSandbox,
  followReturn,
  passengersBody,
  paymentResult,
  postInvoiceDetails,
  putPassengers,
  referencePlanId,
  startPayment,
} from './checkout.ts';
import type { TestContext } from './harness.ts';
import { createQuotation, tripDates } from './trips.ts';

/**
 * A paid sale a refund claim can stand on (issue 22: a paid, valid certificate of the document given, for a day it
 * covers): the reference travellers (Camila's RUT 12.345.678-5 first, Diego's DNI AR30111222 second) unless others
 * are given, on a trip that started today, so today is a day of its cover.
 */
export type CoveredSale = { saleId: number; certificates: string[] };

/** How many days the covered sale's trip lasts, from today. */
export const coverDays = 10;

/** A sale paid in the sandbox, leaving today for {@link coverDays} days, with these travellers. */
export async function coveredSale(ctx: TestContext, passengers = passengersBody()): Promise<CoveredSale> {
  const quotationId = await createQuotation(ctx, { planId: referencePlanId, ...tripDates(coverDays, 0) });
  expect((await putPassengers(ctx, quotationId, passengers)).status).toBe(204);
  expect((await postInvoiceDetails(ctx, quotationId)).status).toBe(204);
  const payment = await startPayment(ctx, quotationId);
  await followReturn(ctx, await decideOnSandbox(ctx, payment.redirectUrl, 'approve'));
  const result = await paymentResult(ctx, payment);
  expect(result.resultTransaction).toBe('AUTHORIZED');
  return { saleId: payment.idVenta, certificates: result.certificates.map((c) => c.number) };
}

/**
 * A refund claim's body (spec §7 `POST /companies/{id}/refunds`), valid as it is, for `certificate` (the reference
 * traveller's, whose RUT it names) with an incident today: `overrides` changes what a test is about.
 */
export function claimBody(certificate: string, overrides: Record<string, unknown> = {}) {
  return {
    nombreTitular: 'Ana María Pérez',
    tipoDocumento: 1,
    numeroDocumento: '12.345.678-5',
    email: 'ana.perez@example.cl',
    telefono: '+56 9 1234 5678',
    numeroCertificado: certificate,
    descripcion: 'Me atendieron en una clínica de Madrid por una gastroenteritis y pagué la consulta.',
    fechaIncidente: todayInChile(),
    monto: 185000,
    moneda: 'CLP',
    banco: '012',
    tipoCuenta: 'vista',
    numeroCuenta: '12345678',
    ...overrides,
  };
}
