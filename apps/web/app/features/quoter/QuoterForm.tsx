import { addDays, parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { maxPassengers } from '@travesia/domain/limits';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Form, useNavigation, useSubmit } from 'react-router';
import { DateField } from '#app/components/DateField.tsx';
import { useShellModals } from '#app/components/shell-modals-context.ts';
import type { components } from '#app/lib/api-schema.d.ts';
import { fromChileanDate } from '#app/lib/dates.ts';
import { passengerFieldPrefix } from './fields.ts';
import type { QuoterActionResult } from './quoter.server.ts';
import type { QuoterErrors, QuoterValues } from './schema.ts';

type Schemas = components['schemas'];

export type QuoterData = {
  origins: Schemas['Origin'][];
  modalities: Schemas['Modality'][];
  destinationsByModality: Record<string, Schemas['Destination'][]>;
  quotation: Schemas['Quotation'] | null;
};

type Props = QuoterData & {
  passengerTypes: Schemas['PassengerType'][];
  actionResult: QuoterActionResult | undefined;
};

const selectClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 aria-[invalid=true]:border-red-600';

/**
 * The passenger − / + buttons. At 0 (or at the maximum) they are aria-disabled, not disabled: a disabled button
 * loses the keyboard focus, which would drop to the page; this one keeps it and ignores the press.
 */
const stepperClass =
  'h-8 w-8 rounded-full border border-slate-300 text-lg leading-none text-brand-700 hover:bg-white aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent';

/**
 * The quoter's rules (zod and the domain's, ~30 KB gzip) are fetched when the visitor first focuses or presses
 * something in the form, not with the page: home's first load carries no validation code (docs/performance.md).
 */
const loadRules = () => import('./schema.ts');

/** The fields in the order they appear, so the first one with a problem takes the focus. */
const fieldOrder: (keyof QuoterValues)[] = [
  'origin',
  'modality',
  'destination',
  'departureDate',
  'returnDate',
  'passengers',
  'discountCode',
  'upgradeCovid',
];

function initialValues(
  { origins, modalities, destinationsByModality, quotation }: QuoterData,
  actionResult: QuoterActionResult | undefined,
): QuoterValues {
  // Refused by the action: the values as entered (a post without JavaScript renders them again on the server).
  if (actionResult?.values) return actionResult.values;
  if (quotation) {
    return {
      origin: String(quotation.origin),
      modality: String(quotation.modality),
      destination: String(quotation.destination),
      departureDate: quotation.departureDate,
      returnDate: quotation.returnDate,
      passengers: Object.fromEntries(quotation.passangerTypes.map((p) => [String(p.passengerTypeId), p.quantity])),
      discountCode: quotation.discountCode ?? '',
      upgradeCovid: quotation.upgradeCovid,
    };
  }
  const modality = String(modalities[0]?.id ?? '');
  return {
    origin: String(origins[0]?.id ?? ''),
    modality,
    destination: String(destinationsByModality[modality]?.[0]?.id ?? ''),
    departureDate: '',
    returnDate: '',
    passengers: { '1': 1 },
    discountCode: '',
    upgradeCovid: false,
  };
}

/** The action's errors by field (the action names the quoter's fields). */
const errorsOfAction = (actionResult: QuoterActionResult | undefined): QuoterErrors =>
  Object.fromEntries((actionResult?.errors ?? []).map((e) => [e.field, e.message]));

/** The form's values with what its controls hold (typed before hydration), where they hold something. */
function valuesTypedBeforeHydration(
  current: QuoterValues,
  typed: FormData,
  passengerTypes: Props['passengerTypes'],
): QuoterValues {
  const next = { ...current, passengers: { ...current.passengers } };
  const read = (name: string) => {
    const value = typed.get(name);
    return typeof value === 'string' ? value : null;
  };
  for (const field of ['origin', 'modality', 'destination', 'discountCode'] as const) {
    next[field] = read(field) ?? next[field];
  }
  for (const field of ['departureDate', 'returnDate'] as const) {
    const text = read(field)?.trim();
    if (text) next[field] = fromChileanDate(text) ?? text;
  }
  next.upgradeCovid = read('upgradeCovid') !== null;
  for (const type of passengerTypes) {
    const count = Number(read(`${passengerFieldPrefix}${type.id}`) ?? Number.NaN);
    if (Number.isInteger(count) && count >= 0) next.passengers[String(type.id)] = count;
  }
  const same = (Object.keys(next) as (keyof QuoterValues)[]).every(
    (field) => JSON.stringify(next[field]) === JSON.stringify(current[field]),
  );
  return same ? current : next;
}

/** The values as the form posts them: the names a native post (without JavaScript) sends too. */
function postedEntries(values: QuoterValues, quotationId: string | null): Record<string, string> {
  const entries: Record<string, string> = {
    origin: values.origin,
    modality: values.modality,
    destination: values.destination,
    departureDate: values.departureDate,
    returnDate: values.returnDate,
    discountCode: values.discountCode.trim(),
  };
  for (const [typeId, count] of Object.entries(values.passengers))
    entries[`${passengerFieldPrefix}${typeId}`] = String(count);
  if (values.upgradeCovid) entries.upgradeCovid = 'true';
  if (quotationId) entries.quotationId = quotationId;
  return entries;
}

/**
 * The quoter (spec §2 home and cotizador): origin, modality, destination by modality, dates by the modality's
 * rules, passengers by age band, discount code and the covid upgrade. Checked here before any call; the route
 * action creates the quotation and sends the visitor to its plans. A plain POST form underneath: before the scripts
 * run (or without them) every control posts natively, the passengers as number inputs that become − / + steppers
 * once the page is interactive, and the action checks everything again.
 */
export function QuoterForm(props: Props) {
  const { origins, modalities, destinationsByModality, passengerTypes, actionResult, quotation } = props;
  const { openUpgrade } = useShellModals();
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  // Asked by the calendars when they open, not while the page hydrates (DateField's min and max).
  const today = todayInChile;
  const ids = {
    origin: useId(),
    modality: useId(),
    destination: useId(),
    code: useId(),
    covid: useId(),
    passengers: useId(),
  };
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<QuoterValues>(() => initialValues(props, actionResult));
  const [errors, setErrors] = useState<QuoterErrors>(() => errorsOfAction(actionResult));
  // The server renders number inputs for the passengers; once hydrated they become the − / + steppers. What the
  // visitor chose or typed before the scripts ran (a slow phone) is taken over first, not silently reset.
  const [enhanced, setEnhanced] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration; the types never change meanwhile
  useEffect(() => {
    if (formRef.current) {
      const typed = new FormData(formRef.current);
      setValues((current) => valuesTypedBeforeHydration(current, typed, passengerTypes));
    }
    setEnhanced(true);
  }, []);
  // As react-hook-form did: checked on submit; after the first submit, each change checks its field again.
  const submitted = useRef(false);
  const recheck = useRef(new Set<keyof QuoterValues>());

  const change = <K extends keyof QuoterValues>(field: K, value: QuoterValues[K], check = submitted.current) => {
    if (check) recheck.current.add(field);
    setValues((current) => (current[field] === value ? current : { ...current, [field]: value }));
  };

  const { modality: modalityId, departureDate, passengers } = values;
  const modality = modalities.find((m) => String(m.id) === modalityId);
  const destinations = destinationsByModality[modalityId] ?? [];
  const returnFixed = modality ? !modality.returnDateConfiguration.enabled : false;
  const totalPassengers = Object.values(passengers).reduce((sum, count) => sum + count, 0);

  // A destination not offered for the new modality is cleared, so the visitor chooses again.
  const destination = values.destination;
  const firstDestination = String(destinations[0]?.id ?? '');
  const offered = destinations.some((d) => String(d.id) === destination);
  useEffect(() => {
    if (!offered && destination !== firstDestination) {
      setValues((current) => ({ ...current, destination: firstDestination }));
    }
  }, [offered, destination, firstDestination]);

  // The return date follows the departure: fixed by the modality, or proposed when still empty or earlier.
  useEffect(() => {
    if (!modality || parseIsoDate(departureDate) === null) return;
    const proposed = addDays(departureDate, modality.returnDateConfiguration.addDays);
    setValues((current) => {
      const { returnDate } = current;
      if (!returnFixed && parseIsoDate(returnDate) !== null && returnDate >= departureDate) return current;
      if (returnDate === proposed) return current;
      if (returnFixed && returnDate !== '') recheck.current.add('returnDate');
      return { ...current, returnDate: proposed };
    });
  }, [departureDate, modality, returnFixed]);

  // A changed field is checked again (after the first submit); the rules are already loaded by then.
  useEffect(() => {
    const fields = [...recheck.current];
    recheck.current.clear();
    if (fields.length === 0) return;
    void loadRules().then(({ quoterErrors }) => {
      const found = quoterErrors(values, modalities, todayInChile());
      setErrors((current) => {
        const next = { ...current };
        for (const field of fields) {
          if (found[field]) next[field] = found[field];
          else delete next[field];
        }
        return next;
      });
    });
  }, [values, modalities]);

  // Errors the API found (it checks everything again) appear beside their fields (the action names the field).
  useEffect(() => {
    const fromServer = errorsOfAction(actionResult);
    if (Object.keys(fromServer).length === 0) return;
    setErrors((current) => ({ ...current, ...fromServer }));
  }, [actionResult]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = true;
    // Should the rules fail to load, the API still checks everything and its answer names the fields.
    const rules = await loadRules().catch(() => null);
    const found = rules ? rules.quoterErrors(values, modalities, todayInChile()) : {};
    setErrors(found);
    const first = fieldOrder.find((field) => found[field] !== undefined);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]:not([disabled])`)?.focus();
      return;
    }
    submit(postedEntries(values, quotation?.id ?? null), { method: 'post' });
  };

  const changePassengers = (typeId: number, delta: number) => {
    const next = Math.max(0, (passengers[String(typeId)] ?? 0) + delta);
    change('passengers', { ...passengers, [String(typeId)]: next }, errors.passengers !== undefined);
  };
  const preloadRules = () => void loadRules().catch(() => undefined);

  const fieldError = (message: string | undefined, id: string) =>
    message ? (
      <p id={id} className="text-sm font-medium text-red-700" role="alert">
        {message}
      </p>
    ) : null;

  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={onSubmit}
      onFocus={preloadRules}
      onPointerDown={preloadRules}
      className="grid gap-4"
      aria-label="Cotizador de asistencia en viaje"
    >
      {quotation ? <input type="hidden" name="quotationId" value={quotation.id} /> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.origin} className="text-sm font-semibold text-slate-700">
            Origen
          </label>
          <select
            id={ids.origin}
            className={selectClass}
            aria-invalid={errors.origin ? true : undefined}
            aria-describedby={errors.origin ? `${ids.origin}-error` : undefined}
            name="origin"
            value={values.origin}
            onChange={(event) => change('origin', event.target.value)}
          >
            {origins.map((origin) => (
              <option key={origin.id} value={origin.id}>
                {origin.label}
              </option>
            ))}
          </select>
          {fieldError(errors.origin, `${ids.origin}-error`)}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.modality} className="text-sm font-semibold text-slate-700">
            Modalidad
          </label>
          <select
            id={ids.modality}
            className={selectClass}
            aria-invalid={errors.modality ? true : undefined}
            aria-describedby={errors.modality ? `${ids.modality}-error` : undefined}
            name="modality"
            value={values.modality}
            onChange={(event) => change('modality', event.target.value)}
          >
            {modalities.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
          {fieldError(errors.modality, `${ids.modality}-error`)}
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.destination} className="text-sm font-semibold text-slate-700">
            Destino
          </label>
          <select
            id={ids.destination}
            className={selectClass}
            aria-invalid={errors.destination ? true : undefined}
            aria-describedby={errors.destination ? `${ids.destination}-error` : undefined}
            name="destination"
            value={values.destination}
            onChange={(event) => change('destination', event.target.value)}
          >
            {destinations.map((destination) => (
              <option key={destination.id} value={destination.id}>
                {destination.label}
              </option>
            ))}
          </select>
          {fieldError(errors.destination, `${ids.destination}-error`)}
        </div>
      </div>

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

      <fieldset
        className="rounded-xl border border-slate-200 p-3"
        aria-describedby={errors.passengers ? 'quoter-passengers-error' : undefined}
      >
        <legend className="px-1 text-sm font-semibold text-slate-700">
          Pasajeros <span className="font-normal text-slate-500">(hasta {maxPassengers})</span>
        </legend>
        <ul className="grid gap-2 sm:grid-cols-3">
          {passengerTypes.map((type) => {
            const count = passengers[String(type.id)] ?? 0;
            return (
              <li key={type.id} className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
                {enhanced ? (
                  <>
                    <span className="text-sm text-slate-700">{type.label}</span>
                    <span className="flex items-center gap-2">
                      <button
                        type="button"
                        className={stepperClass}
                        onClick={() => {
                          if (count > 0) changePassengers(type.id, -1);
                        }}
                        aria-disabled={count === 0}
                        aria-label={`Quitar ${type.label.toLowerCase()}`}
                      >
                        −
                      </button>
                      <output
                        className="w-5 text-center font-semibold"
                        aria-live="polite"
                        aria-label={`${type.label}: ${count}`}
                      >
                        {count}
                      </output>
                      <button
                        type="button"
                        className={stepperClass}
                        onClick={() => {
                          if (totalPassengers < maxPassengers) changePassengers(type.id, 1);
                        }}
                        aria-disabled={totalPassengers >= maxPassengers}
                        aria-label={`Agregar ${type.label.toLowerCase()}`}
                      >
                        +
                      </button>
                    </span>
                  </>
                ) : (
                  <>
                    <label htmlFor={`${ids.passengers}-${type.id}`} className="text-sm text-slate-700">
                      {type.label}
                    </label>
                    {/* As wide as the − n + stepper it becomes, so the row keeps its height on hydration. */}
                    <input
                      id={`${ids.passengers}-${type.id}`}
                      type="number"
                      inputMode="numeric"
                      min={0}
                      max={maxPassengers}
                      name={`${passengerFieldPrefix}${type.id}`}
                      defaultValue={count}
                      className="h-8 w-[100px] shrink-0 rounded-lg border border-slate-300 bg-white px-2 text-center font-semibold text-slate-900"
                    />
                  </>
                )}
              </li>
            );
          })}
        </ul>
        {fieldError(errors.passengers, 'quoter-passengers-error')}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.code} className="text-sm font-semibold text-slate-700">
            Código de descuento <span className="font-normal text-slate-500">(opcional)</span>
          </label>
          <input
            id={ids.code}
            type="text"
            autoComplete="off"
            className="rounded-lg border border-slate-300 px-3 py-2.5 uppercase text-slate-900"
            aria-invalid={errors.discountCode ? true : undefined}
            aria-describedby={errors.discountCode ? `${ids.code}-error` : undefined}
            name="discountCode"
            value={values.discountCode}
            onChange={(event) => change('discountCode', event.target.value)}
          />
          {fieldError(errors.discountCode, `${ids.code}-error`)}
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-brand-50 px-3 py-2.5">
          <input
            id={ids.covid}
            type="checkbox"
            className="h-5 w-5 accent-brand-700"
            name="upgradeCovid"
            value="true"
            checked={values.upgradeCovid}
            onChange={(event) => change('upgradeCovid', event.target.checked)}
          />
          <label htmlFor={ids.covid} className="font-medium text-slate-800">
            Agregar upgrade COVID-19
          </label>
          <button type="button" onClick={openUpgrade} className="text-sm font-semibold text-brand-700 underline">
            Ver coberturas
          </button>
        </div>
      </div>

      {actionResult?.formErrors.length ? (
        <p className="rounded-lg bg-red-50 px-3 py-2 font-medium text-red-800" role="alert">
          {actionResult.formErrors.join(' ')}
        </p>
      ) : null}

      <button
        type="submit"
        disabled={submitting}
        className="rounded-xl bg-accent-700 px-6 py-3 text-lg font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70"
      >
        {submitting ? 'Cotizando...' : quotation ? 'Actualizar cotización' : 'Cotizar'}
      </button>
      <p className="text-center text-sm text-slate-600">
        Descuentos y promociones ya aplicados · Hasta 6 cuotas sin interés
      </p>
    </Form>
  );
}
