import { addDays, parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { DateField } from '#app/components/DateField.tsx';
import type { QuoterFieldsProps } from './quoter-values.ts';

/** Departure and return; the return is fixed (and disabled) when the modality sets it. */
export function TravelDates({
  values,
  errors,
  returnFixed,
  change,
}: QuoterFieldsProps & {
  returnFixed: boolean;
}) {
  // Asked by the calendars when they open, not while the page hydrates (DateField's min and max).
  const today = todayInChile;
  const { departureDate } = values;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <DateField
        name="departureDate"
        label="Fecha de salida"
        value={values.departureDate}
        onChange={(value) => change('departureDate', value)}
        min={today}
        max={() => addDays(today(), 365)}
        error={errors.departureDate}
      />
      <DateField
        name="returnDate"
        label="Fecha de regreso"
        value={values.returnDate}
        onChange={(value) => change('returnDate', value)}
        min={parseIsoDate(departureDate) === null ? today : departureDate}
        max={() => addDays(today(), 365 + 365)}
        disabled={returnFixed}
        hint={returnFixed ? 'En la modalidad anual la cobertura dura 365 días desde la salida.' : undefined}
        error={errors.returnDate}
      />
    </div>
  );
}
