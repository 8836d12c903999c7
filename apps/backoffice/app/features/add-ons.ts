import type { ObjectSpec } from '#app/features/structured-form.ts';
import type { Role } from '#app/lib/contract.ts';

/**
 * «Adicionales» (issue 27 §1): the shapes of GET /api/backoffice/add-ons and what the screen says of them. The price
 * travels as the text the operator typed («2,50», «12,5»); the API turns it into cents or basis points.
 */

export type AddOn = {
  id: number;
  code: string;
  name: string;
  description: string;
  benefits: { label: string; value: string }[];
  pricing: 'daily' | 'percent';
  priceUsdPerDay: string | null;
  planPercent: string | null;
  /** «USD 2,50 por viajero por día», «30 % del plan». */
  priceLabel: string;
  passengerTypeIds: number[];
  modalityIds: number[];
  destinationIds: number[];
  productIds: number[];
  buyableAfterPurchase: boolean;
  active: boolean;
  sortOrder: number;
  /** The covid upgrade: its code, price and who may buy it are edited per plan on «Precios», not here. */
  priceFixed: boolean;
  version: number;
  updatedAt: string;
};

type Option = { id: number; label: string };

export type AddOnOptions = {
  passengerTypes: (Option & { ageFrom: number; ageTo: number })[];
  modalities: Option[];
  regions: Option[];
  plans: Option[];
};

export type AddOnList = { options: AddOnOptions; addOns: AddOn[] };

/** Who sees the screen; who edits (finance and content read). */
export const addOnRoles: readonly Role[] = ['admin', 'pricing', 'finance', 'content'];
export const addOnEditors: readonly Role[] = ['admin', 'pricing'];

/** The eligibility lists: the API's field, the form's checkbox name, the catalogue list and its words. */
export const eligibilityGroups = [
  { field: 'passengerTypeIds', name: 'tramo', options: 'passengerTypes', legend: 'Tramos de edad', short: 'Edad' },
  { field: 'modalityIds', name: 'modalidad', options: 'modalities', legend: 'Modalidades', short: 'Modalidad' },
  { field: 'destinationIds', name: 'region', options: 'regions', legend: 'Regiones de destino', short: 'Destino' },
  { field: 'productIds', name: 'plan', options: 'plans', legend: 'Planes', short: 'Plan' },
] as const;

export type EligibilityField = (typeof eligibilityGroups)[number]['field'];

/** The form's fields, as the API names them (errors come back by these names; benefits by `benefits.N.label`). */
export const addOnFields = [
  'code',
  'name',
  'description',
  'benefits',
  'pricing',
  'priceUsdPerDay',
  'planPercent',
  'passengerTypeIds',
  'modalityIds',
  'destinationIds',
  'productIds',
  'buyableAfterPurchase',
  'sortOrder',
  'active',
] as const;
export type AddOnField = (typeof addOnFields)[number];

/** The benefits as a repeatable list (features/structured-form.ts): «Quitar», «Posición» and a blank one to add. */
export const benefitFields: ObjectSpec = {
  benefits: {
    type: 'list',
    item: 'Beneficio',
    max: 20,
    fields: {
      label: { type: 'text', label: 'Beneficio' },
      value: { type: 'text', label: 'Límite o monto', hint: 'por ejemplo USD 5.000' },
    },
    title: (item) => String(item.label ?? ''),
  },
};

/** «Todos» when the list is empty, else the names chosen, in the catalogue's order. */
export function chosenText(ids: readonly number[], options: readonly Option[]): string {
  if (ids.length === 0) return 'Todos';
  const names = options.filter((option) => ids.includes(option.id)).map((option) => option.label);
  return names.length > 0 ? names.join(', ') : 'Ninguno vigente';
}

/** One line per eligibility list that restricts («Edad: Pasajero de 0 a 74 años»); «Todos los viajeros» when none. */
export function eligibilityText(addOn: Pick<AddOn, EligibilityField>, options: AddOnOptions): string[] {
  const lines = eligibilityGroups
    .filter((group) => addOn[group.field].length > 0)
    .map((group) => `${group.short}: ${chosenText(addOn[group.field], options[group.options])}`);
  return lines.length > 0 ? lines : ['Todos los viajeros, planes y destinos'];
}

/** The text a decimal from the API shows in a form, as Chile writes it («2.50» → «2,50»). */
export const decimalShown = (value: string | null) => value?.replace('.', ',') ?? '';
