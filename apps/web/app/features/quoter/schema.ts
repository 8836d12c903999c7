import { validateTripDates } from '@travesia/domain/dates';
import { checkField, chosenNumber, passengerTotalProblem, reportRule, tripFields } from '@travesia/domain/rules';
import { z } from 'zod';
import type { components } from '#app/lib/api-schema.d.ts';

type Modality = components['schemas']['Modality'];

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
 * The quoter's rules, checked in the browser before any call: the API's (packages/domain/src/rules.ts) on the
 * form's values, and the dates per the chosen modality (packages/domain/src/dates.ts).
 */
export function quoterSchema(modalities: Modality[], today: string) {
  return z
    .object({
      origin: z.string(),
      modality: z.string(),
      destination: z.string(),
      departureDate: z.string(),
      returnDate: z.string(),
      passengers: z.record(z.string(), z.number().int().min(0)),
      discountCode: z.string(),
      upgradeCovid: z.boolean(),
    })
    .superRefine((values, ctx) => {
      checkField(ctx, ['origin'], tripFields.origin, chosenNumber(values.origin));
      checkField(ctx, ['modality'], tripFields.modality, chosenNumber(values.modality));
      checkField(ctx, ['destination'], tripFields.destination, chosenNumber(values.destination));
      checkField(ctx, ['discountCode'], tripFields.discountCode, values.discountCode);
      const total = Object.values(values.passengers).reduce((sum, count) => sum + count, 0);
      reportRule(ctx, ['passengers'], passengerTotalProblem(total));
      const modality = modalities.find((m) => String(m.id) === values.modality);
      if (!modality) return;
      const errors = validateTripDates(
        { departureDate: values.departureDate, returnDate: values.returnDate, today },
        modalityRules(modality),
      );
      for (const error of errors) reportRule(ctx, [error.field], error);
    });
}

/** The quoter's problems by field, the first one each (as the form shows them); empty when the values are valid. */
export type QuoterErrors = Partial<Record<keyof QuoterValues, string>>;

export function quoterErrors(values: QuoterValues, modalities: Modality[], today: string): QuoterErrors {
  const result = quoterSchema(modalities, today).safeParse(values);
  const errors: QuoterErrors = {};
  if (result.success) return errors;
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof QuoterValues | undefined;
    if (field !== undefined && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}
