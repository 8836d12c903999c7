import type { FieldErrors, UseFormReturn } from 'react-hook-form';
import type { PassengersValues } from './passengers-fields.ts';

/** The passengers form's react-hook-form handle, passed to each of its sections. */
export type PassengersFormHandle = UseFormReturn<PassengersValues>;
export type PassengersErrors = FieldErrors<PassengersValues>;
/** The error to show for a field: the server's for that field while it stands, else the form's own. */
export type ErrorOf = (field: string, client: string | undefined) => string | undefined;

/**
 * What every section of the passengers form receives: the form, its errors, the error to show for a field, and what
 * the inputs hold when rendered (saved or just posted).
 */
export type PassengersSectionProps = {
  form: PassengersFormHandle;
  errors: PassengersErrors;
  errorOf: ErrorOf;
  start: PassengersValues;
};
