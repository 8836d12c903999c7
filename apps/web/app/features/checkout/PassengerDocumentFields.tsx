import { SelectField, TextField } from '#app/components/fields.tsx';
import {
  documentTypeFor,
  documentTypes,
  nationalities,
  type PassengersValues,
  tidyDocument,
} from './passengers-fields.ts';
import type { ErrorOf, PassengersErrors, PassengersFormHandle } from './passengers-form.ts';

/**
 * A passenger's nationality, document type and number (cells of the passenger's grid). A document not typed yet
 * follows the nationality; a number is tidied (a RUT's dots and dash) when the field is left.
 */
export function PassengerDocumentFields({
  form,
  errors: errs,
  errorOf,
  index,
  saved,
  documentType,
}: {
  form: PassengersFormHandle;
  errors: NonNullable<PassengersErrors['passengers']>[number];
  errorOf: ErrorOf;
  index: number;
  saved: PassengersValues['passengers'][number] | undefined;
  documentType: string;
}) {
  const { register, getValues, setValue, getFieldState, trigger } = form;
  const at = `passengers.${index}` as const;
  return (
    <>
      {/* Bottom-aligned: «Tipo de documento» takes two lines on narrow phones. */}
      <div className="col-span-2 grid grid-cols-2 items-end gap-4 sm:col-span-4">
        <SelectField
          label="Nacionalidad"
          error={errorOf(`${at}.nationality`, errs?.nationality?.message)}
          defaultValue={saved?.nationality}
          {...register(`${at}.nationality`, {
            onChange: (event: { target: { value: string } }) => {
              // A document not typed yet follows the nationality: RUT for Chile, DNI otherwise.
              if (getValues(`${at}.document.id`).trim() === '') {
                setValue(`${at}.document.type`, documentTypeFor(event.target.value));
              }
            },
          })}
        >
          {nationalities.map((n) => (
            <option key={n.id} value={n.id}>
              {n.label}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Tipo de documento"
          error={errorOf(`${at}.document.type`, errs?.document?.type?.message)}
          defaultValue={saved?.document.type}
          {...register(`${at}.document.type`, {
            onChange: () => {
              if (getValues(`${at}.document.id`).trim() !== '' || getFieldState(`${at}.document.id`).isTouched) {
                void trigger(`${at}.document.id`);
              }
            },
          })}
        >
          {documentTypes.map((d) => (
            <option key={d.id} value={d.id}>
              {d.label}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField
        className="col-span-2 sm:col-span-2"
        label="RUT/DNI"
        autoComplete="off"
        spellCheck={false}
        placeholder={documentType === '1' ? '12.345.678-5' : 'N° de documento'}
        error={errorOf(`${at}.document.id`, errs?.document?.id?.message)}
        defaultValue={saved?.document.id}
        {...register(`${at}.document.id`, {
          onBlur: (event: { target: { value: string } }) => {
            const tidy = tidyDocument(getValues(`${at}.document.type`), event.target.value);
            if (tidy !== event.target.value) setValue(`${at}.document.id`, tidy);
          },
        })}
      />
    </>
  );
}
