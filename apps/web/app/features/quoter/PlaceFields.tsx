import { useId } from 'react';
import { FieldError } from './FieldError.tsx';
import type { QuoterData, QuoterFieldsProps } from './quoter-values.ts';

const selectClass =
  'w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 aria-[invalid=true]:border-red-600';

type Option = { id: number | string; label: string };

function QuoterSelect({
  label,
  name,
  value,
  error,
  options,
  onChange,
}: {
  label: string;
  name: 'origin' | 'modality' | 'destination';
  value: string;
  error: string | undefined;
  options: Option[];
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold text-slate-700">
        {label}
      </label>
      <select
        id={id}
        className={selectClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldError message={error} id={`${id}-error`} />
    </div>
  );
}

/** Origin, modality and the destinations of that modality, side by side on a wide screen. */
export function PlaceFields({
  origins,
  modalities,
  destinations,
  values,
  errors,
  change,
}: QuoterFieldsProps & {
  origins: QuoterData['origins'];
  modalities: QuoterData['modalities'];
  destinations: Option[];
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-3">
      <QuoterSelect
        label="Origen"
        name="origin"
        value={values.origin}
        error={errors.origin}
        options={origins}
        onChange={(value) => change('origin', value)}
      />
      <QuoterSelect
        label="Modalidad"
        name="modality"
        value={values.modality}
        error={errors.modality}
        options={modalities}
        onChange={(value) => change('modality', value)}
      />
      <QuoterSelect
        label="Destino"
        name="destination"
        value={values.destination}
        error={errors.destination}
        options={destinations}
        onChange={(value) => change('destination', value)}
      />
    </div>
  );
}
