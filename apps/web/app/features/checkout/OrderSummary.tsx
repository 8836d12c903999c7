import { formatDay, plural } from '#app/lib/format.ts';
import type { CheckoutSummary } from './checkout.ts';
import { bandLabel } from './format.ts';

type Props = {
  summary: CheckoutSummary;
  /** The travellers' names once they are saved (payment step). */
  travellers?: { name: string; band: string }[];
};

/**
 * The purchase beside every step: plan, trip, passengers, the price per traveller and the total priced by the API
 * (CLP first, what is paid, then USD).
 */
export function OrderSummary({ summary, travellers }: Props) {
  const count = summary.passengerGroups.reduce((sum, group) => sum + group.quantity, 0);
  const bandOf = (passengerTypeId: number) =>
    summary.passengerGroups.find((g) => g.passengerTypeId === passengerTypeId);
  return (
    <section
      aria-labelledby="resumen-compra"
      className="overflow-hidden rounded-2xl bg-white shadow-lg ring-1 ring-slate-900/5"
    >
      <div className="flex items-center gap-3 bg-brand-700 px-5 py-4 text-white">
        {summary.planImage ? (
          <img
            src={summary.planImage}
            alt=""
            width={44}
            height={44}
            className="h-11 w-11 shrink-0 rounded-lg bg-white p-1"
          />
        ) : null}
        <div className="min-w-0">
          <h2 id="resumen-compra" className="text-xs font-semibold tracking-wide text-brand-100 uppercase">
            Resumen de tu compra
          </h2>
          <p className="truncate text-lg font-bold">{summary.planLabel}</p>
        </div>
      </div>
      <dl className="grid gap-3 px-5 py-4 text-sm">
        {summary.destination ? (
          <div className="flex justify-between gap-3">
            <dt className="text-slate-500">Destino</dt>
            <dd className="text-right font-semibold text-slate-900">{summary.destination}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Fechas</dt>
          <dd className="text-right font-semibold text-slate-900">
            {formatDay(summary.departureDate)} al {formatDay(summary.returnDate)}
            <span className="block font-normal text-slate-600">{plural(summary.days, 'día', 'días')}</span>
          </dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-500">Pasajeros</dt>
          <dd className="text-right font-semibold text-slate-900">
            {plural(count, 'pasajero', 'pasajeros')}
            {travellers ? null : (
              <span className="block font-normal text-slate-600">
                {summary.passengerGroups.map((g) => (
                  <span key={g.passengerTypeId} className="block">
                    {g.quantity} {bandLabel(g)}
                  </span>
                ))}
              </span>
            )}
          </dd>
        </div>
        {travellers && travellers.length > 0 ? (
          <div>
            <dt className="sr-only">Nombres de los pasajeros</dt>
            <dd>
              <ul className="grid gap-1.5 rounded-lg bg-slate-50 px-3 py-2">
                {travellers.map((traveller, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a slot is its position (names may repeat; the list never reorders)
                  <li key={`${traveller.name}-${index}`} className="flex flex-wrap justify-between gap-x-3">
                    <span className="font-semibold text-slate-900">{traveller.name}</span>
                    <span className="text-slate-500">{traveller.band}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
      {summary.perPassenger.length > 0 ? (
        <div className="border-t border-dashed border-slate-200 px-5 py-4 text-sm">
          <h3 className="mb-2 font-semibold text-slate-700">Precio por pasajero</h3>
          <dl className="grid gap-1.5" aria-label="Precio por pasajero">
            {summary.perPassenger.map((one) => {
              const band = bandOf(one.passengerTypeId);
              return (
                <div key={one.passengerTypeId} className="flex items-baseline justify-between gap-3">
                  <dt className="text-slate-600">
                    {band ? `Pasajero ${bandLabel(band)}` : 'Pasajero'}
                    {one.quantity > 1 ? ` (×${one.quantity})` : ''}
                  </dt>
                  <dd className="text-right">
                    <span className="font-semibold text-slate-900">{one.clp}</span>
                    {one.quantity > 1 ? <span className="text-slate-600"> c/u</span> : null}
                    <span className="block text-xs text-slate-500">{one.usd}</span>
                  </dd>
                </div>
              );
            })}
          </dl>
          {count > 1 ? (
            // Each traveller is priced and rounded alone, so their sum can differ from the total by a few pesos.
            <p className="mt-2 text-xs text-slate-500">Cada pasajero se calcula por separado; pagas el total.</p>
          ) : null}
        </div>
      ) : null}
      {summary.addOnLines.length > 0 ? (
        <div className="border-t border-dashed border-slate-200 px-5 py-4 text-sm">
          <h3 className="mb-2 font-semibold text-slate-700">Adicionales</h3>
          <dl className="grid gap-1.5" aria-label="Adicionales">
            <div className="flex items-baseline justify-between gap-3">
              <dt className="text-slate-600">Plan {summary.planLabel}</dt>
              <dd className="font-semibold text-slate-900">{summary.planClp}</dd>
            </div>
            {summary.addOnLines.map((line) => (
              <div key={`${line.seq}-${line.name}`} className="flex items-baseline justify-between gap-3">
                <dt className="text-slate-600">
                  {line.name}{' '}
                  <span className="whitespace-nowrap text-slate-500">
                    · {travellers?.[line.seq - 1]?.name ?? `Pasajero ${line.seq}`}
                  </span>
                </dt>
                <dd className="font-semibold whitespace-nowrap text-slate-900">{line.clp}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      {summary.addOnProblems.length > 0 ? (
        <div role="alert" className="border-t border-red-200 bg-red-50 px-5 py-3 text-sm text-red-800">
          {summary.addOnProblems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      ) : null}
      <div className="border-t border-dashed border-slate-200 px-5 py-4">
        <dl className="grid gap-1">
          <div className="flex items-baseline justify-between gap-3">
            <dt className="font-semibold text-slate-700">Total</dt>
            <dd className="text-2xl font-extrabold text-slate-900">{summary.totalClp}</dd>
          </div>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <dt className="text-slate-500">En USD</dt>
            <dd className="font-semibold text-slate-700">{summary.totalUsd}</dd>
          </div>
        </dl>
        <p className="mt-3 flex items-center gap-2 rounded-lg bg-brand-50 px-3 py-2 text-sm font-semibold text-brand-700">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0" fill="currentColor">
            <path d="M2 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v1H2V5Zm0 3h16v7a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8Zm3 5v1h4v-1H5Z" />
          </svg>
          Hasta {summary.instalments.count} cuotas sin interés de {summary.instalments.amount}
        </p>
      </div>
    </section>
  );
}
