import { validateTripDates } from '@travesia/domain/dates';
import { z } from 'zod';
import type { components } from '#app/lib/api-schema.d.ts';

type Modality = components['schemas']['Modality'];

export const maxPassengers = 9;

export const quoterMessages = {
  origin: 'Selecciona el origen',
  modality: 'Selecciona la modalidad',
  destination: 'Selecciona el destino',
  noPassengers: 'Agrega al menos un pasajero',
  tooManyPassengers: `Puedes cotizar hasta ${maxPassengers} pasajeros`,
  discountCode: 'El código puede tener hasta 30 caracteres',
} as const;

export type QuoterValues = {
  origin: string;
  modality: string;
  destination: string;
  departureDate: string;
  returnDate: string;
  /** Count per passenger type id. */
  passengers: Record<string, number>;
  discountCode: string;
  upgradeCovid: boolean;
};

/** The modality's date rules in the domain's terms. */
export function modalityRules(modality: Modality) {
  return {
    returnDateEnabled: modality.returnDateConfiguration.enabled,
    returnAddDays: modality.returnDateConfiguration.addDays,
    minDays: modality.minDays,
    maxDays: modality.maxDays,
  };
}

/**
 * The quoter's rules, checked in the browser before any call (the API checks them again): every field in
 * Spanish, dates per the chosen modality (packages/domain/src/dates.ts).
 */
export function quoterSchema(modalities: Modality[], today: string) {
  return z
    .object({
      origin: z.string().min(1, quoterMessages.origin),
      modality: z.string().min(1, quoterMessages.modality),
      destination: z.string().min(1, quoterMessages.destination),
      departureDate: z.string(),
      returnDate: z.string(),
      passengers: z.record(z.string(), z.number().int().min(0)),
      discountCode: z.string().trim().max(30, quoterMessages.discountCode),
      upgradeCovid: z.boolean(),
    })
    .superRefine((values, context) => {
      const total = Object.values(values.passengers).reduce((sum, count) => sum + count, 0);
      if (total < 1) context.addIssue({ code: 'custom', path: ['passengers'], message: quoterMessages.noPassengers });
      if (total > maxPassengers) {
        context.addIssue({ code: 'custom', path: ['passengers'], message: quoterMessages.tooManyPassengers });
      }
      const modality = modalities.find((m) => String(m.id) === values.modality);
      if (!modality) return;
      const errors = validateTripDates(
        { departureDate: values.departureDate, returnDate: values.returnDate, today },
        modalityRules(modality),
      );
      for (const error of errors) context.addIssue({ code: 'custom', path: [error.field], message: error.message });
    });
}

/** What the quoter posts to its route action; the action turns it into the API's quotation body. */
export type QuoterSubmission = {
  quotationId: string | null;
  origin: number;
  modality: number;
  destination: number;
  departureDate: string;
  returnDate: string;
  passangerTypes: { passengerTypeId: number; quantity: number }[];
  discountCode: string | null;
  upgradeCovid: boolean;
  referralCode: string | null;
  pantalla: string;
};
