import { FormSection, SelectField } from '#app/components/fields.tsx';
import type { Country } from './passengers-fields.ts';
import type { PassengersSectionProps } from './passengers-form.ts';

/** «Destino del viaje»: the destination country, among the quotation region's. */
export function DestinationSection({
  form,
  errors,
  errorOf,
  countries,
  start,
}: PassengersSectionProps & {
  countries: Country[];
}) {
  const { register } = form;
  return (
    <FormSection title="Destino del viaje" description="El país al que viajas (o el principal, si visitas varios).">
      <SelectField
        className="sm:max-w-sm"
        label="País de destino"
        error={errorOf('countryDestination', errors.countryDestination?.message)}
        defaultValue={start.countryDestination}
        {...register('countryDestination')}
      >
        <option value="" disabled>
          Selecciona el país
        </option>
        {countries.map((country) => (
          <option key={country.id} value={country.id}>
            {country.label}
          </option>
        ))}
      </SelectField>
    </FormSection>
  );
}
