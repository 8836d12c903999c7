import type { components } from '#app/lib/api-schema.d.ts';

export type Quotation = components['schemas']['Quotation'];
export type QuotationBody = components['schemas']['QuotationBody'];
export type FieldError = components['schemas']['ErrorBody']['errors'][number];

/** The quotation ids the API knows are UUIDs; anything else cannot be one. */
export function isQuotationId(value: string | undefined): value is string {
  return !!value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** A stored quotation as the body that replaces it (PUT), with the chosen plan. */
export function toQuotationBody(quotation: Quotation, planId: number | null): QuotationBody {
  return {
    origin: quotation.origin,
    destination: quotation.destination,
    modality: quotation.modality,
    departureDate: quotation.departureDate,
    returnDate: quotation.returnDate,
    passangerTypes: quotation.passangerTypes.map((p) => ({ passengerTypeId: p.passengerTypeId, quantity: p.quantity })),
    discountCode: quotation.discountCode,
    upgradeCovid: quotation.upgradeCovid,
    planId,
    referralCode: quotation.referralCode,
    pantalla: quotation.pantalla,
    name: quotation.name,
    lastName: quotation.lastName,
    phone: quotation.phone,
    email: quotation.email,
    rut: quotation.rut,
    domicilio: quotation.domicilio,
  };
}

/** The API's 400 says the trip's departure date is already behind us. */
export function departureHasPassed(errors: readonly FieldError[] | undefined): boolean {
  return (errors ?? []).some((error) => error.code === 'departure_in_past');
}

export const expiredQuotationMessage = 'La fecha de salida de esta cotización ya pasó';

/** The field errors of a 400 as the visitor reads them, in Spanish (the API's detail is English), once each. */
export function visitorMessages(errors: readonly FieldError[] | undefined): string[] {
  return [...new Set((errors ?? []).map((error) => error.message))];
}
