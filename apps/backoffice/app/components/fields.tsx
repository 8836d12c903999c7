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
