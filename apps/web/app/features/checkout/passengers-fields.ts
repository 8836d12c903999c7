// What the passengers form shows (its choices, value types, a RUT's tidy form) without its rules: the page loads
// this with the form, and passengers-schema.ts (zod and the domain's rules) only when the form is first checked.
import { DocumentType, Nationality } from '@travesia/domain/ids';
import { formatRut, isValidRut } from '@travesia/domain/rut';
import type { components } from '#app/lib/api-schema.d.ts';

export type Country = components['schemas']['Country'];
/** An add-on the purchase step offers, with its price for each travelling band (GET …/quotations/{id}/add-ons). */
export type AddOnOffer = components['schemas']['QuotationAddOns']['addOns'][number];

/** One traveller's place in the form: a passenger of the quotation, with its age band. */
export type PassengerSlot = { passengerTypeId: number; ageFrom: number; ageTo: number };

export type ContactValues = { firstName: string; lastName: string; phone: string };

export type PassengerValues = {
  firstName: string;
  lastName: string;
  /** '' until chosen, then F, M or X. */
  gender: string;
  /** ISO date, '' or the raw text typed (DateField). */
  birthDate: string;
  /** A `Nationality` id as the select holds it. */
  nationality: string;
  /** `type`: a `DocumentType` id as the select holds it. */
  document: { type: string; id: string };
  email: string;
  phone: string;
  emergencyContact: ContactValues;
  /** The add-ons ticked for this traveller (ids as the checkboxes hold them). */
  addOns: string[];
};

export type PassengersValues = {
  passengers: PassengerValues[];
  shareEmergencyContact: boolean;
  emergencyContact: ContactValues;
  countryDestination: string;
  acceptTerms: boolean;
};

export const nationalities = [
  { id: String(Nationality.chile), label: 'Chile' },
  { id: String(Nationality.other), label: 'Otro' },
] as const;

export const documentTypes = [
  { id: String(DocumentType.rut), label: 'RUT' },
  { id: String(DocumentType.dni), label: 'DNI' },
  { id: String(DocumentType.passport), label: 'Pasaporte' },
] as const;

/** The document a nationality implies by default: a RUT for Chileans, a DNI for everyone else. */
export function documentTypeFor(nationalityId: string): string {
  return String(nationalityId === String(Nationality.chile) ? DocumentType.rut : DocumentType.dni);
}

export const genders = [
  { id: 'F', label: 'Femenino' },
  { id: 'M', label: 'Masculino' },
  { id: 'X', label: 'Otro' },
] as const;

/** A RUT as Chileans write it (12.345.678-5); anything else as typed. */
export function tidyDocument(type: string, id: string): string {
  const text = id.trim();
  if (type !== String(DocumentType.rut) || !isValidRut(text)) return text;
  return formatRut(text, 'both');
}
