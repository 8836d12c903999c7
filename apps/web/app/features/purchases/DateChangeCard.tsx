import { addDays, chileDateOf, parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { formatClp } from '@travesia/domain/money';
import { useEffect, useRef, useState } from 'react';
import { Form } from 'react-router';
import { DateField } from '#app/components/DateField.tsx';
import { SelectField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { fromChileanDate } from '#app/lib/dates.ts';
import { formatDay } from '#app/lib/format.ts';
import { Card } from './Card.tsx';
import { DateChangeNewPrice } from './DateChangeNewPrice.tsx';
import { type DateChangeForm, type Purchase, refundText } from './purchase.ts';
import { secondaryButton } from './styles.ts';
import { useBusy } from './useBusy.ts';

/**
 * «Cambiar fechas»: new dates and/or another country of the same region → the new price and the difference (nothing
 * changes yet) → confirm, which pays the difference at the gateway, or applies the change at once. Every step is a
 * form post. Full width (below «Derecho a retracto»): the three fields side by side on a wide screen, stacked on a
 * phone.
 */
export function DateChangeCard({ purchase, form }: { purchase: Purchase; form: DateChangeForm | undefined }) {
  const previewing = useBusy('ver-cambio-fechas');
  const input = form?.input ?? {
    departureDate: purchase.departureDate,
    returnDate: purchase.returnDate,
    countryDestination: String(purchase.destinationCountry?.id ?? ''),
  };
  const preview = form?.preview ?? null;
  const { countries } = purchase.dateChange;
  return (
    <Card id="mi-compra-cambio-fechas" title="Cambiar fechas" className="md:col-span-2">
      {purchase.dateChanges.length > 0 ? (
        <ul className="mb-4 grid gap-2 text-sm text-slate-700">
          {purchase.dateChanges.map((change) => (
            <li key={change.appliedAt}>
              Cambiado el {formatDay(chileDateOf(change.appliedAt))}: antes del{' '}
              {formatDay(change.previousDepartureDate)} al {formatDay(change.previousReturnDate)}
              {change.destinationCountry !== change.previousDestinationCountry
                ? ` · país de destino: ${change.previousDestinationCountry ?? 'sin especificar'} → ${change.destinationCountry ?? 'sin especificar'}`
                : ''}
              {change.differenceClp > 0 ? ` · pagaste ${formatClp(change.differenceClp)}` : ''}
              {change.differenceClp < 0 ? ` · ${refundText(change)}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      {purchase.dateChange.available ? (
        <>
          <p className="text-sm text-slate-600">
            Puedes cambiar las fechas de tu viaje, y el país de destino dentro de la misma región (
            {purchase.destination}
            ), hasta el día anterior a la salida. Recalculamos el precio con el mismo plan, región y pasajeros.
          </p>
          {form?.errors.form ? (
            <p role="alert" className="mt-3 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
              {form.errors.form}
            </p>
          ) : null}
          <Form method="post" noValidate aria-label="Cambiar fechas" className="mt-4 grid gap-4">
            <input type="hidden" name="intent" value="ver-cambio-fechas" />
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <NewTripDates input={input} errors={form?.errors} />
              {countries.length > 0 ? (
                <SelectField
                  label="País de destino"
                  name="countryDestination"
                  defaultValue={input.countryDestination}
                  error={form?.errors.countryDestination}
                  className="sm:col-span-2 lg:col-span-1"
                >
                  {purchase.destinationCountry ? null : <option value="">Sin especificar</option>}
                  {countries.map((country) => (
                    <option key={country.id} value={String(country.id)}>
                      {country.label}
                    </option>
                  ))}
                </SelectField>
              ) : null}
            </div>
            {/* In a block of its own: a grid cell would stretch the button across the full-width card. */}
            <div>
              <SubmitButton
                busy={previewing}
                label="Ver nuevo precio"
                busyLabel="Calculando..."
                className={secondaryButton}
              />
            </div>
          </Form>
          {preview ? <DateChangeNewPrice purchase={purchase} preview={preview} /> : null}
        </>
      ) : (
        <p className="text-sm text-slate-700">{purchase.dateChange.reason}</p>
      )}
    </Card>
  );
}

/**
 * The new dates in the store's own date field (dd-mm-aaaa typed, or picked from the calendar in Spanish), as the
 * quoter asks them; a browser's native date input showed mm/dd/yyyy in an English browser. Without JavaScript the
 * typed text is posted and the page's action reads it (purchase.server.ts).
 */
function NewTripDates({
  input,
  errors,
}: {
  input: DateChangeForm['input'];
  errors: DateChangeForm['errors'] | undefined;
}) {
  const [departureDate, setDepartureDate] = useState(input.departureDate);
  const [returnDate, setReturnDate] = useState(input.returnDate);
  // What the buyer typed before the page's scripts ran (a slow phone) is taken over on hydration, not reset.
  const fields = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const typed = (name: string) =>
      fields.current?.querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value.trim() ?? '';
    for (const [name, set] of [
      ['departureDate', setDepartureDate],
      ['returnDate', setReturnDate],
    ] as const) {
      const text = typed(name);
      if (text !== '') set(fromChileanDate(text) ?? text);
    }
  }, []);
  const today = () => todayInChile();
  return (
    <div ref={fields} className="contents">
      <DateField
        label="Nueva fecha de salida"
        name="departureDate"
        value={departureDate}
        onChange={setDepartureDate}
        min={today}
        max={() => addDays(today(), 365)}
        error={errors?.departureDate}
      />
      <DateField
        label="Nueva fecha de regreso"
        name="returnDate"
        value={returnDate}
        onChange={setReturnDate}
        min={parseIsoDate(departureDate) === null ? today : departureDate}
        max={() => addDays(today(), 365 + 365)}
        error={errors?.returnDate}
      />
    </div>
  );
}
