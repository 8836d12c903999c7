import { emailMaxLength } from '@travesia/domain/rules';
import { Controller } from 'react-hook-form';
import { DateField } from '#app/components/DateField.tsx';
import { FormSection, SelectField, TextField } from '#app/components/fields.tsx';
import { AddOnChoices } from './AddOnChoices.tsx';
import { bandLabel, birthDateRange } from './format.ts';
import { PassengerDocumentFields } from './PassengerDocumentFields.tsx';
import type { AddOnOffer, PassengerSlot } from './passengers-fields.ts';
import { genders } from './passengers-fields.ts';
import type { PassengersSectionProps } from './passengers-form.ts';

/** DateField (the quoter's) marks an invalid date with aria-invalid only: give it the other fields' red border. */
const invalidDateClass =
  '[&_input[aria-invalid=true]]:border-red-600 [&_input[aria-invalid=true]]:bg-red-50/40 [&_input[aria-invalid=true]+button]:border-red-600';

/** One quoted passenger's block: name, birth date (within the band), gender, nationality and document, contact. */
export function PassengerSection({
  form,
  errors,
  errorOf,
  slot,
  index,
  departureDate,
  today,
  start,
  documentType,
  offers,
}: PassengersSectionProps & {
  offers: AddOnOffer[];
  slot: PassengerSlot;
  index: number;
  departureDate: string;
  today: string;
  documentType: string;
}) {
  const saved = start.passengers[index];
  const { register, control } = form;
  const at = `passengers.${index}` as const;
  const errs = errors.passengers?.[index];
  const section = `section-pasajero-${index + 1}`;
  const range = birthDateRange(slot, departureDate, today);
  return (
    <FormSection
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
        <PassengerDocumentFields
          form={form}
          errors={errs}
          errorOf={errorOf}
          index={index}
          saved={saved}
          documentType={documentType}
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
      <AddOnChoices
        form={form}
        errors={errors}
        errorOf={errorOf}
        start={start}
        slot={slot}
        index={index}
        offers={offers}
      />
    </FormSection>
  );
}
