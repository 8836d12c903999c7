import { TextField } from '#app/components/fields.tsx';
import type { ContactValues } from './passengers-fields.ts';
import type { ErrorOf, PassengersFormHandle } from './passengers-form.ts';

type ContactErrors = {
  firstName?: { message?: string };
  lastName?: { message?: string };
  phone?: { message?: string };
};
/** An emergency contact's name, surname and phone (the shared one, or one passenger's). */
export function ContactFields({
  prefix,
  errors,
  values,
  errorOf,
  register,
  autoCompleteSection,
}: {
  prefix: 'emergencyContact' | `passengers.${number}.emergencyContact`;
  errors: ContactErrors | undefined;
  /** What the inputs hold when rendered (saved or just posted). */
  values: ContactValues | undefined;
  errorOf: ErrorOf;
  register: PassengersFormHandle['register'];
  autoCompleteSection: string;
}) {
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
      <TextField
        label="Nombre"
        autoComplete={`${autoCompleteSection} given-name`}
        error={errorOf(`${prefix}.firstName`, errors?.firstName?.message)}
        defaultValue={values?.firstName}
        {...register(`${prefix}.firstName`)}
      />
      <TextField
        label="Apellido"
        autoComplete={`${autoCompleteSection} family-name`}
        error={errorOf(`${prefix}.lastName`, errors?.lastName?.message)}
        defaultValue={values?.lastName}
        {...register(`${prefix}.lastName`)}
      />
      <TextField
        label="Teléfono"
        type="tel"
        inputMode="tel"
        autoComplete={`${autoCompleteSection} tel`}
        placeholder="+56 9 1234 5678"
        error={errorOf(`${prefix}.phone`, errors?.phone?.message)}
        defaultValue={values?.phone}
        {...register(`${prefix}.phone`)}
      />
    </div>
  );
}
