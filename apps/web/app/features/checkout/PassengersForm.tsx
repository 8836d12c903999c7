import { zodResolver } from '@hookform/resolvers/zod';
import { todayInChile } from '@travesia/domain/dates';
import { emailMaxLength } from '@travesia/domain/rules';
import { useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigation, useSubmit } from 'react-router';
import { DateField } from '#app/components/DateField.tsx';
import {
  CheckboxField,
  ContinueButton,
  FormErrors,
  FormSection,
  SelectField,
  TextField,
} from '#app/components/fields.tsx';
import { bandLabel, birthDateRange } from './format.ts';
import {
  type ContactValues,
  type Country,
  documentTypeFor,
  documentTypes,
  genders,
  nationalities,
  type PassengerSlot,
  type PassengersValues,
  passengersSchema,
  tidyDocument,
} from './passengers-schema.ts';
import type { PassengersFailure } from './passengers-step.server.ts';
import { useSubmissionErrors } from './posted-form.ts';

/** DateField (the quoter's) marks an invalid date with aria-invalid only: give it the other fields' red border. */
const invalidDateClass =
  '[&_input[aria-invalid=true]]:border-red-600 [&_input[aria-invalid=true]]:bg-red-50/40 [&_input[aria-invalid=true]+button]:border-red-600';

type Props = {
  slots: PassengerSlot[];
  countries: Country[];
  departureDate: string;
  initialValues: PassengersValues;
  actionResult: PassengersFailure | undefined;
};

/**
 * «Datos de los pasajeros»: one block per quoted passenger (youngest band first), the emergency contact (shared or
 * one per passenger), the destination country and the terms. Checked here first; the route action saves it.
 * A real form posting to its route: without JavaScript (or before it loads) it submits natively and the server
 * renders the values and errors; every input carries its value in the HTML (defaultValue), a resumed checkout too.
 */
export function PassengersForm({ slots, countries, departureDate, initialValues, actionResult }: Props) {
  const today = todayInChile();
  const schema = useMemo(() => passengersSchema(slots, departureDate), [slots, departureDate]);
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const formRef = useRef<HTMLFormElement>(null);
  // What the inputs show first: what was just posted and refused, else what was saved (or empty passengers).
  const [start] = useState(() => actionResult?.values ?? initialValues);

  const {
    register,
    control,
    handleSubmit,
    watch,
    setValue,
    setError,
    getValues,
    trigger,
    getFieldState,
    formState: { errors },
  } = useForm<PassengersValues>({
    resolver: zodResolver(schema),
    defaultValues: start,
    mode: 'onTouched',
  });

  const shared = watch('shareEmergencyContact');
  const passengers = watch('passengers');

  // What the server found (it checks everything again) appears beside its field.
  const { errorOf, serverHasErrors } = useSubmissionErrors(actionResult, setError);

  // Checked here, then posted as the form itself: the action reads the same fields as a submission without JS.
  const onValid = () => {
    if (formRef.current) submit(formRef.current);
  };

  const passengerName = (index: number) => {
    const p = passengers[index];
    const name = `${p?.firstName ?? ''} ${p?.lastName ?? ''}`.trim();
    return name || null;
  };

  return (
    <form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={handleSubmit(onValid)}
      className="grid gap-5"
      aria-label="Datos de los pasajeros"
    >
      {slots.map((slot, index) => {
        const at = `passengers.${index}` as const;
        const errs = errors.passengers?.[index];
        const saved = start.passengers[index];
        const section = `section-pasajero-${index + 1}`;
        const documentType = passengers[index]?.document.type ?? '1';
        const range = birthDateRange(slot, departureDate, today);
        return (
          <FormSection
            // biome-ignore lint/suspicious/noArrayIndexKey: a passenger slot is its position (names may repeat; the list never reorders)
            key={`${slot.passengerTypeId}-${index}`}
            title={
              <>
                Pasajero {index + 1} <span className="font-normal text-slate-500">· {bandLabel(slot)}</span>
              </>
            }
            description="Tal como aparecen en su documento de identidad."
          >
            <div className="grid grid-cols-2 gap-4 sm:grid-cols-6">
              <TextField
                className="col-span-2 sm:col-span-3"
                label="Nombre"
                autoComplete={`${section} given-name`}
                error={errorOf(`${at}.firstName`, errs?.firstName?.message)}
                defaultValue={saved?.firstName}
                {...register(`${at}.firstName`)}
              />
              <TextField
                className="col-span-2 sm:col-span-3"
                label="Apellido"
                autoComplete={`${section} family-name`}
                error={errorOf(`${at}.lastName`, errs?.lastName?.message)}
                defaultValue={saved?.lastName}
                {...register(`${at}.lastName`)}
              />
              <div className={`col-span-2 sm:col-span-3 ${invalidDateClass}`}>
                <Controller
                  control={control}
                  name={`${at}.birthDate`}
                  render={({ field }) => (
                    <DateField
                      name={field.name}
                      label="Fecha de nacimiento"
                      value={field.value}
                      onChange={field.onChange}
                      onBlur={field.onBlur}
                      min={range.min}
                      max={range.max}
                      error={errorOf(`${at}.birthDate`, errs?.birthDate?.message)}
                    />
                  )}
                />
              </div>
              <SelectField
                className="col-span-2 sm:col-span-3"
                label="Género"
                error={errorOf(`${at}.gender`, errs?.gender?.message)}
                defaultValue={saved?.gender}
                {...register(`${at}.gender`)}
              >
                <option value="" disabled>
                  Selecciona
                </option>
                {genders.map((g) => (
                  <option key={g.id} value={g.id}>
                    {g.label}
                  </option>
                ))}
              </SelectField>
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
                      if (
                        getValues(`${at}.document.id`).trim() !== '' ||
                        getFieldState(`${at}.document.id`).isTouched
                      ) {
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
              <TextField
                className="col-span-2 sm:col-span-3"
                label="E-mail"
                type="email"
                inputMode="email"
                autoComplete={`${section} email`}
                maxLength={emailMaxLength}
                error={errorOf(`${at}.email`, errs?.email?.message)}
                defaultValue={saved?.email}
                hint="Aquí enviaremos su certificado."
                {...register(`${at}.email`)}
              />
              <TextField
                className="col-span-2 sm:col-span-3"
                label="Teléfono"
                type="tel"
                inputMode="tel"
                autoComplete={`${section} tel`}
                placeholder="+56 9 1234 5678"
                error={errorOf(`${at}.phone`, errs?.phone?.message)}
                defaultValue={saved?.phone}
                {...register(`${at}.phone`)}
              />
            </div>
          </FormSection>
        );
      })}

      <FormSection
        title="Contacto de emergencia"
        description="La persona a quien avisaremos si algo ocurre durante el viaje. Idealmente, alguien que no viaje."
      >
        {slots.length > 1 ? (
          <CheckboxField
            className="mb-4"
            label="Usar el mismo contacto de emergencia para todos los pasajeros"
            defaultChecked={start.shareEmergencyContact}
            {...register('shareEmergencyContact')}
          />
        ) : null}
        {shared ? (
          <ContactFields
            prefix="emergencyContact"
            errors={errors.emergencyContact}
            values={start.emergencyContact}
            errorOf={errorOf}
            register={register}
            autoCompleteSection="section-emergencia"
          />
        ) : (
          <div className="grid gap-4">
            {slots.map((slot, index) => (
              <fieldset
                // biome-ignore lint/suspicious/noArrayIndexKey: a passenger slot is its position (names may repeat; the list never reorders)
                key={`${slot.passengerTypeId}-${index}`}
                className="rounded-xl border border-slate-200 p-3 sm:p-4"
              >
                <legend className="px-1 text-sm font-bold text-slate-800">
                  Contacto de emergencia del pasajero {index + 1}
                  {passengerName(index) ? (
                    <span className="font-normal text-slate-500"> · {passengerName(index)}</span>
                  ) : null}
                </legend>
                <ContactFields
                  prefix={`passengers.${index}.emergencyContact`}
                  errors={errors.passengers?.[index]?.emergencyContact}
                  values={start.passengers[index]?.emergencyContact}
                  errorOf={errorOf}
                  register={register}
                  autoCompleteSection={`section-emergencia-${index + 1}`}
                />
              </fieldset>
            ))}
          </div>
        )}
      </FormSection>

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

      <div className="grid gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6">
        <CheckboxField
          error={errorOf('acceptTerms', errors.acceptTerms?.message)}
          defaultChecked={start.acceptTerms}
          label={
            <>
              Acepto los{' '}
              <Link
                to="/terminos"
                target="_blank"
                rel="noopener"
                className="font-semibold text-brand-700 underline underline-offset-2"
              >
                términos y condiciones
                <span className="sr-only"> (se abre en una pestaña nueva)</span>
              </Link>
            </>
          }
          {...register('acceptTerms')}
        />
        <FormErrors messages={actionResult?.formErrors ?? []} />
        {(Object.keys(errors).length > 0 || serverHasErrors) && !actionResult?.formErrors.length ? (
          <p className="text-sm font-medium text-red-700">Revisa los campos marcados para continuar.</p>
        ) : null}
        <ContinueButton
          submitting={submitting}
          label="Continuar a facturación"
          className="w-full sm:w-auto sm:justify-self-end"
        />
      </div>
    </form>
  );
}

type ContactErrors = {
  firstName?: { message?: string };
  lastName?: { message?: string };
  phone?: { message?: string };
};

function ContactFields({
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
  errorOf: (field: string, client: string | undefined) => string | undefined;
  register: ReturnType<typeof useForm<PassengersValues>>['register'];
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
