import { tripDays } from '@travesia/domain/dates';
import { oldestAge } from '@travesia/domain/ids';
import { Link } from 'react-router';
import { formatDay, plural } from '#app/lib/format.ts';
import type { Quotation } from './types.ts';

type Props = {
  quotation: Quotation;
  destination: string;
  origin: string | null;
  modality: string | null;
};

function passengerGroup(p: Quotation['passangerTypes'][number]): string {
  const ages = p.ageTo >= oldestAge ? `de ${p.ageFrom} años o más` : `de ${p.ageFrom} a ${p.ageTo} años`;
  return `${p.quantity} ${ages}`;
}

/** The trip being priced, as the visitor typed it, with the way back to the quoter. */
export function TripSummary({ quotation, destination, origin, modality }: Props) {
  const travelling = quotation.passangerTypes.filter((p) => p.quantity > 0);
  const passengers = travelling.reduce((sum, p) => sum + p.quantity, 0);
  let days: number | null = null;
  try {
    days = tripDays(quotation.departureDate, quotation.returnDate);
  } catch {
    days = null;
  }
  const items: { term: string; detail: string; extra?: string; wide?: boolean }[] = [
    { term: 'Destino', detail: destination, extra: origin ? `Desde ${origin}` : undefined },
    { term: 'Modalidad', detail: modality ?? '—' },
    {
      term: 'Fechas',
      wide: true,
      detail: `${formatDay(quotation.departureDate)} al ${formatDay(quotation.returnDate)}`,
      extra: days ? plural(days, 'día', 'días') : undefined,
    },
    {
      term: 'Pasajeros',
      wide: true,
      detail: plural(passengers, 'pasajero', 'pasajeros'),
      extra: travelling.length > 1 || passengers > 1 ? travelling.map(passengerGroup).join(' · ') : undefined,
    },
  ];
  return (
    <section
      aria-labelledby="resumen-viaje"
      className="rounded-2xl bg-white p-5 text-slate-800 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 id="resumen-viaje" className="text-lg font-bold text-brand-700">
          Resumen de tu viaje
        </h2>
        <Link
          to={`/?cotizacion=${encodeURIComponent(quotation.id)}`}
          className="inline-flex items-center gap-1.5 rounded-lg border border-brand-700 px-3 py-1.5 text-sm font-semibold text-brand-700 hover:bg-brand-700 hover:text-white"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M13.6 2.6a2 2 0 0 1 2.8 0l1 1a2 2 0 0 1 0 2.8L7.8 16H4v-3.8l9.6-9.6ZM5.5 12.8v1.7h1.7l7-7-1.7-1.7-7 7Z" />
          </svg>
          Modificar cotización
        </Link>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-4 lg:grid-cols-4">
        {items.map((item) => (
          <div key={item.term} className={`min-w-0 ${item.wide ? 'col-span-2 sm:col-span-1' : ''}`}>
            <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{item.term}</dt>
            <dd className="font-semibold text-slate-900">{item.detail}</dd>
            {item.extra ? <dd className="text-sm text-slate-600">{item.extra}</dd> : null}
          </div>
        ))}
      </dl>
      {quotation.discountCode ? (
        <p className="mt-4 text-sm text-slate-600">
          Código de descuento: <strong className="font-mono text-slate-900">{quotation.discountCode}</strong>
        </p>
      ) : null}
    </section>
  );
}
