import { z } from 'zod';
import { dbId } from '#app/http.ts';

const id = dbId;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use el formato AAAA-MM-DD');
const optionalText = (max: number) => z.string().trim().max(max).nullish();

export const quotationPassengerInputSchema = z
  .object({
    passengerTypeId: id.optional(),
    /** Older clients send the passenger type as `id`. */
    id: id.optional(),
    quantity: z.number().int().min(0).max(9),
  })
  .refine((value) => value.passengerTypeId !== undefined || value.id !== undefined, {
    message: 'passengerTypeId is required',
    path: ['passengerTypeId'],
  });

/** What a client sends to create or update a quotation (spec §3 Quotation; status and company are the server's). */
export const quotationInputSchema = z
  .object({
    origin: id,
    destination: id,
    modality: id,
    departureDate: isoDate,
    returnDate: isoDate,
    passangerTypes: z.array(quotationPassengerInputSchema).min(1).max(10),
    discountCode: optionalText(30),
    upgradeCovid: z.boolean().default(false),
    planId: id.nullish(),
    referralCode: optionalText(60),
    pantalla: optionalText(60),
    name: optionalText(100),
    lastName: optionalText(100),
    phone: optionalText(20),
    email: z.email().max(50).nullish(),
    rut: optionalText(12),
    domicilio: optionalText(200),
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
    status: z.string(),
    planId: id.nullable(),
    referralCode: z.string().nullable(),
    pantalla: z.string().nullable(),
  })
  .meta({ id: 'Quotation' });

export type Quotation = z.infer<typeof quotationSchema>;
