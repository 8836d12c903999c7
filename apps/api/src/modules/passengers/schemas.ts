import {
  birthDate,
  booleanField,
  countryDestination,
  documentNumber,
  documentProblem,
  documentType,
  email,
  emergencyContact,
  emergencyContactMissing,
  gender,
  maxPassengers,
  nationality,
  personName,
  phone,
  positiveId,
  reportRule,
  ruleMessages,
  travellerDocument,
  typeError,
} from '@travesia/domain/rules';
import { z } from 'zod';

/**
 * The Spanish messages of the rules only the API applies (they need the quotation, or the legacy row shape); the
 * rules the storefront applies too are in packages/domain/src/rules.ts.
 */
/** More than any store offers; bounds the work a forged body can ask for. */
export const maxAddOnsPerTraveller = 10;

export const passengerMessages = {
  list: 'Ingresa al menos un pasajero',
  tooMany: `No puede haber más de ${maxPassengers} pasajeros`,
  addOn: 'Elige un adicional de la lista',
  tooManyAddOns: `No puedes elegir más de ${maxAddOnsPerTraveller} adicionales por pasajero`,
  countryOutsideRegion: 'El país de destino no pertenece a la región cotizada',
  passengerTypeMismatch: 'El tipo de pasajero no corresponde a la edad en la fecha de salida',
  passengerCount: (expected: number) =>
    `La cantidad de pasajeros no corresponde a la cotización (${expected} ${expected === 1 ? 'pasajero' : 'pasajeros'})`,
  planMismatch: 'El plan no corresponde al de la cotización',
  sameCountry: 'Todos los pasajeros deben tener el mismo país de destino',
  seq: (count: number) => `La secuencia debe ir de 1 a ${count} sin repetirse`,
} as const;

const m = passengerMessages;

/** The travellers' list: 1 to {@link maxPassengers}, as many as the quotation's passengers (checked with it). */
const travellerList = <T extends z.ZodType>(item: T) =>
  z
    .array(item, typeError(m.list))
    .min(1, m.list)
    .max(maxPassengers, m.tooMany)
    .describe("As many as the quotation's passengers, whose ages on the departure date fit its passenger types");

export type EmergencyContact = z.output<typeof emergencyContact>;

/** The add-ons chosen for one traveller (issue 27 §1): ids of the company's add-ons, checked against the quotation. */
const chosenAddOns = z
  .array(z.number(typeError(m.addOn)).int(m.addOn).positive(m.addOn).max(2_147_483_647, m.addOn), typeError(m.addOn))
  .max(maxAddOnsPerTraveller, m.tooManyAddOns)
  .describe(
    "Not in spec §7 (issue 27 §1): the add-ons chosen for this traveller, ids from GET …/quotations/{quotationId}/add-ons; each must be sold to the traveller's age band with the quotation's plan, modality and region. Absent: none",
  );

const passengerInputSchema = z.object(
  {
    firstName: personName,
    lastName: personName,
    gender,
    birthDate,
    nationality,
    document: travellerDocument,
    email: email(),
    phone,
    emergencyContact: emergencyContact
      .nullish()
      .describe('Required when shareEmergencyContact is false; ignored (the shared one applies) when it is true'),
    adicionales: chosenAddOns.optional(),
  },
  typeError(ruleMessages.required),
);

/** PUT /quotations/{quotationId}/passangers (spec §3 Passengers; the field names are the contract's, typos included). */
export const passengersBodySchema = z
  .object({
    shareEmergencyContact: booleanField,
    emergencyContact: emergencyContact
      .nullish()
      .describe('Required when shareEmergencyContact is true: then it is every traveller’s contact'),
    countryDestination: countryDestination.describe("A country of the quotation's destination region"),
    passangers: travellerList(passengerInputSchema),
  })
  .superRefine((body, ctx) => {
    if (body.shareEmergencyContact) {
      if (!body.emergencyContact) reportRule(ctx, ['emergencyContact'], emergencyContactMissing);
      return;
    }
    body.passangers.forEach((passenger, index) => {
      if (!passenger.emergencyContact)
        reportRule(ctx, ['passangers', index, 'emergencyContact'], emergencyContactMissing);
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
        adicionales: z.array(z.number().int()).describe('The add-ons chosen for this traveller (ids)'),
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
      gender,
      idNacionality: nationality,
      idIdentification: documentType,
      identification: documentNumber,
      dob: birthDate,
      email: email(),
      phone,
      idCountry: positiveId().describe("The destination country, the same on every row, of the quotation's region"),
      nameContact: personName,
      lastNameContact: personName,
      phoneContact: phone,
      seq: positiveId().describe('1…n without repeats'),
      status: z.string().nullish().describe('Ignored'),
    },
    typeError(ruleMessages.required),
  )
  .superRefine((row, ctx) =>
    reportRule(ctx, ['identification'], documentProblem(row.idIdentification, row.identification)),
  );

export const passengerDetailBodySchema = travellerList(passengerDetailRowInputSchema)
  .superRefine((rows, ctx) => {
    const seqs = rows.map((row) => row.seq);
    rows.forEach((row, index) => {
      if (row.seq > rows.length || seqs.indexOf(row.seq) !== index) {
        reportRule(ctx, [index, 'seq'], { code: 'invalid_sequence', message: m.seq(rows.length) });
      }
      if (row.idCountry !== rows[0]?.idCountry) {
        reportRule(ctx, [index, 'idCountry'], { code: 'country_mismatch', message: m.sameCountry });
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
