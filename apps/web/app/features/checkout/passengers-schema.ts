import { fitsBand } from '@travesia/domain/bands';
import { parseIsoDate } from '@travesia/domain/dates';
import { DocumentType, Nationality } from '@travesia/domain/ids';
import {
  ageMismatch,
  birthDate,
  checkField,
  chosenNumber,
  countryDestination,
  email,
  gender,
  nationality,
  personName,
  phone,
  reportRule,
  travellerDocument,
} from '@travesia/domain/rules';
import { z } from 'zod';
import type { components } from '#app/lib/api-schema.d.ts';
import { fromChileanDate } from '#app/lib/dates.ts';
import { postedCheckbox, postedText } from './posted-form.ts';

export type PassengersBody = components['schemas']['PassengersBody'];
export type SavedPassengers = components['schemas']['Passengers'];

import {
  type ContactValues,
  type Country,
  documentTypeFor,
  documentTypes,
  genders,
  nationalities,
  type PassengerSlot,
  type PassengersValues,
  type PassengerValues,
  tidyDocument,
} from './passengers-fields.ts';

// The form's values and choices live in passengers-fields.ts (the page loads them without these rules).
export type { ContactValues, Country, PassengerSlot, PassengersValues, PassengerValues };
export { documentTypeFor, documentTypes, genders, nationalities, tidyDocument };

/** The one rule of this form the API has no field for. */
export const termsMessage = 'Debes aceptar los términos y condiciones';

export const emptyContact = (): ContactValues => ({ firstName: '', lastName: '', phone: '' });

export const emptyPassenger = (): PassengerValues => ({
  firstName: '',
  lastName: '',
  gender: '',
  birthDate: '',
  nationality: String(Nationality.chile),
  document: { type: String(DocumentType.rut), id: '' },
  email: '',
  phone: '',
  emergencyContact: emptyContact(),
  addOns: [],
});

/** The quotation's passengers as form slots, youngest band first (the order the API stores them in). */
export function passengerSlots(
  groups: { passengerTypeId: number; quantity: number; ageFrom: number; ageTo: number }[],
) {
  return [...groups]
    .sort((a, b) => a.ageFrom - b.ageFrom)
    .flatMap((group) =>
      Array.from({ length: group.quantity }, () => ({
        passengerTypeId: group.passengerTypeId,
        ageFrom: group.ageFrom,
        ageTo: group.ageTo,
      })),
    );
}

/** The form's starting values: what was saved (each traveller in a slot of its band), else empty passengers. */
export function initialPassengersValues(
  slots: PassengerSlot[],
  saved: SavedPassengers | null,
  countries: Country[],
): PassengersValues {
  const remaining = [...(saved?.passangers ?? [])].sort((a, b) => a.seq - b.seq);
  const passengers = slots.map((slot): PassengerValues => {
    const index = remaining.findIndex((p) => p.passengerTypeId === slot.passengerTypeId);
    if (index < 0) return emptyPassenger();
    const [p] = remaining.splice(index, 1);
    if (!p) return emptyPassenger();
    return {
      firstName: p.firstName,
      lastName: p.lastName,
      gender: p.gender,
      birthDate: p.birthDate,
      nationality: String(p.nationality),
      document: { type: String(p.document.type), id: p.document.id },
      email: p.email,
      phone: p.phone,
      emergencyContact: p.emergencyContact ?? emptyContact(),
      addOns: p.adicionales.map(String),
    };
  });
  const savedCountry = saved && countries.some((c) => c.id === saved.countryDestination);
  return {
    passengers,
    shareEmergencyContact: saved ? saved.shareEmergencyContact : true,
    emergencyContact: saved?.emergencyContact ?? emptyContact(),
    countryDestination: savedCountry
      ? String(saved.countryDestination)
      : countries.length === 1
        ? String(countries[0]?.id)
        : '',
    // The visitor accepted them when saving; a return keeps the box ticked.
    acceptTerms: saved !== null,
  };
}

/** The birth date's rules (packages/domain), then whether its age on the departure date fits the passenger's band. */
function checkBirthDate(
  ctx: z.RefinementCtx,
  path: (string | number)[],
  value: string,
  slot: PassengerSlot,
  departureDate: string,
) {
  const born = checkField(ctx, path, birthDate, value);
  if (born !== undefined && !fitsBand(born, slot, departureDate)) reportRule(ctx, path, ageMismatch);
}

const formContact = z.object({ firstName: z.string(), lastName: z.string(), phone: z.string() });

/**
 * Every rule of the passengers step that the browser can check, before anything is sent: the same rules the API
 * applies (packages/domain/src/rules.ts), on the form's values (text, as the inputs and selects hold them).
 */
export function passengersSchema(slots: PassengerSlot[], departureDate: string) {
  return z
    .object({
      passengers: z.array(
        z.object({
          firstName: z.string(),
          lastName: z.string(),
          gender: z.string(),
          birthDate: z.string(),
          nationality: z.string(),
          document: z.object({ type: z.string(), id: z.string() }),
          email: z.string(),
          phone: z.string(),
          emergencyContact: formContact,
          // Which add-ons each traveller may buy is the API's to say (band, plan, trip): it checks them on saving.
          // (A lone box reads as a string or a boolean in react-hook-form: the posted form is what is sent.)
          addOns: z.custom<string[]>(),
        }),
      ),
      shareEmergencyContact: z.boolean(),
      emergencyContact: formContact,
      countryDestination: z.string(),
      acceptTerms: z.boolean(),
    })
    .superRefine((values, ctx) => {
      const checkContact = (prefix: (string | number)[], contact: ContactValues) => {
        checkField(ctx, [...prefix, 'firstName'], personName, contact.firstName);
        checkField(ctx, [...prefix, 'lastName'], personName, contact.lastName);
        checkField(ctx, [...prefix, 'phone'], phone, contact.phone);
      };
      values.passengers.forEach((p, index) => {
        const at = (...path: (string | number)[]) => ['passengers', index, ...path];
        const slot = slots[index];
        checkField(ctx, at('firstName'), personName, p.firstName);
        checkField(ctx, at('lastName'), personName, p.lastName);
        checkField(ctx, at('gender'), gender, p.gender);
        if (slot) checkBirthDate(ctx, at('birthDate'), p.birthDate, slot, departureDate);
        checkField(ctx, at('nationality'), nationality, chosenNumber(p.nationality));
        checkField(ctx, at('document'), travellerDocument, { type: chosenNumber(p.document.type), id: p.document.id });
        checkField(ctx, at('email'), email(), p.email);
        checkField(ctx, at('phone'), phone, p.phone);
        if (!values.shareEmergencyContact) checkContact(at('emergencyContact'), p.emergencyContact);
      });
      if (values.shareEmergencyContact) checkContact(['emergencyContact'], values.emergencyContact);
      checkField(ctx, ['countryDestination'], countryDestination, chosenNumber(values.countryDestination));
      if (!values.acceptTerms) ctx.addIssue({ code: 'custom', path: ['acceptTerms'], message: termsMessage });
    });
}

const trimContact = (contact: ContactValues) => ({
  firstName: contact.firstName.trim(),
  lastName: contact.lastName.trim(),
  phone: contact.phone.trim(),
});

/** The checked form as the API's body (PUT /quotations/{id}/passangers). */
export function toPassengersBody(values: PassengersValues): PassengersBody {
  const shared = values.shareEmergencyContact;
  return {
    shareEmergencyContact: shared,
    emergencyContact: shared ? trimContact(values.emergencyContact) : null,
    countryDestination: Number(values.countryDestination),
    passangers: values.passengers.map((p) => ({
      firstName: p.firstName.trim(),
      lastName: p.lastName.trim(),
      gender: p.gender as 'F' | 'M' | 'X',
      birthDate: p.birthDate,
      nationality: p.nationality === String(Nationality.other) ? Nationality.other : Nationality.chile,
      document: {
        type:
          p.document.type === String(DocumentType.passport)
            ? DocumentType.passport
            : p.document.type === String(DocumentType.dni)
              ? DocumentType.dni
              : DocumentType.rut,
        id: tidyDocument(p.document.type, p.document.id),
      },
      email: p.email.trim(),
      phone: p.phone.trim(),
      emergencyContact: shared ? null : trimContact(p.emergencyContact),
      adicionales: [...new Set(p.addOns)].map(Number).filter((id) => Number.isSafeInteger(id) && id > 0),
    })),
  };
}

/** More boxes than the store could offer are a forged form: the API refuses over 10 anyway. */
const maxAddOnsPosted = 20;

/** A birth date as DateField posts it (dd-mm-aaaa as typed, or ISO) in the form's terms: ISO, else the raw text. */
function postedDate(text: string): string {
  const trimmed = text.trim();
  if (parseIsoDate(trimmed) !== null) return trimmed;
  return fromChileanDate(trimmed) ?? trimmed;
}

/**
 * A posted passengers form (inputs named as react-hook-form registers them: passengers.0.document.id…) as the
 * form's values, for `slotCount` travellers. The shared-contact box exists only with two travellers or more; alone,
 * the traveller's contact is shared unless their own contact fields were shown.
 */
export function passengersValuesOfForm(form: FormData, slotCount: number): PassengersValues {
  const text = (name: string) => postedText(form, name);
  const contact = (prefix: string): ContactValues => ({
    firstName: text(`${prefix}.firstName`),
    lastName: text(`${prefix}.lastName`),
    phone: text(`${prefix}.phone`),
  });
  return {
    passengers: Array.from({ length: slotCount }, (_, index): PassengerValues => {
      const at = `passengers.${index}`;
      return {
        firstName: text(`${at}.firstName`),
        lastName: text(`${at}.lastName`),
        gender: text(`${at}.gender`),
        birthDate: postedDate(text(`${at}.birthDate`)),
        nationality: text(`${at}.nationality`),
        document: { type: text(`${at}.document.type`), id: text(`${at}.document.id`) },
        email: text(`${at}.email`),
        phone: text(`${at}.phone`),
        emergencyContact: contact(`${at}.emergencyContact`),
        addOns: form.getAll(`${at}.addOns`).map(String).slice(0, maxAddOnsPosted),
      };
    }),
    shareEmergencyContact:
      slotCount > 1
        ? postedCheckbox(form, 'shareEmergencyContact')
        : !form.has('passengers.0.emergencyContact.firstName'),
    emergencyContact: contact('emergencyContact'),
    countryDestination: text('countryDestination'),
    acceptTerms: postedCheckbox(form, 'acceptTerms'),
  };
}

/** The API's field names (passangers.0.document.id) as the form's (passengers.0.document.id); null: the whole form. */
export function passengersFieldOfApi(field: string): string | null {
  const passenger = /^passangers\.(\d+)\.(.+)$/.exec(field);
  if (passenger) {
    const [, index, rest = ''] = passenger;
    const known = [
      'firstName',
      'lastName',
      'gender',
      'birthDate',
      'nationality',
      'document.type',
      'document.id',
      'email',
      'phone',
      'emergencyContact.firstName',
      'emergencyContact.lastName',
      'emergencyContact.phone',
    ];
    if (known.includes(rest)) return `passengers.${index}.${rest}`;
    if (rest === 'document') return `passengers.${index}.document.id`;
    if (rest.startsWith('adicionales')) return `passengers.${index}.addOns`;
    return null;
  }
  if (['emergencyContact.firstName', 'emergencyContact.lastName', 'emergencyContact.phone'].includes(field)) {
    return field;
  }
  if (field === 'countryDestination') return field;
  return null;
}
