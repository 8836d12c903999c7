import { zodResolver } from '@hookform/resolvers/zod';
import { addDays, parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { maxPassengers } from '@travesia/domain/rules';
import { useEffect, useId, useMemo } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useNavigation, useSubmit } from 'react-router';
import { DateField } from '#app/components/DateField.tsx';
import { useShellModals } from '#app/components/ShellModals.tsx';
import type { components } from '#app/lib/api-schema.d.ts';
import type { QuoterActionResult } from './quoter.server.ts';
import { type QuoterSubmission, type QuoterValues, quoterSchema } from './schema.ts';

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
  /** Partner code of /cotizador/{codename}, kept on the quotation as its referral. */
  referralCode?: string | null;
  pantalla: string;
};

const selectClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 aria-[invalid=true]:border-red-600';

/**
 * The passenger − / + buttons. At 0 (or at the maximum) they are aria-disabled, not disabled: a disabled button
 * loses the keyboard focus, which would drop to the page; this one keeps it and ignores the press.
 */
const stepperClass =
  'h-8 w-8 rounded-full border border-slate-300 text-lg leading-none text-brand-700 hover:bg-white aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent';

function initialValues({ origins, modalities, destinationsByModality, quotation }: QuoterData): QuoterValues {
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

/**
 * The quoter (spec §2 home and cotizador): origin, modality, destination by modality, dates by the modality's
 * rules, passengers by age band, discount code and the covid upgrade. Checked here before any call; the route
 * action creates the quotation and sends the visitor to its plans.
 */
export function QuoterForm(props: Props) {
  const { origins, modalities, destinationsByModality, passengerTypes, actionResult, quotation } = props;
  const { openUpgrade } = useShellModals();
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const today = todayInChile();
  const lastDay = addDays(today, 365 + 365);
  const schema = useMemo(() => quoterSchema(modalities, today), [modalities, today]);
  const ids = { origin: useId(), modality: useId(), destination: useId(), code: useId(), covid: useId() };

  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    setError,
    getValues,
    formState: { errors },
  } = useForm<QuoterValues>({
    resolver: zodResolver(schema),
    defaultValues: initialValues(props),
  });

  const modalityId = watch('modality');
  const departureDate = watch('departureDate');
  const passengers = watch('passengers');
  const modality = modalities.find((m) => String(m.id) === modalityId);
  const destinations = destinationsByModality[modalityId] ?? [];
  const returnFixed = modality ? !modality.returnDateConfiguration.enabled : false;
  const totalPassengers = Object.values(passengers).reduce((sum, count) => sum + count, 0);

  // A destination not offered for the new modality is cleared, so the visitor chooses again.
  useEffect(() => {
    if (!destinations.some((d) => String(d.id) === getValues('destination'))) {
      setValue('destination', String(destinations[0]?.id ?? ''));
    }
  }, [destinations, getValues, setValue]);

  // The return date follows the departure: fixed by the modality, or proposed when still empty or earlier.
  useEffect(() => {
    if (!modality || parseIsoDate(departureDate) === null) return;
    const proposed = addDays(departureDate, modality.returnDateConfiguration.addDays);
    const current = getValues('returnDate');
    if (returnFixed || parseIsoDate(current) === null || current < departureDate) {
      setValue('returnDate', proposed, { shouldValidate: returnFixed && current !== '' });
    }
  }, [departureDate, modality, returnFixed, getValues, setValue]);

  // Errors the API found (it checks everything again) appear beside their fields (the action names the field).
  useEffect(() => {
    for (const error of actionResult?.errors ?? []) {
      setError(error.field as keyof QuoterValues, { type: 'server', message: error.message });
    }
  }, [actionResult, setError]);

  const onValid = (values: QuoterValues) => {
    const submission: QuoterSubmission = {
      quotationId: quotation?.id ?? null,
      origin: Number(values.origin),
      modality: Number(values.modality),
      destination: Number(values.destination),
      departureDate: values.departureDate,
      returnDate: values.returnDate,
      passangerTypes: Object.entries(values.passengers)
        .filter(([, quantity]) => quantity > 0)
        .map(([passengerTypeId, quantity]) => ({ passengerTypeId: Number(passengerTypeId), quantity })),
      discountCode: values.discountCode.trim() || null,
      upgradeCovid: values.upgradeCovid,
      referralCode: props.referralCode ?? null,
      pantalla: props.pantalla,
    };
    submit(submission, { method: 'post', encType: 'application/json' });
  };

  const changePassengers = (typeId: number, delta: number) => {
    const current = getValues('passengers');
    const next = Math.max(0, (current[String(typeId)] ?? 0) + delta);
    setValue('passengers', { ...current, [String(typeId)]: next }, { shouldValidate: errors.passengers !== undefined });
  };

  const fieldError = (message: string | undefined, id: string) =>
    message ? (
      <p id={id} className="text-sm font-medium text-red-700" role="alert">
        {message}
      </p>
    ) : null;

  return (
    <form
      noValidate
      onSubmit={handleSubmit(onValid)}
      className="grid gap-4"
      aria-label="Cotizador de asistencia en viaje"
    >
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
            {...register('origin')}
          >
            {origins.map((origin) => (
              <option key={origin.id} value={origin.id}>
                {origin.label}
              </option>
            ))}
          </select>
          {fieldError(errors.origin?.message, `${ids.origin}-error`)}
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
            {...register('modality')}
          >
            {modalities.map((m) => (
              <option key={m.id} value={m.id}>
                {m.label}
              </option>
            ))}
          </select>
          {fieldError(errors.modality?.message, `${ids.modality}-error`)}
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
            {...register('destination')}
          >
            {destinations.map((destination) => (
              <option key={destination.id} value={destination.id}>
                {destination.label}
              </option>
            ))}
          </select>
          {fieldError(errors.destination?.message, `${ids.destination}-error`)}
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <Controller
          control={control}
          name="departureDate"
          render={({ field }) => (
            <DateField
              name="departureDate"
              label="Fecha de salida"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              min={today}
              max={addDays(today, 365)}
              error={errors.departureDate?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="returnDate"
          render={({ field }) => (
            <DateField
              name="returnDate"
              label="Fecha de regreso"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              min={parseIsoDate(departureDate) === null ? today : departureDate}
              max={lastDay}
              disabled={returnFixed}
              hint={returnFixed ? 'En la modalidad anual la cobertura dura 365 días desde la salida.' : undefined}
              error={errors.returnDate?.message}
            />
          )}
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
              </li>
            );
          })}
        </ul>
        {fieldError((errors.passengers as { message?: string } | undefined)?.message, 'quoter-passengers-error')}
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
            {...register('discountCode')}
          />
          {fieldError(errors.discountCode?.message, `${ids.code}-error`)}
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-brand-50 px-3 py-2.5">
          <input id={ids.covid} type="checkbox" className="h-5 w-5 accent-brand-700" {...register('upgradeCovid')} />
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
    </form>
  );
}
