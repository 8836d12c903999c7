import type { InputHTMLAttributes, ReactNode } from 'react';

type TextFieldProps = {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name'>;

/** A labelled input whose hint and error are read with it (aria-describedby) and whose error marks it invalid. */
export function TextField({ name, label, error, hint, id, ...input }: TextFieldProps) {
  const fieldId = id ?? `campo-${name}`;
  const hintId = hint ? `${fieldId}-ayuda` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={fieldId} className="field-label">
        {label}
      </label>
      <input
        id={fieldId}
        name={name}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The hidden CSRF field every state-changing form of the console carries (the action sends it as X-CSRF-Token). */
export function CsrfField({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}

/** A labelled choice among `options`, the first one («Todas») standing for no choice. */
export function SelectField({
  name,
  label,
  options,
  defaultValue,
  id,
}: {
  name: string;
  label: string;
  options: readonly { value: string; label: string }[];
  defaultValue: string;
  id?: string;
}) {
  const fieldId = id ?? `campo-${name}`;
  return (
    <div>
      <label htmlFor={fieldId} className="field-label">
        {label}
      </label>
      <select id={fieldId} name={name} defaultValue={defaultValue} className="field-input">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * A group of checkboxes under one legend (a plan's modalities, an add-on's age bands), each with its label; the hint
 * and error are read with the group (aria-describedby) and the error marks it.
 */
export function CheckboxGroup({
  legend,
  name,
  choices,
  checked,
  disabled = false,
  error,
  hint,
  id,
}: {
  legend: string;
  name: string;
  choices: readonly { id: number; label: string }[];
  checked: readonly number[];
  disabled?: boolean;
  error?: string | undefined;
  hint?: string;
  id?: string;
}) {
  const groupId = id ?? `grupo-${name}`;
  const describedBy = [hint ? `${groupId}-ayuda` : '', error ? `${groupId}-error` : ''].filter(Boolean).join(' ');
  return (
    <fieldset id={groupId} className="space-y-1" aria-describedby={describedBy || undefined}>
      <legend className="field-label">{legend}</legend>
      {hint ? (
        <p id={`${groupId}-ayuda`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {choices.map((choice) => (
        <label key={choice.id} className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name={name}
            value={choice.id}
            defaultChecked={checked.includes(choice.id)}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
          />
          {choice.label}
        </label>
      ))}
      {error ? (
        <p id={`${groupId}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
