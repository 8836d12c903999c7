import { z } from 'zod';
import { parseIsoDate, todayInChile, tripDateMessages } from './dates.ts';
import { type FieldErrorCode, issueCode, type Rule } from './field-errors.ts';
import { DocumentType, type DocumentTypeId, documentTypeIds, nationalityIds } from './ids.ts';
import {
  billingLimits,
  companyLimits,
  contactFormLimits,
  discountCodeMaxLength,
  documentMaxLength,
  documentMinLength,
  emailMaxLength,
  maxPassengers,
  nameMaxLength,
} from './limits.ts';
import { isValidRut } from './rut.ts';
import { visibleText } from './visible-text.ts';
import { interpretSchemasInBrowsers } from './zod-in-browsers.ts';

/**
 * Every field rule that the storefront and the API both apply, each with its machine code and its one Spanish
 * message: the travellers, the billing details, the trip, the contact form, the certificate search keyword and the
 * newsletter (spec §5 and §9). The API's request schemas and the storefront's form schemas are built from these, so
 * a rule changes here, once.
 *
 * A field is a zod schema. The API composes them into its request bodies (spec §7 wire names); a form checks its
 * values with them through {@link checkField}. Zod's own checks are named by kind (`required`, `too_long`…, see
 * field-errors.ts); a rule of ours states its code (`params.code`).
 */

// The limits live in limits.ts (no zod), so a page that needs a number only does not load the rules.
export {
  billingLimits,
  companyLimits,
  contactFormLimits,
  discountCodeMaxLength,
  documentMaxLength,
  documentMinLength,
  emailMaxLength,
  maxPassengers,
  nameMaxLength,
} from './limits.ts';

interpretSchemasInBrowsers();

// ─── Limits (spec §9) ──────────────────────────────────────────────────────────────────────────────────────────────

/** The largest id PostgreSQL's integer column holds. */
const maxId = 2_147_483_647;
const phonePattern = /^[0-9 +()-]{8,20}$/;

// ─── Messages: one per rule ────────────────────────────────────────────────────────────────────────────────────────
// The texts spec §5 names stay exactly as written there ('Campo Obligatorio', the contact form's, the certificate
// keyword's); the rest speak one voice: the visitor addressed as «tú», in sentence case, saying what to do.

export const ruleMessages = {
  required: 'Campo Obligatorio',
  /** A number or a list where text is expected. */
  notText: 'Ingresa un texto',
  notNumber: 'Ingresa un número entero positivo',
  notBoolean: 'Indica sí o no',
  tooLong: (max: number) => `Puede tener hasta ${max} caracteres`,
  invalidEmail: 'Formato de Email incorrecto',
  emailTooLong: `El email puede tener hasta ${emailMaxLength} caracteres`,
  invalidPhone: 'Teléfono inválido: usa de 8 a 20 dígitos (puede llevar +, espacios, paréntesis o guiones)',
  invalidDate: tripDateMessages.invalidDate,
  invalidRut: 'RUT inválido',
  // Travellers
  gender: 'Selecciona el género',
  nationality: 'Selecciona la nacionalidad',
  documentType: 'Selecciona el tipo de documento',
  invalidDni: 'DNI inválido',
  invalidPassport: 'Pasaporte inválido',
  futureBirthDate: 'La fecha de nacimiento no puede ser posterior a hoy',
  ageMismatch: 'La edad no corresponde al tipo de pasajero cotizado',
  countryDestination: 'Selecciona el país de destino',
  emergencyContact: 'Ingresa el contacto de emergencia',
  // Billing
  companyDetails: 'Ingresa los datos de la empresa para emitir factura',
  // Trip
  origin: 'Selecciona el origen',
  modality: 'Selecciona la modalidad',
  destination: 'Selecciona el destino',
  noPassengers: 'Agrega al menos un pasajero',
  tooManyPassengers: `Puedes cotizar hasta ${maxPassengers} pasajeros`,
  discountCodeTooLong: `El código puede tener hasta ${discountCodeMaxLength} caracteres`,
  // The purchase
  alreadyPaid: 'Esta compra ya fue pagada',
  // Contact form (spec §5, as written there)
  contactFullName: 'Debe ingresar su Nombre y Apellido',
  contactEmailRequired: 'Debe ingresar un email',
  contactEmailInvalid: 'Email inválido',
  contactPhone: 'Debe ingresar un teléfono',
  contactSubject: 'Seleccione un asunto',
  contactDetail: 'Debe ingresar una descripción',
  /** The contact form's reCAPTCHA (spec §5: the form requires a reCaptchaToken). */
  reCaptchaRequired: 'Marca la casilla «No soy un robot» antes de enviar',
  reCaptchaFailed: 'No pudimos verificar que no eres un robot. Marca la casilla nuevamente.',
  // Certificate search (spec §5, as written there)
  keywordInvalid: (typeLabel: string) => `Ingrese un ${typeLabel} valido`,
} as const;

const m = ruleMessages;

// ─── Building blocks ───────────────────────────────────────────────────────────────────────────────────────────────

/** The params of a check of ours: its message, and its code on the issue. */
const fails = (rule: Rule) => ({ error: rule.message, params: { code: rule.code } });

/** A type error reads `required` when the value is missing, `invalid` when it is of the wrong type. */
export const typeError = (invalid: string, required: string = m.required) => ({
  error: (issue: { input?: unknown }) => (issue.input == null ? required : invalid),
});

/**
 * Text, without control or invisible characters (visible-text.ts; line breaks kept only where `multiline`), then
 * trimmed: blank is `required`, longer than `max` is `too_long`.
 */
export function text(max: number, messages: { required?: string; tooLong?: string; multiline?: boolean } = {}) {
  const required = messages.required ?? m.required;
  const multiline = messages.multiline === true;
  return z
    .string(typeError(m.notText, required))
    .overwrite((value) => visibleText(value, { multiline }))
    .trim()
    .min(1, { error: required, abort: true })
    .max(max, { error: messages.tooLong ?? m.tooLong(max) });
}

/** Optional text, without control or invisible characters, trimmed: blank is allowed, longer than `max` is `too_long`. */
export function optionalText(max: number) {
  return z.string(typeError(m.notText)).overwrite(visibleText).trim().max(max, m.tooLong(max));
}

/** An e-mail of at most {@link emailMaxLength} characters, trimmed. The contact form words two messages its way. */
export function email(messages: { required?: string; invalid?: string } = {}) {
  const required = messages.required ?? m.required;
  const invalid = messages.invalid ?? m.invalidEmail;
  return z
    .string(typeError(invalid, required))
    .trim()
    .min(1, { error: required, abort: true })
    .max(emailMaxLength, { error: m.emailTooLong, abort: true })
    .pipe(z.email({ error: invalid }));
}

/** A row id: a positive integer that fits PostgreSQL's integer column. */
export function positiveId(message: string = m.notNumber, required: string = m.required) {
  return z.number(typeError(message, required)).int(message).positive(message).max(maxId, message);
}

/** An id of the catalogue chosen in a list (origin, modality…): missing, it reads the list's own message. */
export const catalogId = (message: string) => positiveId(message, message);

export const booleanField = z.boolean(typeError(m.notBoolean));

/** A real calendar day 'YYYY-MM-DD'. */
export function isoDate(required: string = m.required) {
  return z
    .string(typeError(m.invalidDate, required))
    .trim()
    .min(1, { error: required, abort: true })
    .refine((value) => parseIsoDate(value) !== null, fails({ code: 'invalid_date', message: m.invalidDate }))
    .meta({ format: 'date' });
}

// ─── Travellers ────────────────────────────────────────────────────────────────────────────────────────────────────

export const personName = text(nameMaxLength);
export const gender = z.enum(['F', 'M', 'X'], typeError(m.gender));
export const nationality = z.literal(nationalityIds, typeError(m.nationality));
export const documentType = z.literal(documentTypeIds, typeError(m.documentType));
export const documentNumber = text(documentMaxLength);

/** A real calendar day, not after today in Chile. Whether it fits the quoted age band: see bands.ts. */
export const birthDate = isoDate().refine(
  (value) => value <= todayInChile(),
  fails({ code: 'future_date', message: m.futureBirthDate }),
);

export const phone = z
  .string(typeError(m.invalidPhone))
  .trim()
  .min(1, { error: m.required, abort: true })
  .refine((value) => phonePattern.test(value), fails({ code: 'invalid_phone', message: m.invalidPhone }))
  .meta({ pattern: phonePattern.source });

/** Why a document number does not fit its type (RUT check digit; DNI or passport form), or null. Length is the field's rule. */
export function documentProblem(type: DocumentTypeId, id: string): Rule | null {
  const number = id.trim();
  if (number.length === 0 || number.length > documentMaxLength) return null;
  if (type === DocumentType.rut) return isValidRut(number) ? null : { code: 'invalid_rut', message: m.invalidRut };
  if (type === DocumentType.passport) {
    return isDocumentNumber(number) ? null : { code: 'invalid_document', message: m.invalidPassport };
  }
  return isDocumentNumber(number) ? null : { code: 'invalid_document', message: m.invalidDni };
}

/** Spec §5: a DNI, DNI/CE or passport number: at least 5 characters, no whitespace. */
function isDocumentNumber(value: string): boolean {
  return value.length >= documentMinLength && !/\s/.test(value);
}

/** A traveller's identity document `{ type, id }`: the number is checked for its type. */
export const travellerDocument = z
  .object({ type: documentType, id: documentNumber }, typeError(m.documentType))
  .superRefine((document, ctx) => reportRule(ctx, ['id'], documentProblem(document.type, document.id)));

export const emergencyContact = z.object(
  { firstName: personName, lastName: personName, phone },
  typeError(m.emergencyContact, m.emergencyContact),
);

export const countryDestination = catalogId(m.countryDestination);

/** The rule a traveller whose age on the departure date does not fit the quoted passenger type breaks. */
export const ageMismatch: Rule = { code: 'age_mismatch', message: m.ageMismatch };
/** A required emergency contact (shared, or the traveller's own) that is missing. */
export const emergencyContactMissing: Rule = { code: 'required', message: m.emergencyContact };
/** A purchase that is paid can no longer change, nor be paid again. */
export const alreadyPaid: Rule = { code: 'already_paid', message: m.alreadyPaid };

// ─── Billing ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** Spec §3 Invoice details, personalInformation. */
export const personalInformation = z.object(
  {
    address: text(billingLimits.address),
    streetNumber: text(billingLimits.streetNumber),
    apartment: optionalText(billingLimits.apartment).nullish().describe('Optional; blank is stored as null'),
    locality: text(billingLimits.locality),
    province: text(billingLimits.province),
  },
  typeError(m.required),
);

/** A RUT with a correct check digit (a company's, for the invoice). */
export const rut = z
  .string(typeError(m.invalidRut))
  .trim()
  .min(1, { error: m.required, abort: true })
  .refine((value) => isValidRut(value), fails({ code: 'invalid_rut', message: m.invalidRut }));

/** Spec §3 Invoice details, companyDetails: required when an invoice is asked for. */
export const companyDetails = z.object(
  {
    name: text(companyLimits.name),
    id: rut.describe("The company's RUT"),
    business: text(companyLimits.business).describe('Giro'),
    address: text(companyLimits.address),
    email: email(),
  },
  typeError(m.companyDetails, m.companyDetails),
);

/** Company details missing while an invoice is asked for. */
export const companyDetailsMissing: Rule = { code: 'required', message: m.companyDetails };

// ─── Trip ──────────────────────────────────────────────────────────────────────────────────────────────────────────

export const tripFields = {
  origin: catalogId(m.origin),
  modality: catalogId(m.modality),
  destination: catalogId(m.destination),
  departureDate: isoDate(tripDateMessages.departureRequired),
  returnDate: isoDate(tripDateMessages.returnRequired),
  discountCode: z
    .string(typeError(m.notText))
    .overwrite(visibleText)
    .trim()
    .max(discountCodeMaxLength, m.discountCodeTooLong),
};

/** Spec §5/§9: a trip has from 1 to {@link maxPassengers} passengers. Why `total` is not allowed, or null. */
export function passengerTotalProblem(total: number): Rule | null {
  if (total < 1) return { code: 'required', message: m.noPassengers };
  return total > maxPassengers ? { code: 'too_many', message: m.tooManyPassengers } : null;
}

// The dates per modality: validateTripDates in dates.ts (it needs the modality's rules).

// ─── Contact form (spec §5) ────────────────────────────────────────────────────────────────────────────────────────

/** Spec §3 contact form payload, with the rules and messages of spec §5. */
export const contactFormSchema = z.object({
  fullName: text(contactFormLimits.fullName, { required: m.contactFullName }),
  email: email({ required: m.contactEmailRequired, invalid: m.contactEmailInvalid }),
  phone: text(contactFormLimits.phone, { required: m.contactPhone }),
  idSubject: catalogId(m.contactSubject),
  detail: text(contactFormLimits.detail, { required: m.contactDetail, multiline: true }),
});

export type ContactFormInput = z.infer<typeof contactFormSchema>;

// ─── Certificate search (spec §5) ──────────────────────────────────────────────────────────────────────────────────

/** The certificate search types (spec §4: identity number, DNI, passport, e-mail), each named as the message says. */
export const certificateSearchTypes = {
  rut: { label: 'RUT', code: 'invalid_rut' },
  dni: { label: 'DNI/CE', code: 'invalid_document' },
  passport: { label: 'Pasaporte', code: 'invalid_document' },
  email: { label: 'Email', code: 'invalid_email' },
} as const satisfies Record<string, { label: string; code: FieldErrorCode }>;

export type CertificateSearchType = keyof typeof certificateSearchTypes;

const rutWithHyphen = /-[0-9kK]$/;
const isEmail = (value: string) => z.email().safeParse(value).success;

const keywordChecks: Record<CertificateSearchType, (keyword: string) => boolean> = {
  rut: (keyword) => rutWithHyphen.test(keyword) && isValidRut(keyword),
  dni: isDocumentNumber,
  passport: isDocumentNumber,
  email: isEmail,
};

/**
 * The search keyword for a type (spec §5): 'Campo Obligatorio' when empty; otherwise 'Ingrese un {type} valido'
 * unless it is a RUT with a hyphen and a correct check digit, a DNI or passport number of at least 5 characters
 * without whitespace, or an e-mail address.
 */
export function certificateKeyword(type: CertificateSearchType) {
  const { label, code } = certificateSearchTypes[type];
  const invalid = m.keywordInvalid(label);
  return z
    .string(typeError(invalid))
    .trim()
    .min(1, { error: m.required, abort: true })
    .refine(keywordChecks[type], fails({ code, message: invalid }));
}

/** The most characters a search keyword may have (the longest e-mail). */
export const certificateWordMaxLength = emailMaxLength;

/**
 * The keyword of `GET /certificates?word=`, which carries no type: an e-mail when it holds «@», otherwise the holder's
 * document — a RUT in any accepted form (12.345.678-5, 12345678-5, 123456785) or a DNI/passport number of at least 5
 * characters without whitespace. Empty reads 'Campo Obligatorio'; otherwise the rule of the type it reads as.
 */
export const certificateSearchWord = z
  .string(typeError(m.keywordInvalid('documento')))
  .trim()
  .min(1, { error: m.required, abort: true })
  .max(certificateWordMaxLength, { error: m.tooLong(certificateWordMaxLength), abort: true })
  .superRefine((word, ctx) => {
    const email = word.includes('@');
    const valid = email ? isEmail(word) : isDocumentNumber(word);
    if (valid) return;
    const rule = email
      ? { code: 'invalid_email' as const, message: m.keywordInvalid(certificateSearchTypes.email.label) }
      : { code: 'invalid_document' as const, message: m.keywordInvalid('documento') };
    ctx.addIssue({ code: 'custom', message: rule.message, params: { code: rule.code } });
  });

// ─── Newsletter (spec §5) ──────────────────────────────────────────────────────────────────────────────────────────

/** Spec §5: the e-mail is required, valid, at most 50 characters; a bad one reads «Formato de Email incorrecto». */
export const newsletterSchema = z.object({ email: email() });

export type NewsletterInput = z.infer<typeof newsletterSchema>;

// ─── Forms ─────────────────────────────────────────────────────────────────────────────────────────────────────────

type IssueSink = {
  addIssue: (issue: { code: 'custom'; path: PropertyKey[]; message: string; params: object }) => void;
};

/**
 * Checks one form value with a field's schema and reports what it finds at `path`, code included: how a form whose
 * values are all text (selects, typed dates) applies the same rules as the API. Answers the parsed value, or
 * undefined when it fails.
 */
export function checkField<T extends z.ZodType>(
  ctx: IssueSink,
  path: PropertyKey[],
  schema: T,
  value: unknown,
): z.output<T> | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const code = issueCode(issue, value);
    ctx.addIssue({ code: 'custom', path: [...path, ...issue.path], message: issue.message, params: { code } });
  }
  return undefined;
}

/** Reports a rule of ours at `path` when it is broken (`rule` null: nothing to report). */
export function reportRule(ctx: IssueSink, path: PropertyKey[], rule: Rule | null): void {
  if (rule) ctx.addIssue({ code: 'custom', path, message: rule.message, params: { code: rule.code } });
}

/** A select's value as the number the API expects: '' (nothing chosen) is undefined, so it reads `required`. */
export function chosenNumber(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}
