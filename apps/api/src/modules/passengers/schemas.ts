import { parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { DocumentType, type DocumentTypeId, documentTypeIds, nationalityIds } from '@travesia/domain/ids';
import { uiMessages } from '@travesia/domain/messages';
import { isValidRut } from '@travesia/domain/rut';
import { z } from 'zod';

/** The Spanish messages of the purchase step (spec §5/§9), one per rule, as the storefront shows them. */
export const passengerMessages = {
  required: uiMessages.required,
  nameLength: 'Debe tener entre 1 y 60 caracteres',
  gender: 'Seleccione F, M o X',
  dateFormat: 'Use el formato AAAA-MM-DD',
  invalidDate: 'Fecha inválida',
  futureBirthDate: 'La fecha de nacimiento no puede ser posterior a hoy',
  nationality: 'Nacionalidad inválida (Chile u Otro)',
  documentType: 'Tipo de documento inválido (RUT o DNI)',
  documentLength: 'El documento debe tener entre 1 y 20 caracteres',
  invalidRut: 'RUT inválido',
  invalidDni: 'DNI inválido',
  emailFormat: uiMessages.emailFormat,
  emailLength: 'El email no puede tener más de 50 caracteres',
  phone: 'Teléfono inválido: de 8 a 20 caracteres entre dígitos, espacios, +, ( ) y -',
  number: 'Debe ser un número entero positivo',
  boolean: 'Debe ser verdadero o falso',
  list: 'Ingrese al menos un pasajero',
  tooMany: 'No puede haber más de 100 pasajeros',
  emergencyContactRequired: 'Ingrese el contacto de emergencia',
  countryOutsideRegion: 'El país de destino no pertenece a la región cotizada',
  ageMismatch: 'La edad no corresponde a los pasajeros cotizados',
  passengerTypeMismatch: 'El tipo de pasajero no corresponde a la edad en la fecha de salida',
  passengerCount: (expected: number) =>
    `La cantidad de pasajeros no corresponde a la cotización (${expected} ${expected === 1 ? 'pasajero' : 'pasajeros'})`,
  planMismatch: 'El plan no corresponde al de la cotización',
  sameCountry: 'Todos los pasajeros deben tener el mismo país de destino',
  seq: (count: number) => `La secuencia debe ir de 1 a ${count} sin repetirse`,
  alreadyPaid: 'La compra ya fue pagada; los datos no se pueden modificar',
  quotationId: 'Identificador de cotización inválido',
} as const;

const m = passengerMessages;

/** A type error reads «Campo Obligatorio» when the value is missing, `message` when it is something else. */
const typeError = (message: string) => ({
  error: (issue: { input?: unknown }) => (issue.input == null ? m.required : message),
});

const maxId = 2_147_483_647;
const positiveId = (message: string = m.number) =>
  z.number(typeError(message)).int(message).positive(message).max(maxId, message);

export const personName = z.string(typeError(m.nameLength)).trim().min(1, m.nameLength).max(60, m.nameLength);

export const genderSchema = z.enum(['F', 'M', 'X'], typeError(m.gender));

/** A real calendar day, not after today in Chile. */
export const birthDateSchema = z
  .string(typeError(m.dateFormat))
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: m.dateFormat, abort: true })
  .refine((value) => parseIsoDate(value) !== null, { error: m.invalidDate, abort: true })
  .refine((value) => value <= todayInChile(), { error: m.futureBirthDate });

export const nationalitySchema = z.literal(nationalityIds, typeError(m.nationality));
export const documentTypeSchema = z.literal(documentTypeIds, typeError(m.documentType));
export const documentIdSchema = z
  .string(typeError(m.documentLength))
  .trim()
  .min(1, m.documentLength)
  .max(20, m.documentLength);

export const emailSchema = z
  .string(typeError(m.emailFormat))
  .trim()
  .min(1, { error: m.required, abort: true })
  .max(50, { error: m.emailLength, abort: true })
  .pipe(z.email({ error: m.emailFormat }));

export const phoneSchema = z
  .string(typeError(m.phone))
  .trim()
  .regex(/^[0-9 +()-]{8,20}$/, m.phone);

/** The message a document number fails with for its type, or null when it is valid (RUT check digit; DNI form). */
export function documentProblem(type: DocumentTypeId, id: string): string | null {
  if (id.length === 0 || id.length > 20) return null; // already reported by the length rule
  if (type === DocumentType.rut) return isValidRut(id) ? null : m.invalidRut;
  return id.length >= 5 && !/\s/.test(id) ? null : m.invalidDni;
}

export const emergencyContactSchema = z.object(
  { firstName: personName, lastName: personName, phone: phoneSchema },
  typeError(m.emergencyContactRequired),
);

export type EmergencyContact = z.output<typeof emergencyContactSchema>;

const documentSchema = z
  .object({ type: documentTypeSchema, id: documentIdSchema }, typeError(m.documentType))
  .superRefine((document, ctx) => {
    const problem = documentProblem(document.type, document.id);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['id'] });
  });

const passengerInputSchema = z.object(
  {
    firstName: personName,
    lastName: personName,
    gender: genderSchema,
    birthDate: birthDateSchema,
    nationality: nationalitySchema,
    document: documentSchema,
    email: emailSchema,
    phone: phoneSchema,
    emergencyContact: emergencyContactSchema
      .nullish()
      .describe('Required when shareEmergencyContact is false; ignored (the shared one applies) when it is true'),
  },
  typeError(m.required),
);

/** PUT /quotations/{quotationId}/passangers (spec §3 Passengers; the field names are the contract's, typos included). */
export const passengersBodySchema = z
  .object({
    shareEmergencyContact: z.boolean(typeError(m.boolean)),
    emergencyContact: emergencyContactSchema
      .nullish()
      .describe('Required when shareEmergencyContact is true: then it is every traveller’s contact'),
    countryDestination: positiveId().describe("A country of the quotation's destination region"),
    passangers: z
      .array(passengerInputSchema, typeError(m.list))
      .min(1, m.list)
      .max(100, m.tooMany)
      .describe("As many as the quotation's passengers, whose ages on the departure date fit its passenger types"),
  })
  .superRefine((body, ctx) => {
    if (body.shareEmergencyContact) {
      if (!body.emergencyContact) {
        ctx.addIssue({ code: 'custom', message: m.emergencyContactRequired, path: ['emergencyContact'] });
      }
      return;
    }
    body.passangers.forEach((passenger, index) => {
      if (!passenger.emergencyContact) {
        ctx.addIssue({
          code: 'custom',
          message: m.emergencyContactRequired,
          path: ['passangers', index, 'emergencyContact'],
        });
      }
    });
  })
  .meta({ id: 'PassengersBody' });

export type PassengersBody = z.output<typeof passengersBodySchema>;

const contactOut = z.object({ firstName: z.string(), lastName: z.string(), phone: z.string() });

/** GET /quotations/{quotationId}/passangers: what was saved, each traveller with its passenger type and order. */
export const passengersSchema = z
  .object({
    shareEmergencyContact: z.boolean(),
    emergencyContact: contactOut.nullable(),
    countryDestination: z.number().int(),
    passangers: z.array(
      z.object({
        seq: z.number().int().describe('1…n, the order of the travellers'),
        passengerTypeId: z.number().int().describe('The passenger type (age band) of the traveller at departure'),
        firstName: z.string(),
        lastName: z.string(),
        gender: z.enum(['F', 'M', 'X']),
        birthDate: z.string(),
        nationality: z.number().int(),
        document: z.object({ type: z.number().int(), id: z.string() }),
        email: z.string(),
        phone: z.string(),
        emergencyContact: contactOut.nullable().describe('null when the contact is shared'),
      }),
    ),
  })
  .meta({ id: 'Passengers' });

export type Passengers = z.infer<typeof passengersSchema>;

/** One row of the legacy shape (PUT /quotations/{quotationId}/passangers-detail). */
const passengerDetailRowInputSchema = z
  .object(
    {
      idPassengerDetail: positiveId().nullish().describe('Ignored: the rows are replaced'),
      idVenta: positiveId().nullish().describe('Ignored: the sale is the server’s'),
      idProducto: positiveId().nullable().describe("The quotation's plan (null when none is chosen)"),
      idPassangerType: positiveId().describe('Must be the passenger type of the age on the departure date'),
      name: personName,
      lastName: personName,
      gender: genderSchema,
      idNacionality: nationalitySchema,
      idIdentification: documentTypeSchema,
      identification: documentIdSchema,
      dob: birthDateSchema,
      email: emailSchema,
      phone: phoneSchema,
      idCountry: positiveId().describe("The destination country, the same on every row, of the quotation's region"),
      nameContact: personName,
      lastNameContact: personName,
      phoneContact: phoneSchema,
      seq: positiveId().describe('1…n without repeats'),
      status: z.string().nullish().describe('Ignored'),
    },
    typeError(m.required),
  )
  .superRefine((row, ctx) => {
    const problem = documentProblem(row.idIdentification, row.identification);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['identification'] });
  });

export const passengerDetailBodySchema = z
  .array(passengerDetailRowInputSchema, typeError(m.list))
  .min(1, m.list)
  .max(100, m.tooMany)
  .superRefine((rows, ctx) => {
    const seqs = rows.map((row) => row.seq);
    rows.forEach((row, index) => {
      if (row.seq > rows.length || seqs.indexOf(row.seq) !== index) {
        ctx.addIssue({ code: 'custom', message: m.seq(rows.length), path: [index, 'seq'] });
      }
      if (row.idCountry !== rows[0]?.idCountry) {
        ctx.addIssue({ code: 'custom', message: m.sameCountry, path: [index, 'idCountry'] });
      }
    });
  })
  .meta({ id: 'PassengerDetailBody' });

export type PassengerDetailBody = z.output<typeof passengerDetailBodySchema>;

export const passengerDetailRowSchema = z
  .object({
    idPassengerDetail: z.number().int().describe('The traveller id'),
    idVenta: z.number().int().nullable().describe('The sale id, null before payment starts'),
    idProducto: z.number().int().nullable().describe("The quotation's plan"),
    idPassangerType: z.number().int(),
    name: z.string(),
    lastName: z.string(),
    gender: z.enum(['F', 'M', 'X']),
    idNacionality: z.number().int(),
    idIdentification: z.number().int(),
    identification: z.string(),
    dob: z.string(),
    email: z.string(),
    phone: z.string(),
    idCountry: z.number().int(),
    nameContact: z.string(),
    lastNameContact: z.string(),
    phoneContact: z.string(),
    seq: z.number().int(),
    status: z.string(),
  })
  .meta({ id: 'PassengerDetailRow' });

export type PassengerDetailRow = z.infer<typeof passengerDetailRowSchema>;

export const quotationIdParams = z.object({ quotationId: z.uuid({ error: m.quotationId }) });
