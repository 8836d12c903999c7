import { randomUUID } from 'node:crypto';
import { errorMessages } from '@travesia/domain/messages';
import { alreadyPaid } from '@travesia/domain/rules';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError, resourceNotFound } from '#app/errors.ts';
import { listPassengerTypes } from '#app/modules/catalog/service.ts';
import { contactKeys, priceTripPlans, type Trip } from '#app/modules/plans/service.ts';
import { changeUnderPurchaseLock, confirmingMessage, type LockPurchase } from './purchase-lock.ts';
import * as repository from './repository.ts';
import type { Quotation, QuotationInput } from './schemas.ts';
import type { QuotationStatus } from './status.ts';

// The quotations module's functions that other modules call inside their own transaction (the purchase lock, the
// payment start, the travellers' write): they take the caller's transaction handle instead of reading these tables.
export { type CheckoutValues, markPaymentStarted, recordCheckout, recordDateChange } from './repository.ts';

/** A quotation's public status: how far the visitor got, or 'paid' exactly when its sale is paid. */
export const quotationStatusOf = (row: { status: QuotationStatus; paid: boolean }): QuotationStatus =>
  row.paid ? 'paid' : row.status;

/**
 * The quotation's stored row with its sale's id and paid state (one query), for modules that need its purchase-step
 * columns or its sale; undefined when unknown.
 */
export function findQuotationRecord(db: Database, quotationId: string) {
  return repository.findQuotation(db, undefined, quotationId);
}

const passengersField = 'passangerTypes';

function tripOfInput(input: QuotationInput): Trip {
  return {
    originId: input.origin,
    destinationId: input.destination,
    modalityId: input.modality,
    departureDate: input.departureDate,
    returnDate: input.returnDate,
    passengers: input.passangerTypes.map((p) => ({
      passengerTypeId: p.passengerTypeId ?? p.id ?? 0,
      quantity: p.quantity,
    })),
    discountCode: input.discountCode?.trim() || null,
    upgradeCovid: input.upgradeCovid,
  };
}

/**
 * Validates the whole quotation against the catalogue (same rules as a plan search) and, when a plan is chosen,
 * that the plan is sold for this trip.
 */
async function validatedValues(db: Database, companyId: number, input: QuotationInput) {
  const trip = tripOfInput(input);
  const pricing = await priceTripPlans(db, companyId, trip, errorMessages.invalidInputs, passengersField);
  if (input.planId != null && !pricing.plans.some((plan) => plan.product.id === input.planId)) {
    throw new ApiError(400, errorMessages.invalidInputs, [
      { field: 'planId', code: 'plan_unavailable', message: 'El plan elegido no está disponible para este viaje' },
    ]);
  }
  const values: repository.QuotationValues = {
    originId: trip.originId,
    destinationId: trip.destinationId,
    modalityId: trip.modalityId,
    departureDate: trip.departureDate,
    returnDate: trip.returnDate,
    discountCode: trip.discountCode?.toUpperCase() ?? null,
    upgradeCovid: trip.upgradeCovid,
    planId: input.planId ?? null,
    referralCode: input.referralCode ?? null,
    pantalla: input.pantalla ?? null,
    name: input.name ?? null,
    lastName: input.lastName ?? null,
    phone: input.phone ?? null,
    email: input.email ?? null,
    rut: input.rut ?? null,
    domicilio: input.domicilio ?? null,
    status: input.planId != null ? 'plan-selected' : 'quoted',
  };
  return { values, passengers: trip.passengers.filter((p) => p.quantity > 0) };
}

export async function createQuotation(db: Database, companyId: number, input: QuotationInput): Promise<string> {
  const { values, passengers } = await validatedValues(db, companyId, input);
  const id = randomUUID();
  await repository.insertQuotation(db, { ...values, id, companyId }, passengers);
  return id;
}

/** Changes a quotation under the purchase lock (`lockPurchase`: handed in by the purchase workflow). */
export async function updateQuotation(
  db: Database,
  lockPurchase: LockPurchase,
  companyId: number,
  quotationId: string,
  input: QuotationInput,
) {
  const existing = await repository.findQuotation(db, companyId, quotationId);
  if (!existing) throw resourceNotFound();
  const refusal = (error: Omit<FieldError, 'field'>) =>
    new ApiError(400, errorMessages.invalidInputs, [{ field: 'quotationId', ...error }]);
  const confirming = { code: 'payment_confirming', message: confirmingMessage } as const;
  // A paid quotation is what its certificates say: it no longer changes (checked again under the lock below).
  if (existing.paid) throw refusal(alreadyPaid);
  const { values, passengers } = await validatedValues(db, companyId, input);
  const outcome = await changeUnderPurchaseLock(db, lockPurchase, quotationId, (lock) =>
    repository.updateQuotation(lock, quotationId, values, passengers),
  );
  if (outcome) throw refusal(outcome.refused === 'paid' ? alreadyPaid : confirming);
}

export async function getQuotation(db: Database, companyId: number, quotationId: string): Promise<Quotation> {
  return presentQuotation(db, await repository.findQuotationWithPassengers(db, companyId, quotationId));
}

type QuotationWithPassengers = Awaited<ReturnType<typeof repository.findQuotationWithPassengers>>;

async function presentQuotation(db: Database, row: QuotationWithPassengers): Promise<Quotation> {
  if (!row) throw resourceNotFound();
  const counts = row.passengers;
  const types = await listPassengerTypes(db, row.companyId);
  // In the catalogue's order (youngest band first), as the catalogue lists its passenger types.
  const passengers = types.flatMap((type) => {
    const count = counts.find((c) => c.passengerTypeId === type.id);
    return count ? [{ ...count, ageFrom: type.ageFrom, ageTo: type.ageTo }] : [];
  });
  return {
    id: row.id,
    origin: row.originId,
    destination: row.destinationId,
    modality: row.modalityId,
    departureDate: row.departureDate,
    returnDate: row.returnDate,
    passangerTypes: passengers.map((p) => ({
      quantity: p.quantity,
      id: p.passengerTypeId,
      passengerTypeId: p.passengerTypeId,
      ageFrom: p.ageFrom,
      ageTo: p.ageTo,
    })),
    name: row.name,
    lastName: row.lastName,
    phone: row.phone,
    email: row.email,
    rut: row.rut,
    domicilio: row.domicilio,
    discountCode: row.discountCode,
    upgradeCovid: row.upgradeCovid,
    company: row.companyId,
    status: quotationStatusOf(row),
    planId: row.planId,
    referralCode: row.referralCode,
    pantalla: row.pantalla,
  };
}

/** The trip a stored quotation asks to price, for the plan calls that take a quotationId. */
export async function tripOfQuotation(db: Database, companyId: number, quotationId: string): Promise<Trip> {
  const row = await repository.findQuotationWithPassengers(db, companyId, quotationId);
  const quotation = await presentQuotation(db, row);
  return {
    ...(row ? { quotedAt: row.updatedAt } : {}),
    originId: quotation.origin,
    destinationId: quotation.destination,
    modalityId: quotation.modality,
    departureDate: quotation.departureDate,
    returnDate: quotation.returnDate,
    passengers: quotation.passangerTypes.map((p) => ({ passengerTypeId: p.passengerTypeId, quantity: p.quantity })),
    discountCode: quotation.discountCode,
    upgradeCovid: quotation.upgradeCovid,
    // The quotation's own use of its code never counts against it; its contact fields name the buyer so far.
    discountContext: { quotationId: quotation.id, buyer: contactKeys(quotation) },
  };
}

/** Where the quotation-redirect call sends the browser: the quotation's comparator. */
export async function comparatorPathOf(db: Database, companyId: number, quotationId: string): Promise<string> {
  await getQuotation(db, companyId, quotationId);
  return `/comparador/${quotationId}`;
}

/** A quotation by id alone, for calls whose path carries no company (payments, passengers…). */
export async function getQuotationOfAnyCompany(db: Database, quotationId: string): Promise<Quotation> {
  return presentQuotation(db, await repository.findQuotationWithPassengers(db, undefined, quotationId));
}

/**
 * What a stored rendering of the quotation's comparator page is checked against on every use (apps/api/src/lib/
 * page-cache.ts), in one statement: every write of the quotation moves its version or its status (trip, plan,
 * travellers, payment start, date change), and paying moves the sale's paid state. Undefined when the page must
 * not be kept at all: no such quotation, or a discount code (whose validity the plans look up on every call).
 */
export async function quotationPageStamp(
  db: Database,
  companyId: number | undefined,
  quotationId: string,
): Promise<string | undefined> {
  const row = await repository.findPageStamp(db, quotationId);
  if (!row || (companyId !== undefined && row.companyId !== companyId) || row.discountCode !== null) return undefined;
  return [row.version, row.status, row.updatedAt.getTime(), row.paid].join(':');
}

/** How many times what would be bought has changed: a payment opens only for the version it priced. */
export async function quotationVersion(db: Database, quotationId: string): Promise<number | undefined> {
  return (await repository.findQuotation(db, undefined, quotationId))?.version;
}
