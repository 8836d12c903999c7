/**
 * Rules written once, proven on both sides: each case of the table breaks one rule in a storefront form and in the
 * API's request body for the same step, and both must answer exactly one field error, with the same code and the
 * same Spanish message, the ones the table expects.
 *
 * This is the one test of packages/domain that reaches into the apps, on purpose: it imports the web's form schemas
 * and the API's request schemas (the very objects the routes validate with) and parses with them. The rules that
 * need stored data (the age band of a saved quotation, the catalogue, dates per modality on the server) are proven
 * through the API in apps/api/test/field-error-codes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { invoiceDetailsBodySchema } from '../../../apps/api/src/modules/invoices/schemas.ts';
import { passengersBodySchema } from '../../../apps/api/src/modules/passengers/schemas.ts';
import { quotationInputSchema } from '../../../apps/api/src/modules/quotations/schemas.ts';
import { type BillingValues, billingSchema } from '../../../apps/web/app/features/checkout/billing-schema.ts';
import { type PassengersValues, passengersSchema } from '../../../apps/web/app/features/checkout/passengers-schema.ts';
import { type QuoterValues, quoterSchema } from '../../../apps/web/app/features/quoter/schema.ts';
import { addDays, todayInChile } from './dates.ts';
import { type FieldError, fieldErrorsOf } from './field-errors.ts';
import { DocumentType, Nationality, PassengerType, passengerBands } from './ids.ts';
import {
  type CertificateSearchType,
  certificateKeyword,
  contactFormSchema,
  discountCodeMaxLength,
  emailMaxLength,
  ruleMessages as r,
} from './rules.ts';

/** The value is left out of the API body (a select left empty in the form). */
const absent = Symbol('absent');

type Case = {
  rule: string;
  /** The field in the form, and in the API body when its name differs (spec §7 wire names). */
  field: string;
  apiField?: string;
  /** Where the value goes, when not in the field itself (a document's type and number together). */
  at?: string;
  apiAt?: string;
  /** What the form holds; and what the API receives, when it differs (numbers for selects, a missing key…). */
  value: unknown;
  apiValue?: unknown;
  code: FieldError['code'];
  message: string;
};

type Parse = (values: unknown) => { success: boolean; error?: { issues: readonly unknown[] } };

/** Sets `value` at a dotted path of a copy of `base` (`absent` deletes the key). */
function withValue<T>(base: T, path: string, value: unknown): T {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  const last = keys.pop() ?? '';
  let at: Record<string, unknown> = copy;
  for (const key of keys) at = at[key] as Record<string, unknown>;
  if (value === absent) delete at[last];
  else at[last] = value;
  return copy as T;
}

/** The field errors a schema answers for `values`. */
function errorsOf(parse: Parse, values: unknown): FieldError[] {
  const result = parse(values);
  if (result.success) return [];
  return fieldErrorsOf(result.error?.issues as Parameters<typeof fieldErrorsOf>[0], values);
}

/** Runs every case on both sides: each answers exactly the expected field error. */
function proveBothSides<W, A>(side: { web: Parse; webValues: W; api: Parse; apiBody: A }, cases: Case[]) {
  it('the valid form and the valid body have no errors', () => {
    expect(errorsOf(side.web, side.webValues)).toStrictEqual([]);
    expect(errorsOf(side.api, side.apiBody)).toStrictEqual([]);
  });

  it.each(cases)('$rule: $code «$message»', (c) => {
    const apiField = c.apiField ?? c.field;
    const apiValue = 'apiValue' in c ? c.apiValue : c.value;
    const web = errorsOf(side.web, withValue(side.webValues, c.at ?? c.field, c.value));
    const api = errorsOf(side.api, withValue(side.apiBody, c.apiAt ?? c.at ?? apiField, apiValue));
    expect(web).toStrictEqual([{ field: c.field, code: c.code, message: c.message }]);
    expect(api).toStrictEqual([{ field: apiField, code: c.code, message: c.message }]);
  });
}

const today = todayInChile();
const departureDate = addDays(today, 30);
const bornThirtyYearsBefore = `${Number(departureDate.slice(0, 4)) - 30}${departureDate.slice(4)}`;
const adultBand = passengerBands[0];

describe('travellers: the passengers form and PUT /quotations/{id}/passangers', () => {
  const contact = { firstName: 'Ana', lastName: 'Rojas', phone: '+56 2 2345 6789' };
  const traveller = {
    firstName: 'Camila',
    lastName: 'Rojas Soto',
    gender: 'F',
    birthDate: bornThirtyYearsBefore,
    email: 'camila@example.cl',
    phone: '+56 9 1234 5678',
  };
  const webValues: PassengersValues = {
    passengers: [
      {
        ...traveller,
        nationality: String(Nationality.chile),
        document: { type: String(DocumentType.rut), id: '12.345.678-5' },
        emergencyContact: { firstName: '', lastName: '', phone: '' },
        addOns: [],
      },
    ],
    shareEmergencyContact: true,
    emergencyContact: contact,
    countryDestination: '17',
    acceptTerms: true,
  };
  const apiBody = {
    shareEmergencyContact: true,
    emergencyContact: contact,
    countryDestination: 17,
    passangers: [
      {
        ...traveller,
        nationality: Nationality.chile,
        document: { type: DocumentType.rut, id: '12.345.678-5' },
        emergencyContact: null,
      },
    ],
  };
  const slots = [{ passengerTypeId: PassengerType.upTo74, ageFrom: adultBand.ageFrom, ageTo: adultBand.ageTo }];
  const p = (field: string) => ({ field: `passengers.0.${field}`, apiField: `passangers.0.${field}` });
  const dni = (id: string) => ({
    ...p('document.id'),
    at: 'passengers.0.document',
    apiAt: 'passangers.0.document',
    value: { type: String(DocumentType.dni), id },
    apiValue: { type: DocumentType.dni, id },
  });
  const passport = (id: string) => ({
    ...p('document.id'),
    at: 'passengers.0.document',
    apiAt: 'passangers.0.document',
    value: { type: String(DocumentType.passport), id },
    apiValue: { type: DocumentType.passport, id },
  });

  const cases: Case[] = [
    { rule: 'first name required', ...p('firstName'), value: '', code: 'required', message: r.required },
    { rule: 'a blank name is missing', ...p('lastName'), value: '   ', code: 'required', message: r.required },
    {
      rule: 'name at most 60',
      ...p('lastName'),
      value: 'a'.repeat(61),
      code: 'too_long',
      message: r.tooLong(60),
    },
    { rule: 'gender one of F, M, X', ...p('gender'), value: '', code: 'invalid_option', message: r.gender },
    { rule: 'birth date required', ...p('birthDate'), value: '', code: 'required', message: r.required },
    {
      rule: 'birth date a calendar day',
      ...p('birthDate'),
      value: '1990-02-30',
      code: 'invalid_date',
      message: r.invalidDate,
    },
    {
      rule: 'birth date typed in another form',
      ...p('birthDate'),
      value: '15-06-1990',
      code: 'invalid_date',
      message: r.invalidDate,
    },
    {
      rule: 'birth date not after today',
      ...p('birthDate'),
      value: addDays(today, 1),
      code: 'future_date',
      message: r.futureBirthDate,
    },
    {
      rule: 'nationality chosen',
      ...p('nationality'),
      value: '',
      apiValue: absent,
      code: 'required',
      message: r.required,
    },
    {
      rule: 'nationality Chile or Otro',
      ...p('nationality'),
      value: '10',
      apiValue: 10,
      code: 'invalid_option',
      message: r.nationality,
    },
    {
      rule: 'document type chosen',
      ...p('document.type'),
      value: '',
      apiValue: absent,
      code: 'required',
      message: r.required,
    },
    {
      rule: 'document type RUT, DNI or passport',
      ...p('document.type'),
      value: '4',
      apiValue: 4,
      code: 'invalid_option',
      message: r.documentType,
    },
    { rule: 'document number required', ...p('document.id'), value: ' ', code: 'required', message: r.required },
    {
      rule: 'document number at most 20',
      ...p('document.id'),
      value: '1'.repeat(21),
      code: 'too_long',
      message: r.tooLong(20),
    },
    {
      rule: 'RUT check digit',
      ...p('document.id'),
      value: '12.345.678-4',
      code: 'invalid_rut',
      message: r.invalidRut,
    },
    {
      rule: 'RUT not of one repeated digit',
      ...p('document.id'),
      value: '11.111.111-1',
      code: 'invalid_rut',
      message: r.invalidRut,
    },
    {
      rule: 'DNI at least 5 characters',
      ...dni('X123'),
      code: 'invalid_document',
      message: r.invalidDni,
    },
    {
      rule: 'DNI without whitespace',
      ...dni('AR 3011122'),
      code: 'invalid_document',
      message: r.invalidDni,
    },
    {
      rule: 'passport at least 5 characters',
      ...passport('P123'),
      code: 'invalid_document',
      message: r.invalidPassport,
    },
    {
      rule: 'passport without whitespace',
      ...passport('PX 123456'),
      code: 'invalid_document',
      message: r.invalidPassport,
    },
    { rule: 'e-mail required', ...p('email'), value: '', code: 'required', message: r.required },
    {
      rule: 'e-mail valid',
      ...p('email'),
      value: 'camila@',
      code: 'invalid_email',
      message: r.invalidEmail,
    },
    {
      rule: 'e-mail at most 50',
      ...p('email'),
      value: `${'a'.repeat(emailMaxLength - 10)}@example.cl`,
      code: 'too_long',
      message: r.emailTooLong,
    },
    { rule: 'phone required', ...p('phone'), value: '', code: 'required', message: r.required },
    {
      rule: 'phone of 8 to 20 digits, spaces, + ( ) -',
      ...p('phone'),
      value: '+56 9 ABCD 5678',
      code: 'invalid_phone',
      message: r.invalidPhone,
    },
    {
      rule: 'emergency contact phone required',
      field: 'emergencyContact.phone',
      value: '',
      code: 'required',
      message: r.required,
    },
    {
      rule: 'emergency contact name at most 60',
      field: 'emergencyContact.firstName',
      value: 'b'.repeat(61),
      code: 'too_long',
      message: r.tooLong(60),
    },
    {
      rule: 'destination country chosen',
      field: 'countryDestination',
      value: '',
      apiValue: absent,
      code: 'required',
      message: r.countryDestination,
    },
  ];

  proveBothSides(
    {
      web: (values) => passengersSchema(slots, departureDate).safeParse(values),
      webValues,
      api: (body) => passengersBodySchema.safeParse(body),
      apiBody,
    },
    cases,
  );

  it('the form also checks the age on the departure date against the quoted band (the API against the quotation)', () => {
    const tooOld = withValue(webValues, 'passengers.0.birthDate', `${Number(departureDate.slice(0, 4)) - 80}-01-01`);
    expect(errorsOf((values) => passengersSchema(slots, departureDate).safeParse(values), tooOld)).toStrictEqual([
      { field: 'passengers.0.birthDate', code: 'age_mismatch', message: r.ageMismatch },
    ]);
  });
});

describe('billing: the billing form and POST /quotations/{id}/invoice-details', () => {
  const personalInformation = {
    address: 'Av. Providencia',
    streetNumber: '1234',
    apartment: '',
    locality: 'Providencia',
    province: 'Metropolitana de Santiago',
  };
  const companyDetails = {
    name: 'Viajes Andinos SpA',
    id: '76.086.428-5',
    business: 'Agencia de viajes',
    address: 'Av. Apoquindo 4500',
    email: 'facturas@viajesandinos.cl',
  };
  const webValues: BillingValues = { personalInformation, generateInvoice: true, companyDetails };
  const apiBody = { personalInformation, generateInvoice: true, companyDetails };

  const cases: Case[] = [
    {
      rule: 'address required',
      field: 'personalInformation.address',
      value: '',
      code: 'required',
      message: r.required,
    },
    {
      rule: 'address at most 200',
      field: 'personalInformation.address',
      value: 'a'.repeat(201),
      code: 'too_long',
      message: r.tooLong(200),
    },
    {
      rule: 'street number required',
      field: 'personalInformation.streetNumber',
      value: ' ',
      code: 'required',
      message: r.required,
    },
    {
      rule: 'apartment at most 20',
      field: 'personalInformation.apartment',
      value: 'b'.repeat(21),
      code: 'too_long',
      message: r.tooLong(20),
    },
    {
      rule: 'locality required',
      field: 'personalInformation.locality',
      value: '',
      code: 'required',
      message: r.required,
    },
    {
      rule: 'province at most 100',
      field: 'personalInformation.province',
      value: 'c'.repeat(101),
      code: 'too_long',
      message: r.tooLong(100),
    },
    { rule: 'company name required', field: 'companyDetails.name', value: '', code: 'required', message: r.required },
    { rule: 'company RUT required', field: 'companyDetails.id', value: '', code: 'required', message: r.required },
    {
      rule: 'company RUT check digit',
      field: 'companyDetails.id',
      value: '76.086.428-4',
      code: 'invalid_rut',
      message: r.invalidRut,
    },
    {
      rule: 'giro at most 100',
      field: 'companyDetails.business',
      value: 'g'.repeat(101),
      code: 'too_long',
      message: r.tooLong(100),
    },
    {
      rule: 'company e-mail valid',
      field: 'companyDetails.email',
      value: 'facturas@',
      code: 'invalid_email',
      message: r.invalidEmail,
    },
    {
      rule: 'company e-mail required',
      field: 'companyDetails.email',
      value: '',
      code: 'required',
      message: r.required,
    },
  ];

  proveBothSides(
    {
      web: (values) => billingSchema.safeParse(values),
      webValues,
      api: (body) => invoiceDetailsBodySchema.safeParse(body),
      apiBody,
    },
    cases,
  );

  it('without an invoice the company is not checked, on either side', () => {
    const blankCompany = { name: '', id: '', business: '', address: '', email: '' };
    const web = { ...webValues, generateInvoice: false, companyDetails: blankCompany };
    expect(errorsOf((values) => billingSchema.safeParse(values), web)).toStrictEqual([]);
    const api = { ...apiBody, generateInvoice: false, companyDetails: null };
    expect(errorsOf((body) => invoiceDetailsBodySchema.safeParse(body), api)).toStrictEqual([]);
  });
});

describe('trip: the quoter and POST /quotations/{companyId}', () => {
  const returnDate = addDays(departureDate, 9);
  const webValues: QuoterValues = {
    origin: '1',
    modality: '1',
    destination: '3',
    departureDate,
    returnDate,
    passengers: { [PassengerType.upTo74]: 2 },
    discountCode: '',
    upgradeCovid: false,
  };
  const apiBody = {
    origin: 1,
    modality: 1,
    destination: 3,
    departureDate,
    returnDate,
    passangerTypes: [{ passengerTypeId: PassengerType.upTo74, quantity: 2 }],
    discountCode: null,
    upgradeCovid: false,
  };
  const singleTrip = {
    id: 1,
    label: 'Viaje único',
    returnDateConfiguration: { enabled: true, addDays: 7 },
    minDays: 1,
    maxDays: 180,
  } as Parameters<typeof quoterSchema>[0][number];
  const selectCase = (field: 'origin' | 'modality' | 'destination', message: string): Case => ({
    rule: `${field} chosen`,
    field,
    value: '',
    apiValue: absent,
    code: 'required',
    message,
  });
  const passengersCase = (rule: string, quantity: number, code: FieldError['code'], message: string): Case => ({
    rule,
    field: 'passengers',
    apiField: 'passangerTypes',
    value: { [PassengerType.upTo74]: quantity },
    apiValue: [{ passengerTypeId: PassengerType.upTo74, quantity }],
    code,
    message,
  });

  const cases: Case[] = [
    selectCase('origin', r.origin),
    selectCase('modality', r.modality),
    selectCase('destination', r.destination),
    passengersCase('at least one passenger', 0, 'required', r.noPassengers),
    passengersCase('at most 9 passengers', 10, 'too_many', r.tooManyPassengers),
    {
      rule: 'discount code at most 30',
      field: 'discountCode',
      value: 'x'.repeat(discountCodeMaxLength + 1),
      code: 'too_long',
      message: r.discountCodeTooLong,
    },
    {
      rule: 'departure date required',
      field: 'departureDate',
      value: '',
      code: 'required',
      message: 'Ingresa la fecha de salida',
    },
    {
      rule: 'return date a calendar day',
      field: 'returnDate',
      value: '2027-02-30',
      code: 'invalid_date',
      message: r.invalidDate,
    },
  ];

  proveBothSides(
    {
      web: (values) => quoterSchema([singleTrip], today).safeParse(values),
      webValues,
      api: (body) => quotationInputSchema.safeParse(body),
      apiBody,
    },
    cases,
  );
});

describe('contact form (spec §5), ready for the Contactanos screen', () => {
  const valid = {
    fullName: 'Camila Rojas',
    email: 'camila@example.cl',
    phone: '+56 9 1234 5678',
    idSubject: 1,
    detail: 'Quisiera saber si el plan cubre deportes de invierno.',
  };
  it.each([
    ['fullName', '', 'required', 'Debe ingresar su Nombre y Apellido'],
    ['fullName', 'n'.repeat(101), 'too_long', r.tooLong(100)],
    ['email', '', 'required', 'Debe ingresar un email'],
    ['email', 'camila@', 'invalid_email', 'Email inválido'],
    ['email', `${'a'.repeat(40)}@example.cl`, 'too_long', r.emailTooLong],
    ['phone', '  ', 'required', 'Debe ingresar un teléfono'],
    ['phone', '1'.repeat(21), 'too_long', r.tooLong(20)],
    ['idSubject', undefined, 'required', 'Seleccione un asunto'],
    ['detail', '', 'required', 'Debe ingresar una descripción'],
    ['detail', 'd'.repeat(1001), 'too_long', r.tooLong(1000)],
  ])('%s = %j → %s «%s»', (field, value, code, message) => {
    const input = withValue(valid, field, value === undefined ? absent : value);
    expect(errorsOf((values) => contactFormSchema.safeParse(values), input)).toStrictEqual([{ field, code, message }]);
  });

  it('accepts the limits: 100, 50, 20 and 1000 characters', () => {
    const atLimits = {
      ...valid,
      fullName: 'n'.repeat(100),
      email: `${'a'.repeat(39)}@example.cl`,
      phone: '1'.repeat(20),
      detail: 'd'.repeat(1000),
    };
    expect(contactFormSchema.safeParse(atLimits).success).toBe(true);
  });
});

describe('certificate search keyword (spec §5), ready for the Certificados screen', () => {
  const check = (type: CertificateSearchType, keyword: string) =>
    errorsOf((value) => certificateKeyword(type).safeParse(value), keyword).map(({ code, message }) => ({
      code,
      message,
    }));

  it.each([
    ['rut', '12.345.678-5'],
    ['rut', '12345678-5'],
    ['dni', 'AB123'],
    ['passport', 'P1234567'],
    ['email', 'camila@example.cl'],
  ] as const)('accepts a %s %s', (type, keyword) => {
    expect(check(type, keyword)).toStrictEqual([]);
  });

  it.each(['rut', 'dni', 'passport', 'email'] as const)(
    'an empty %s keyword → required «Campo Obligatorio»',
    (type) => {
      expect(check(type, '  ')).toStrictEqual([{ code: 'required', message: 'Campo Obligatorio' }]);
    },
  );

  it.each([
    ['rut', '123456785', 'invalid_rut', 'Ingrese un RUT valido'],
    ['rut', '12.345.678-4', 'invalid_rut', 'Ingrese un RUT valido'],
    ['dni', 'AB12', 'invalid_document', 'Ingrese un DNI/CE valido'],
    ['passport', 'P 12345', 'invalid_document', 'Ingrese un Pasaporte valido'],
    ['email', 'camila@', 'invalid_email', 'Ingrese un Email valido'],
  ] as const)('a %s keyword %j → %s «%s»', (type, keyword, code, message) => {
    expect(check(type, keyword)).toStrictEqual([{ code, message }]);
  });
});
