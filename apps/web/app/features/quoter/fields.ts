/**
 * The name of a passenger type's count in the quoter's post (`passengers.1=2`): the number input rendered on the
 * server and the enhanced stepper's submission use it alike. Kept apart from schema.ts, which loads on first use.
 */
export const passengerFieldPrefix = 'passengers.';
