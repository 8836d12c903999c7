import { useShellModals } from '#app/components/shell-modals-context.ts';
import { useHydrated } from '#app/lib/hydrated.ts';
import { useWebsite } from '#app/lib/website.ts';

/**
 * The covid upgrade table of spec §2, in USD, written out (this table is on home's first load for the no-JavaScript
 * fallback: the money formatter would add a chunk to it for seven fixed figures).
 */
const upgradeRows: { benefit: string; limit: string }[] = [
  { benefit: 'Monto máximo global', limit: 'USD 3.000' },
  {
    benefit: 'Reembolso por interrupción de viaje debido a diagnóstico positivo de COVID-19',
    limit: 'Hasta USD 3.000',
  },
  { benefit: 'Gastos de hotel y alimentación por estadía prolongada', limit: 'USD 180 por día, hasta USD 3.000' },
  { benefit: 'Diferencia de tarifa o penalidad por regreso demorado', limit: 'USD 2.000' },
  { benefit: 'Traslado de un familiar (pasaje en clase económica)', limit: 'Hasta USD 1.500' },
  { benefit: 'Estadía de un familiar', limit: 'USD 180 por día, hasta USD 1.000' },
  { benefit: 'Cúmulo por evento múltiple', limit: 'USD 10.000' },
];

/**
 * What the upgrade costs: the API prices it per plan (a fee per passenger and per day, plans/service.ts) and states
 * the range of those fees before any trip is quoted (GET /companies/{id}/covid-upgrade, loaded with the shell).
 */
export function UpgradePrice() {
  const price = useWebsite().covidUpgrade?.perPassengerPerDay;
  return (
    <p className="mt-4 rounded-xl bg-brand-50 p-3 text-sm text-slate-700" data-testid="upgrade-price">
      <strong className="font-semibold text-slate-900">Precio:</strong>{' '}
      {price ? (
        <>
          desde {price.formatted.fromUsd} ({price.formatted.fromClp}) hasta {price.formatted.toUsd} (
          {price.formatted.toClp}) por pasajero y por día de viaje, según el plan (más IVA en los planes afectos).
        </>
      ) : (
        <>cada plan suma un monto por pasajero y por día de viaje.</>
      )}{' '}
      Marca «Agregar upgrade COVID-19» al cotizar y verás el precio de cada plan con el upgrade incluido.
    </p>
  );
}

/** Benefit and limit, wrapping on a 360 px phone (no column may push the table wider than its box). */
export function UpgradeTable() {
  return (
    <table className="w-full table-fixed text-left text-sm sm:text-base">
      <thead>
        <tr className="border-b border-slate-300">
          <th scope="col" className="w-3/5 py-2 pr-3 font-semibold">
            Beneficio
          </th>
          <th scope="col" className="py-2 font-semibold">
            Límite
          </th>
        </tr>
      </thead>
      <tbody>
        {upgradeRows.map((row) => (
          <tr key={row.benefit} className="border-b border-slate-100 align-top">
            <td className="py-2 pr-3 break-words">{row.benefit}</td>
            <td className="py-2 font-medium text-brand-700">{row.limit}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * «Conoce el upgrade COVID-19»: opens the upgrade modal; without JavaScript a <details> shows the same table in place.
 */
export function UpgradeTrigger({ className, panelClassName = '' }: { className: string; panelClassName?: string }) {
  const { openUpgrade } = useShellModals();
  const hydrated = useHydrated();
  const label = 'Conoce el upgrade COVID-19';
  if (hydrated) {
    return (
      <button type="button" onClick={openUpgrade} className={className}>
        {label}
      </button>
    );
  }
  return (
    <details>
      <summary className={`${className} inline-block cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
        {label}
      </summary>
      <div className={`surface-light mt-3 rounded-2xl bg-white p-4 text-slate-800 shadow-lg ${panelClassName}`}>
        <UpgradeTable />
        <UpgradePrice />
      </div>
    </details>
  );
}
