import { covidAddOnCode } from '@travesia/domain/add-ons';

/**
 * The covid upgrade as an add-on (issue 27 §1, docs/pricing.md «Add-ons»): every company has one, code `covid`,
 * priced per plan (`plan_prices`: the plan's fee per traveller per day, edited with the plan's prices in
 * plans/prices.ts) and chosen for the whole trip by `upgradeCovid`. Its benefits are the spec's upgrade modal table
 * (spec §3), as the storefront's modal words them (apps/web/app/components/UpgradeCovid.tsx). Migration
 * 0043_covid_add_on writes the same texts for the companies that existed before it.
 */
export const covidAddOn = {
  code: covidAddOnCode,
  name: 'Upgrade covid',
  description:
    'Amplía tu asistencia frente al COVID-19: interrupción del viaje, estadía prolongada y traslado de un familiar.',
  benefits: [
    { label: 'Monto máximo global', value: 'USD 3.000' },
    {
      label: 'Reembolso por interrupción de viaje debido a diagnóstico positivo de COVID-19',
      value: 'Hasta USD 3.000',
    },
    { label: 'Gastos de hotel y alimentación por estadía prolongada', value: 'USD 180 por día, hasta USD 3.000' },
    { label: 'Diferencia de tarifa o penalidad por regreso demorado', value: 'USD 2.000' },
    { label: 'Traslado de un familiar (pasaje en clase económica)', value: 'Hasta USD 1.500' },
    { label: 'Estadía de un familiar', value: 'USD 180 por día, hasta USD 1.000' },
    { label: 'Cúmulo por evento múltiple', value: 'USD 10.000' },
  ],
  pricing: 'daily',
  priceCentsPerDay: null,
  planPercentBp: null,
} as const;
