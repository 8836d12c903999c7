import { covidAddOn } from '#app/modules/plans/covid-add-on.ts';
import type { CompanySeed } from './types.ts';

type Plan = CompanySeed['products'][number];

/** Price level of each destination region relative to Europe (id → factor). */
const regionFactors: Record<number, number> = { 1: 0.8, 2: 1.3, 3: 1, 4: 1.2, 5: 1.25, 6: 1.15, 7: 1.35 };
const allRegions = [1, 2, 3, 4, 5, 6, 7];

/** Daily (or flat) rates in cents: base × region factor × the band's factor (passenger type id → factor). */
function rates(base: number, bands: Record<number, number>, regions: number[] = allRegions): Plan['rates'] {
  return regions.flatMap((destinationId) =>
    Object.entries(bands).map(([passengerTypeId, bandFactor]) => ({
      destinationId,
      passengerTypeId: Number(passengerTypeId),
      rateCents: Math.round(base * (regionFactors[destinationId] ?? 1) * bandFactor),
    })),
  );
}

const usd = (amount: number) => `USD ${amount.toLocaleString('es-CL')}`;

/** The benefits every plan has, with limits scaled to its medical limit. */
function benefits(medical: number, extras: Plan['benefits'] = []): Plan['benefits'] {
  return [
    { label: 'Asistencia médica por accidente o enfermedad', value: usd(medical), isPriority: true },
    { label: 'Medicamentos ambulatorios', value: usd(Math.round(medical / 50)), isPriority: true },
    { label: 'Enfermedades preexistentes (urgencia)', value: usd(Math.round(medical / 60)), isPriority: true },
    { label: 'Odontología de urgencia', value: usd(Math.min(1000, Math.round(medical / 100))), isPriority: false },
    { label: 'Repatriación sanitaria', value: usd(Math.round(medical / 2)), isPriority: true },
    {
      label: 'Compensación por pérdida de equipaje',
      value: usd(Math.min(2500, Math.round(medical / 40))),
      isPriority: false,
    },
    {
      label: 'Cancelación e interrupción de viaje',
      value: usd(Math.min(5000, Math.round(medical / 25))),
      isPriority: false,
    },
    {
      label: 'Asistencia legal y adelanto de fianza',
      value: usd(Math.min(10000, Math.round(medical / 10))),
      isPriority: false,
    },
    ...extras,
  ];
}

const dailyBands = { 1: 1, 2: 2 };

/** Travesía's plans: four single-trip/long-stay tiers, a senior plan, an annual multi-trip plan. */
export const demoPlans: Plan[] = [
  {
    id: 410,
    code: 'travesia-esencial',
    label: 'Travesía Esencial',
    passengerTypeIds: [1, 2],
    modalityIds: [1, 3],
    rating: 'daily',
    image: '/img/plans/esencial.svg',
    imageSmall: '/img/plans/esencial.svg',
    titleColor: '#137888',
    color: '#137888',
    bestOptionLabel: null,
    bestOptionColor: null,
    arrowColor: null,
    isBestSeller: false,
    medicalLimitUsd: 30_000,
    promotionBp: 1500,
    enableTax: false,
    taxBp: 0,
    audience: 'Para viajes cortos con lo esencial: cobertura médica de USD 30.000.',
    taxReason:
      'Sin IVA: sus coberturas se prestan durante el viaje fuera de Chile, y ese servicio no está afecto a IVA.',
    rates: rates(250, dailyBands),
    benefits: benefits(30_000),
  },
  {
    id: 411,
    code: 'travesia-plus',
    label: 'Travesía Plus',
    passengerTypeIds: [1, 2],
    modalityIds: [1, 3],
    rating: 'daily',
    image: '/img/plans/plus.svg',
    imageSmall: '/img/plans/plus.svg',
    titleColor: '#0b5563',
    color: '#0b5563',
    bestOptionLabel: 'Más vendido',
    bestOptionColor: '#f26b4f',
    arrowColor: '#f26b4f',
    isBestSeller: true,
    medicalLimitUsd: 60_000,
    promotionBp: 1500,
    enableTax: false,
    taxBp: 0,
    audience: 'Para quien viaja por turismo o estudios y quiere más respaldo médico.',
    taxReason:
      'Sin IVA: sus coberturas se prestan durante el viaje fuera de Chile, y ese servicio no está afecto a IVA.',
    rates: rates(380, dailyBands),
    benefits: benefits(60_000, [{ label: 'Práctica recreativa de deportes', value: usd(5000), isPriority: false }]),
  },
  {
    id: 412,
    code: 'travesia-premium',
    label: 'Travesía Premium',
    passengerTypeIds: [1, 2],
    modalityIds: [1, 3],
    rating: 'daily',
    image: '/img/plans/premium.svg',
    imageSmall: '/img/plans/premium.svg',
    titleColor: '#06323a',
    color: '#06323a',
    bestOptionLabel: 'Mejor cobertura',
    bestOptionColor: '#06323a',
    arrowColor: '#06323a',
    isBestSeller: false,
    medicalLimitUsd: 250_000,
    promotionBp: 2000,
    enableTax: false,
    taxBp: 0,
    audience: 'Para viajes largos o lejanos, con deportes y cancelación por cualquier motivo.',
    taxReason:
      'Sin IVA: sus coberturas se prestan durante el viaje fuera de Chile, y ese servicio no está afecto a IVA.',
    rates: rates(620, dailyBands),
    benefits: benefits(250_000, [
      { label: 'Práctica recreativa de deportes', value: usd(15_000), isPriority: false },
      { label: 'Cancelación por cualquier motivo', value: '75 % del viaje', isPriority: false },
    ]),
  },
  {
    id: 413,
    code: 'travesia-senior',
    label: 'Travesía Senior',
    passengerTypeIds: [2, 3],
    modalityIds: [1],
    rating: 'daily',
    image: '/img/plans/senior.svg',
    imageSmall: '/img/plans/senior.svg',
    titleColor: '#7a3e9d',
    color: '#7a3e9d',
    bestOptionLabel: 'Mayores de 75',
    bestOptionColor: '#7a3e9d',
    arrowColor: '+',
    isBestSeller: false,
    medicalLimitUsd: 60_000,
    promotionBp: 1000,
    enableTax: false,
    taxBp: 0,
    audience: 'Para viajeros de 75 años o más, con la cobertura pensada para su edad.',
    taxReason:
      'Sin IVA: sus coberturas se prestan durante el viaje fuera de Chile, y ese servicio no está afecto a IVA.',
    rates: rates(900, { 2: 1, 3: 1.5 }),
    benefits: benefits(60_000),
  },
  {
    id: 414,
    code: 'travesia-anual',
    label: 'Travesía Anual',
    passengerTypeIds: [1],
    modalityIds: [2],
    rating: 'flat',
    image: '/img/plans/anual.svg',
    imageSmall: '/img/plans/anual.svg',
    titleColor: '#0b5563',
    color: '#0b5563',
    bestOptionLabel: 'Viajeros frecuentes',
    bestOptionColor: '#137888',
    arrowColor: '#137888',
    isBestSeller: false,
    medicalLimitUsd: 150_000,
    promotionBp: 1000,
    enableTax: false,
    taxBp: 0,
    audience: 'Para quien viaja varias veces al año: un plan que cubre todos tus viajes.',
    taxReason:
      'Sin IVA: sus coberturas se prestan durante el viaje fuera de Chile, y ese servicio no está afecto a IVA.',
    rates: rates(24_900, { 1: 1 }, [1, 7]),
    benefits: benefits(150_000, [{ label: 'Días por viaje', value: 'Hasta 60 días', isPriority: true }]),
  },
  {
    id: 418,
    code: 'travesia-proteccion-especial',
    label: 'Travesía Protección Especial',
    passengerTypeIds: [1, 2],
    modalityIds: [1],
    rating: 'daily',
    image: '/img/plans/proteccion-especial.svg',
    imageSmall: '/img/plans/proteccion-especial.svg',
    titleColor: '#b4432a',
    color: '#b4432a',
    bestOptionLabel: null,
    bestOptionColor: null,
    arrowColor: null,
    isBestSeller: false,
    medicalLimitUsd: 100_000,
    promotionBp: 0,
    enableTax: true,
    taxBp: 1900,
    audience: 'Para viajes con necesidades especiales, como el embarazo (hasta la semana 32).',
    taxReason:
      'Con IVA (19 %, ya incluido): además de la asistencia en el extranjero incluye servicios que se prestan en Chile, afectos a IVA.',
    rates: rates(480, dailyBands),
    benefits: benefits(100_000, [{ label: 'Embarazo (hasta la semana 32)', value: usd(10_000), isPriority: false }]),
  },
];

export const demoDiscountCodes: CompanySeed['discountCodes'] = [
  { code: 'BIENVENIDA10', percentBp: 1000, validFrom: '2026-01-01', validTo: '2027-12-31' },
  { code: 'VERANO15', percentBp: 1500, validFrom: '2026-12-01', validTo: '2027-03-31' },
  { code: 'INVIERNO2025', percentBp: 2000, validFrom: '2025-06-01', validTo: '2025-08-31' },
];

/**
 * The demo company's add-ons (issue 27 §1), at prices like the Chilean market's (Assist Card, Universal Assistance,
 * Assist 365 sell the same options): per traveller, USD per day of the trip or a percent of the traveller's plan.
 * Daily-priced ones are not sold with the annual plan (modality 2), whose «days» are the whole year.
 */
type AddOnSeed = CompanySeed['addOns'][number];
type Price = { perDayCents: number } | { planPercentBp: number };
type Who = Partial<Pick<AddOnSeed, 'passengerTypeIds' | 'modalityIds' | 'buyableAfterPurchase'>>;

function addOn(code: string, name: string, description: string, benefits: [string, string][], price: Price, who: Who) {
  const daily = 'perDayCents' in price;
  return {
    code,
    name,
    description,
    benefits: benefits.map(([label, value]) => ({ label, value })),
    pricing: daily ? 'daily' : 'percent',
    priceCentsPerDay: daily ? price.perDayCents : null,
    planPercentBp: daily ? null : price.planPercentBp,
    passengerTypeIds: who.passengerTypeIds ?? [],
    modalityIds: who.modalityIds ?? [],
    destinationIds: [],
    productIds: [],
    planPrices: {},
    buyableAfterPurchase: who.buyableAfterPurchase ?? false,
  } satisfies AddOnSeed;
}

/**
 * The covid upgrade's fee per traveller per day of each plan offering it (plan id → USD cents): the four single-trip
 * and long-stay tiers; the annual plan and Protección Especial do not offer it.
 */
const covidFees: Record<number, number> = { 410: 90, 411: 110, 412: 130, 413: 150 };

export const demoAddOns: CompanySeed['addOns'] = [
  addOn(
    'deportes-aventura',
    'Deportes y aventura',
    'Cubre accidentes al practicar deportes amateur: esquí, snowboard, trekking, buceo y más.',
    [
      ['Asistencia médica por accidente deportivo', 'USD 20.000'],
      ['Rescate en montaña o en el mar', 'USD 5.000'],
      ['Trekking y montañismo', 'hasta 4.500 m de altura'],
    ],
    { perDayCents: 250 },
    { passengerTypeIds: [1], modalityIds: [1, 3], buyableAfterPurchase: true },
  ),
  addOn(
    'preexistencias-plus',
    'Preexistencias ampliadas',
    'Atiende tus enfermedades preexistentes más allá de la urgencia: controles y tratamiento.',
    [
      ['Enfermedades preexistentes (atención completa)', 'USD 10.000'],
      ['Medicamentos para enfermedades preexistentes', 'USD 1.000'],
    ],
    { planPercentBp: 3000 },
    { passengerTypeIds: [1, 2] },
  ),
  addOn(
    'embarazo',
    'Embarazo hasta la semana 32',
    'Controles y urgencias del embarazo durante el viaje, hasta la semana 32 de gestación.',
    [
      ['Urgencias obstétricas y controles', 'USD 15.000'],
      ['Parto prematuro (hasta la semana 32)', 'USD 15.000'],
      ['Semana de gestación máxima', '32'],
    ],
    { perDayCents: 300 },
    { passengerTypeIds: [1], modalityIds: [1, 3] },
  ),
  addOn(
    'cancelacion-cualquier-motivo',
    'Cancelación por cualquier motivo',
    'Te devuelve el 75 % de lo no reembolsable si cancelas tu viaje, sin importar la razón.',
    [
      ['Reembolso de gastos no reembolsables', '75 %, hasta USD 3.000'],
      ['Aviso de cancelación', 'hasta 48 horas antes de la salida'],
    ],
    { planPercentBp: 4000 },
    { passengerTypeIds: [1, 2], modalityIds: [1] },
  ),
  addOn(
    'electronica-equipaje-plus',
    'Electrónica y equipaje plus',
    'Protege tu celular, notebook, tablet y cámara, y amplía la compensación por equipaje perdido.',
    [
      ['Robo o daño de equipos electrónicos (deducible USD 50)', 'USD 1.000'],
      ['Compensación adicional por pérdida de equipaje', 'USD 1.500'],
      ['Demora de equipaje, gastos de primera necesidad', 'USD 300'],
    ],
    { perDayCents: 150 },
    { modalityIds: [1, 3], buyableAfterPurchase: true },
  ),
  // Chosen for the whole trip by the search's «upgrade COVID-19» (upgradeCovid), priced per plan: docs/pricing.md.
  {
    ...covidAddOn,
    benefits: [...covidAddOn.benefits],
    passengerTypeIds: [],
    modalityIds: [],
    destinationIds: [],
    productIds: Object.keys(covidFees).map(Number),
    planPrices: { ...covidFees },
    buyableAfterPurchase: false,
  },
];
