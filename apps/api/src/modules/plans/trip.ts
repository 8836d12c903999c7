import { todayInChile, validateTripDates } from '@travesia/domain/dates';
import { passengerTotalProblem } from '@travesia/domain/rules';
import type { Database } from '#app/db/client.ts';
import { ApiError, type FieldError } from '#app/errors.ts';
import * as catalog from '#app/modules/catalog/service.ts';
import type { DiscountContext } from './discount-codes.ts';

/** What a visitor asks to be priced: the plan search parameters of spec §5. */
export type Trip = {
  originId: number;
  destinationId: number;
  modalityId: number;
  departureDate: string;
  returnDate: string;
  passengers: { passengerTypeId: number; quantity: number }[];
  discountCode: string | null;
  upgradeCovid: boolean;
  /** Who asks, when known (a stored quotation, a payment): a code's per-buyer limit and own use depend on it. */
  discountContext?: DiscountContext;
  /** A stored quotation's last change (its trip, plan or travellers): prices published after it are news to it. */
  quotedAt?: Date;
};

/**
 * Checks a trip against the company's catalogue and the modality's date rules. Answers the modality's rules when
 * the trip is sound; otherwise throws a 400 with one field error per problem, under `detail`.
 */
export async function checkTrip(db: Database, companyId: number, trip: Trip, detail: string, passengersField: string) {
  const errors: FieldError[] = [];
  const [origins, modality, passengerTypes] = await Promise.all([
    catalog.listOrigins(db, companyId),
    catalog.findModalityRules(db, companyId, trip.modalityId),
    catalog.listPassengerTypes(db, companyId),
  ]);
  if (!origins.some((origin) => origin.id === trip.originId)) {
    errors.push({ field: 'origin', code: 'not_available', message: 'Origen no disponible' });
  }
  if (!modality) {
    errors.push({ field: 'modality', code: 'not_available', message: 'Modalidad no disponible' });
  } else {
    const destinations = await catalog.listDestinationsByModality(db, companyId, trip.modalityId);
    if (!destinations.some((destination) => destination.id === trip.destinationId)) {
      errors.push({
        field: 'destination',
        code: 'not_available',
        message: 'Destino no disponible para esta modalidad',
      });
    }
    for (const error of validateTripDates(
      { departureDate: trip.departureDate, returnDate: trip.returnDate, today: todayInChile() },
      modality,
    )) {
      errors.push(error);
    }
  }
  const knownTypes = new Set(passengerTypes.map((type) => type.id));
  const unknown = trip.passengers.filter((p) => !knownTypes.has(p.passengerTypeId));
  const total = trip.passengers.reduce((sum, p) => sum + p.quantity, 0);
  const repeated = new Set(trip.passengers.map((p) => p.passengerTypeId)).size !== trip.passengers.length;
  const totalProblem = passengerTotalProblem(total);
  if (unknown.length > 0) {
    errors.push({ field: passengersField, code: 'not_available', message: 'Tipo de pasajero no disponible' });
  } else if (repeated) {
    errors.push({ field: passengersField, code: 'duplicate', message: 'Cada tipo de pasajero puede aparecer una vez' });
  } else if (totalProblem) errors.push({ field: passengersField, ...totalProblem });
  if (errors.length > 0 || !modality) throw new ApiError(400, detail, errors);
  return modality;
}
