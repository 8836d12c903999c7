import { formatDay } from '#app/lib/format.ts';
import { Card, Rows } from './Card.tsx';
import type { Purchase } from './purchase.ts';

/** What a buyer's and a traveller's view both show of the trip: the «Tu viaje» card. */
export function TripCard({
  trip,
}: {
  trip: Pick<
    Purchase,
    'plan' | 'destination' | 'destinationCountry' | 'modality' | 'departureDate' | 'returnDate' | 'days' | 'status'
  >;
}) {
  return (
    <Card id="mi-compra-viaje" title="Tu viaje">
      <Rows
        rows={[
          { term: 'Plan', detail: trip.plan },
          { term: 'Destino', detail: trip.destination },
          ...(trip.destinationCountry ? [{ term: 'País de destino', detail: trip.destinationCountry.label }] : []),
          { term: 'Modalidad', detail: trip.modality },
          { term: 'Vigencia', detail: `${formatDay(trip.departureDate)} al ${formatDay(trip.returnDate)}` },
          { term: 'Días', detail: String(trip.days) },
          { term: 'Estado', detail: statusLabels[trip.status] },
        ]}
      />
    </Card>
  );
}

export const statusLabels: Record<Purchase['status'], string> = {
  paid: 'Pagada',
  withdrawing: 'Retracto en proceso',
  withdrawn: 'Anulada y reembolsada',
};
