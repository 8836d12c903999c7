import {
  booleanField,
  email,
  optionalText,
  passengerTotalProblem,
  positiveId,
  reportRule,
  ruleMessages,
  tripFields,
  typeError,
} from '@travesia/domain/rules';
import { z } from 'zod';
import { quotationStatuses } from './status.ts';

const id = positiveId();
const optional = (max: number) => optionalText(max).nullish();

export const quotationPassengerInputSchema = z
  .object({
    passengerTypeId: id.optional(),
    /** Older clients send the passenger type as `id`. */
    id: id.optional(),
    quantity: z.number(typeError(ruleMessages.notNumber)).int(ruleMessages.notNumber).min(0, ruleMessages.notNumber),
  })
  .refine((value) => value.passengerTypeId !== undefined || value.id !== undefined, {
    error: ruleMessages.required,
    params: { code: 'required' },
    path: ['passengerTypeId'],
  });

/** What a client sends to create or update a quotation (spec §3 Quotation; status and company are the server's). */
export const quotationInputSchema = z
  .object({
    origin: tripFields.origin,
    destination: tripFields.destination,
    modality: tripFields.modality,
    departureDate: tripFields.departureDate,
    returnDate: tripFields.returnDate,
    passangerTypes: z
      .array(quotationPassengerInputSchema)
      .min(1, ruleMessages.noPassengers)
      .max(10, ruleMessages.tooManyPassengers)
      .describe('At most 9 passengers in all'),
    discountCode: tripFields.discountCode.nullish(),
    upgradeCovid: booleanField.default(false),
    planId: id.nullish(),
    referralCode: optional(60),
    pantalla: optional(60),
    name: optional(100),
    lastName: optional(100),
    phone: optional(20),
    email: email().nullish(),
    rut: optional(12),
    domicilio: optional(200),
  })
  .superRefine((quotation, ctx) => {
    const total = quotation.passangerTypes.reduce((sum, p) => sum + p.quantity, 0);
    reportRule(ctx, ['passangerTypes'], passengerTotalProblem(total));
  })
  .meta({ id: 'QuotationBody' });

export type QuotationInput = z.output<typeof quotationInputSchema>;

export const quotationSchema = z
  .object({
    id: z.uuid(),
    origin: id,
    destination: id,
    modality: id,
    departureDate: z.string(),
    returnDate: z.string(),
    passangerTypes: z.array(
      z.object({
        quantity: z.number().int(),
        id: id,
        passengerTypeId: id,
        ageFrom: z.number().int(),
        ageTo: z.number().int(),
      }),
    ),
    name: z.string().nullable(),
    lastName: z.string().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    rut: z.string().nullable(),
    domicilio: z.string().nullable(),
    discountCode: z.string().nullable(),
    upgradeCovid: z.boolean(),
    company: id,
    status: z.enum(quotationStatuses),
    planId: id.nullable(),
    referralCode: z.string().nullable(),
    pantalla: z.string().nullable(),
  })
  .meta({ id: 'Quotation' });

export type Quotation = z.infer<typeof quotationSchema>;
