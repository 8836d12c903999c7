import { z } from 'zod';

const money = z.number().describe('USD');

export const discountCodeOutcomeSchema = z
  .object({
    code: z.string().nullable(),
    status: z
      .enum(['none', 'applied', 'unknown', 'refused'])
      .describe(
        'For this plan. none: no code typed; applied; unknown: no such code, or not valid yet (nothing says it exists); refused: a code that exists but does not apply here, the message says why (expired, deactivated, use limit reached, per-buyer limit reached, not for this plan)',
      ),
    message: z.string().nullable().describe('Whether a typed code was applied to this plan, or why not, in Spanish'),
  })
  .meta({ id: 'DiscountCodeOutcome' });

export const benefitSchema = z.object({
  id: z.number().int(),
  label: z.string(),
  value: z.string(),
  isPriority: z.boolean(),
});

/** Extra fields (issue #13): what the buyer pays, by instalment and by traveller, computed here and only shown. */
export const instalmentsSchema = z
  .object({
    count: z.number().int().describe('Interest-free instalments advertised (spec §9: 6)'),
    amountClp: z
      .number()
      .int()
      .describe('One instalment of montoConversion in whole pesos, rounded up: count × amountClp ≥ montoConversion'),
    formatted: z.string().describe('amountClp es-CL style, e.g. $13.438'),
  })
  .meta({ id: 'Instalments' });

export const perPassengerPerDaySchema = z
  .object({
    amountUsd: money.describe('totalAmount ÷ (days × passengers), half up'),
    formatted: z.string(),
    averaged: z.boolean().describe('true when the travellers are of more than one age band: it is their average'),
  })
  .meta({ id: 'PerPassengerPerDay' });

export const perPassengerSchema = z
  .object({
    passengerTypeId: z.number().int(),
    quantity: z.number().int().describe('Travellers of this type'),
    amountClp: z.number().int().describe('One traveller of this type priced alone, in whole pesos'),
    formatted: z.string(),
    amountUsd: money,
    formattedUsd: z.string(),
  })
  .meta({ id: 'PerPassengerPrice' });

/**
 * Not in spec §3 (issue 27 §1): an add-on («adicional») a traveller may buy with this plan on this trip, priced for one
 * traveller of each travelling age band that may buy it, so the listing and the comparator can offer it where it
 * changes the choice (a plan that cannot take one another plan takes simply lacks it). The purchase step chooses.
 */
export const planAddOnSchema = z
  .object({
    id: z.number().int(),
    code: z.string(),
    name: z.string(),
    description: z.string().describe('One line, plain text'),
    perPassenger: z
      .array(perPassengerSchema)
      .min(1)
      .describe(
        "One traveller of each travelling type that may buy it, priced alone: USD per day × the trip's days, or a percent of what the plan costs that traveller after discounts; plus the plan's tax when it has IVA",
      ),
    from: z
      .object({ amountClp: z.number().int(), formatted: z.string(), amountUsd: money, formattedUsd: z.string() })
      .describe('The lowest of perPassenger (for «desde $X por viajero»)'),
    unavailableFor: z
      .array(z.number().int())
      .describe('The travelling passenger types (age bands) that may not buy it; empty when every traveller may'),
  })
  .meta({ id: 'PlanAddOn' });

const pricedExtras = {
  passengerCount: z.number().int(),
  instalments: instalmentsSchema,
  perPassengerPerDay: perPassengerPerDaySchema,
};

/** The listing's and the comparator's add-ons (issue 27 §1). */
const offeredAddOns = {
  adicionales: z
    .array(planAddOnSchema)
    .describe(
      'Not in spec §3 (issue 27 §1): the add-ons a travelling age band may buy with this plan for this trip, in display order; one missing here that another plan lists is not sold with this plan',
    ),
};

const formattedSchema = z.object({
  totalAmount: z.string(),
  before: z.string().describe('valorPlan before discounts'),
  perDay: z.string(),
  montoConversion: z.string(),
});

/** What issue 25 added to the listing and the comparator (spec §3's fields kept, these only added). */
const planTexts = {
  paraQuien: z
    .string()
    .describe('Not in spec §3 (issue 25): «para quién», the one line the comparator shows under the name; plain text'),
  porQueIva: z
    .string()
    .describe('Not in spec §3 (issue 27): why the plan carries IVA or not, in words; plain text, empty when not said'),
  condicionesGenerales: z
    .string()
    .nullable()
    .describe("Not in spec §3 (issue 25): where the plan's general conditions (PDF) are; null when none"),
};

/** Spec §3 Plan (listing). */
export const listingPlanSchema = z
  .object({
    id: z.number().int(),
    label: z.string(),
    bestOption: z.object({ label: z.string(), color: z.string(), arrowColor: z.string() }).nullable(),
    image: z.object({ original: z.string(), small: z.string() }),
    enableTax: z.boolean(),
    isCovidupgrade: z.boolean().describe('The covid upgrade is included in this price'),
    covidUpgradeAvailable: z.boolean(),
    valorPlan: money,
    valorTipoCambio: z.number().describe('CLP per USD'),
    montoConversion: z.number().int().describe('totalAmount in CLP'),
    discount: z.number().describe('Percent off valorPlan (promotion + discount code)'),
    montoDescuento: money,
    montoNeto: money,
    montoCovid: money,
    tax: z.number().describe('Tax multiplier, 1 when the plan charges none'),
    montoTax: money,
    totalAmount: money,
    valorDia: money,
    dias: z.number().int(),
    mejorPlan: z.boolean(),
    mejorCobertura: z.boolean(),
    coberturaMedica: z.number().int().describe('Medical limit in USD'),
    ...planTexts,
    benefits: z.array(benefitSchema),
    discountCode: discountCodeOutcomeSchema,
    formatted: formattedSchema,
    ...pricedExtras,
    ...offeredAddOns,
    perPassenger: z
      .array(perPassengerSchema)
      .describe('One traveller of each travelling type; each rounded alone, the total is totalAmount'),
  })
  .meta({ id: 'Plan' });

const currencyDescriptorSchema = z.object({
  code: z.string(),
  id: z.number().int(),
  decimals: z.number().int(),
  separator: z.number().int().describe('1: a dot is the thousands separator'),
  symbol: z.string(),
  culture: z.string(),
});

/** Spec §3 Comparator plan. */
export const comparatorPlanSchema = z
  .object({
    id: z.number().int(),
    label: z.string(),
    color: z.string(),
    arrowColor: z.string().nullable(),
    mejorPlan: z.boolean(),
    mejorCobertura: z.boolean(),
    original: z.string(),
    colorTitulo: z.string(),
    valorDia: money,
    tipoCambio: z.number(),
    amount: money,
    valorDCTO: money,
    valorCONDCTO: money,
    tax: z.number(),
    montoTAX: money,
    totalAmount: money,
    montoConversion: z.number().int(),
    montoTotalFormateado: z.string(),
    montoAntesFormateado: z.string(),
    valorDiaFormateado: z.string(),
    montoConversionFormateado: z.string(),
    existeDescuentoAplicado: z.boolean(),
    precioActualizado: z
      .boolean()
      .optional()
      .describe(
        "Not in spec §3 (issue 25): true when the plan's prices were published after the quotation was last saved, so the price shown is the new one",
      ),
    monedaConvertida: currencyDescriptorSchema,
    monedaOrigen: currencyDescriptorSchema,
    prestaciones: z.array(z.object({ idPlan: z.number().int(), detallePrestacion: z.string(), limite: z.string() })),
    benefits: z.array(benefitSchema),
    bestOptionLabel: z.string().nullable(),
    ...planTexts,
    dias: z.number().int(),
    discountCode: discountCodeOutcomeSchema,
    ...pricedExtras,
    ...offeredAddOns,
  })
  .meta({ id: 'ComparatorPlan' });

/** Spec §3 Plan (preview). */
export const previewPlanSchema = z
  .object({
    id: z.number().int(),
    label: z.string(),
    amount: money,
    totalAmount: money,
    tax: z.number(),
    valorDia: money,
    valorDCTO: money,
    valorCONDCTO: money,
    montoConversion: z.number().int(),
    mejorPlan: z.boolean(),
    mejorCobertura: z.boolean(),
    arrowColor: z.string().nullable().describe("'+' marks the over-75 badge"),
    original: z.string(),
    colorTitulo: z.string(),
    selected: z.boolean(),
    prestaciones: z.array(z.object({ detallePrestacion: z.string(), limite: z.string() })),
    tipoCambio: z.number(),
    siglaMonedaOrigen: z.string(),
    siglaMonedaConvertida: z.string(),
    simboloMonedaOrigen: z.string(),
    simboloMonedaConvertida: z.string(),
    cultureMonedaOrigen: z.string(),
    cultureMonedaConvertida: z.string(),
    puntoSeparadorMonedaOrigen: z.number().int(),
    puntoSeparadorMonedaConvertida: z.number().int(),
    nDecimalesMonedaOrigen: z.number().int(),
    nDecimalesMonedaConvertida: z.number().int(),
    ...pricedExtras,
  })
  .meta({ id: 'PreviewPlan' });

/** The plans a travelling age band rules out (extra call, issue #13): only bands that rule out at least one plan. */
export const unavailablePlansSchema = z
  .object({
    passengerTypes: z.array(
      z.object({
        passengerTypeId: z.number().int(),
        label: z.string(),
        ageFrom: z.number().int(),
        ageTo: z.number().int(),
        plans: z
          .number()
          .int()
          .describe('Plans sold for the modality and destination that do not take this passenger type'),
        planNames: z
          .array(z.string())
          .describe('Their names, in the order the comparator lists plans: the age band is outside what each covers'),
      }),
    ),
  })
  .meta({ id: 'UnavailablePlans' });

export type PlanAddOn = z.infer<typeof planAddOnSchema>;
export type ListingPlan = z.infer<typeof listingPlanSchema>;
export type ComparatorPlan = z.infer<typeof comparatorPlanSchema>;
export type PreviewPlan = z.infer<typeof previewPlanSchema>;

export const covidUpgradePriceSchema = z
  .object({
    offered: z.boolean(),
    perPassengerPerDay: z
      .object({
        fromUsd: z.string(),
        toUsd: z.string(),
        fromClp: z.number().int(),
        toClp: z.number().int(),
        formatted: z.object({ fromUsd: z.string(), toUsd: z.string(), fromClp: z.string(), toClp: z.string() }),
      })
      .nullable(),
  })
  .meta({ id: 'CovidUpgradePrice' });
