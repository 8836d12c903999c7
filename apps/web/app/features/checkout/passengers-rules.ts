import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import type { PassengerSlot, PassengersValues } from './passengers-fields.ts';
import { passengersSchema } from './passengers-schema.ts';

/** The passengers form's checks as react-hook-form asks for them (loaded on demand: see PassengersForm). */
export function passengersResolver(slots: PassengerSlot[], departureDate: string): Resolver<PassengersValues> {
  return zodResolver(passengersSchema(slots, departureDate));
}
