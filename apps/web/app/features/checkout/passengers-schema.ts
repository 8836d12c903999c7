import { parseIsoDate } from '@travesia/domain/dates';
import { DocumentType, Nationality } from '@travesia/domain/ids';
import { uiMessages } from '@travesia/domain/messages';
import { formatRut, isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';
import type { components } from '#app/lib/api-schema.d.ts';
import { ageOn } from './format.ts';

export type PassengersBody = components['schemas']['PassengersBody'];
export type SavedPassengers = components['schemas']['Passengers'];
export type Country = components['schemas']['Country'];

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

export const passengerMessages = {
  required: uiMessages.required,
  nameLength: 'Puede tener hasta 60 caracteres',
  gender: 'Selecciona el género',
  dateFormat: 'Ingresa la fecha como dd-mm-aaaa',
  futureBirthDate: 'La fecha de nacimiento no puede ser posterior a hoy',
  ageMismatch: 'La edad no corresponde al tipo de pasajero cotizado',
  invalidRut: 'RUT inválido',
  invalidDni: 'DNI inválido',
  documentLength: 'Puede tener hasta 20 caracteres',
  emailFormat: uiMessages.emailFormat,
  emailLength: 'El email no puede tener más de 50 caracteres',
  phone: 'Teléfono inválido: usa de 8 a 20 dígitos (puede llevar +, espacios, paréntesis o guiones)',
  country: 'Selecciona el país de destino',
  terms: 'Debes aceptar los términos y condiciones',
} as const;

const m = passengerMessages;

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

const nameProblem = (value: string) => {
  const text = value.trim();
  if (text.length === 0) return m.required;
  return text.length > 60 ? m.nameLength : null;
};

const phoneProblem = (value: string) => {
  const text = value.trim();
  if (text.length === 0) return m.required;
  return /^[0-9 +()-]{8,20}$/.test(text) ? null : m.phone;
};

const emailProblem = (value: string) => {
  const text = value.trim();
  if (text.length === 0) return m.required;
  if (text.length > 50) return m.emailLength;
  return z.email().safeParse(text).success ? null : m.emailFormat;
};

/** The message a document number fails with for its type (RUT check digit; DNI ≥ 5 characters, no spaces). */
export function documentProblem(type: string, value: string): string | null {
  const text = value.trim();
  if (text.length === 0) return m.required;
  if (text.length > 20) return m.documentLength;
  if (type === String(DocumentType.rut)) return isValidRut(text) ? null : m.invalidRut;
  return text.length >= 5 && !/\s/.test(text) ? null : m.invalidDni;
}

export function birthDateProblem(value: string, slot: PassengerSlot, departureDate: string, today: string) {
  if (value.trim() === '') return m.required;
  if (parseIsoDate(value) === null) return m.dateFormat;
  if (value > today) return m.futureBirthDate;
  const age = ageOn(value, departureDate);
  return age >= slot.ageFrom && age <= slot.ageTo ? null : m.ageMismatch;
}

const contactSchema = z.object({ firstName: z.string(), lastName: z.string(), phone: z.string() });

/**
 * Every rule of the passengers step that the browser can check (spec §9), in Spanish, before anything is sent; the
 * API checks them all again.
 */
export function passengersSchema(slots: PassengerSlot[], departureDate: string, today: string) {
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
          emergencyContact: contactSchema,
        }),
      ),
      shareEmergencyContact: z.boolean(),
      emergencyContact: contactSchema,
      countryDestination: z.string(),
      acceptTerms: z.boolean(),
    })
    .superRefine((values, ctx) => {
      const report = (path: (string | number)[], message: string | null) => {
        if (message) ctx.addIssue({ code: 'custom', path, message });
      };
      const checkContact = (prefix: (string | number)[], contact: ContactValues) => {
        report([...prefix, 'firstName'], nameProblem(contact.firstName));
        report([...prefix, 'lastName'], nameProblem(contact.lastName));
        report([...prefix, 'phone'], phoneProblem(contact.phone));
      };
      values.passengers.forEach((p, index) => {
        const at = (...path: (string | number)[]) => ['passengers', index, ...path];
        const slot = slots[index];
        report(at('firstName'), nameProblem(p.firstName));
        report(at('lastName'), nameProblem(p.lastName));
        report(at('gender'), ['F', 'M', 'X'].includes(p.gender) ? null : m.gender);
        if (slot) report(at('birthDate'), birthDateProblem(p.birthDate, slot, departureDate, today));
        report(at('nationality'), nationalities.some((n) => n.id === p.nationality) ? null : m.required);
        report(at('document', 'type'), documentTypes.some((d) => d.id === p.document.type) ? null : m.required);
        report(at('document', 'id'), documentProblem(p.document.type, p.document.id));
        report(at('email'), emailProblem(p.email));
        report(at('phone'), phoneProblem(p.phone));
        if (!values.shareEmergencyContact) checkContact(at('emergencyContact'), p.emergencyContact);
      });
      if (values.shareEmergencyContact) checkContact(['emergencyContact'], values.emergencyContact);
      report(['countryDestination'], values.countryDestination ? null : m.country);
      report(['acceptTerms'], values.acceptTerms ? null : m.terms);
    });
}

const trimContact = (contact: ContactValues) => ({
  firstName: contact.firstName.trim(),
  lastName: contact.lastName.trim(),
  phone: contact.phone.trim(),
});

/** A RUT as Chileans write it (12.345.678-5); anything else as typed. */
export function tidyDocument(type: string, id: string): string {
  const text = id.trim();
  if (type !== String(DocumentType.rut) || !isValidRut(text)) return text;
  return formatRut(text, 'both');
}

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
        type: p.document.type === String(DocumentType.dni) ? DocumentType.dni : DocumentType.rut,
        id: tidyDocument(p.document.type, p.document.id),
      },
      email: p.email.trim(),
      phone: p.phone.trim(),
      emergencyContact: shared ? null : trimContact(p.emergencyContact),
    })),
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
    return null;
  }
  if (['emergencyContact.firstName', 'emergencyContact.lastName', 'emergencyContact.phone'].includes(field)) {
    return field;
  }
  if (field === 'countryDestination') return field;
  return null;
}
