import type { components } from '#app/lib/api-schema.d.ts';
import { fromChileanDate } from '#app/lib/dates.ts';
import { passengerFieldPrefix } from './fields.ts';
import type { QuoterActionResult } from './quoter.server.ts';
import type { QuoterErrors, QuoterValues } from './schema.ts';

type Schemas = components['schemas'];

export type QuoterData = {
  origins: Schemas['Origin'][];
  modalities: Schemas['Modality'][];
  destinationsByModality: Record<string, Schemas['Destination'][]>;
  quotation: Schemas['Quotation'] | null;
};

export type PassengerTypes = Schemas['PassengerType'][];

/** The fields in the order they appear, so the first one with a problem takes the focus. */
export const fieldOrder: (keyof QuoterValues)[] = [
  'origin',
  'modality',
  'destination',
  'departureDate',
  'returnDate',
  'passengers',
  'discountCode',
  'upgradeCovid',
];

export function initialValues(
  { origins, modalities, destinationsByModality, quotation }: QuoterData,
  actionResult: QuoterActionResult | undefined,
): QuoterValues {
  // Refused by the action: the values as entered (a post without JavaScript renders them again on the server).
  if (actionResult?.values) return actionResult.values;
  if (quotation) {
    return {
      origin: String(quotation.origin),
      modality: String(quotation.modality),
      destination: String(quotation.destination),
      departureDate: quotation.departureDate,
      returnDate: quotation.returnDate,
      passengers: Object.fromEntries(quotation.passangerTypes.map((p) => [String(p.passengerTypeId), p.quantity])),
      discountCode: quotation.discountCode ?? '',
      upgradeCovid: quotation.upgradeCovid,
    };
  }
  const modality = String(modalities[0]?.id ?? '');
  return {
    origin: String(origins[0]?.id ?? ''),
    modality,
    destination: String(destinationsByModality[modality]?.[0]?.id ?? ''),
    departureDate: '',
    returnDate: '',
    passengers: { '1': 1 },
    discountCode: '',
    upgradeCovid: false,
  };
}

/** The action's errors by field (the action names the quoter's fields). */
export const errorsOfAction = (actionResult: QuoterActionResult | undefined): QuoterErrors =>
  Object.fromEntries((actionResult?.errors ?? []).map((e) => [e.field, e.message]));

/** The form's values with what its controls hold (typed before hydration), where they hold something. */
export function valuesTypedBeforeHydration(
  current: QuoterValues,
  typed: FormData,
  passengerTypes: PassengerTypes,
): QuoterValues {
  const next = { ...current, passengers: { ...current.passengers } };
  const read = (name: string) => {
    const value = typed.get(name);
    return typeof value === 'string' ? value : null;
  };
  for (const field of ['origin', 'modality', 'destination', 'discountCode'] as const) {
    next[field] = read(field) ?? next[field];
  }
  for (const field of ['departureDate', 'returnDate'] as const) {
    const text = read(field)?.trim();
    if (text) next[field] = fromChileanDate(text) ?? text;
  }
  next.upgradeCovid = read('upgradeCovid') !== null;
  for (const type of passengerTypes) {
    const count = Number(read(`${passengerFieldPrefix}${type.id}`) ?? Number.NaN);
    if (Number.isInteger(count) && count >= 0) next.passengers[String(type.id)] = count;
  }
  const same = (Object.keys(next) as (keyof QuoterValues)[]).every(
    (field) => JSON.stringify(next[field]) === JSON.stringify(current[field]),
  );
  return same ? current : next;
}

/** The values as the form posts them: the names a native post (without JavaScript) sends too. */
export function postedEntries(values: QuoterValues, quotationId: string | null): Record<string, string> {
  const entries: Record<string, string> = {
    origin: values.origin,
    modality: values.modality,
    destination: values.destination,
    departureDate: values.departureDate,
    returnDate: values.returnDate,
    discountCode: values.discountCode.trim(),
  };
  for (const [typeId, count] of Object.entries(values.passengers))
    entries[`${passengerFieldPrefix}${typeId}`] = String(count);
  if (values.upgradeCovid) entries.upgradeCovid = 'true';
  if (quotationId) entries.quotationId = quotationId;
  return entries;
}

/** What each part of the quoter's form receives (PlaceFields, TravelDates, ExtrasFields): the values, their errors,
 * and the change of one field (useQuoter's `change`). */
export type QuoterFieldsProps = {
  values: QuoterValues;
  errors: QuoterErrors;
  change: <K extends keyof QuoterValues>(field: K, value: QuoterValues[K]) => void;
};
