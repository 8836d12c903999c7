import { CopyButton } from './CopyButton.tsx';

/**
 * A value the API shows once (an enrolment link, an API key's secret): in a read-only field to select and copy,
 * with «Copiar» once scripts run, and a warning that it will not be shown again.
 */
export function OneTimeValue({ id, label, value }: { id: string; label: string; value: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          readOnly
          value={value}
          className="field-input mt-0 min-w-0 flex-1 font-mono"
          aria-describedby={`${id}-aviso`}
        />
        <CopyButton text={value} />
      </div>
      <p id={`${id}-aviso`} className="field-hint">
        Se muestra solo esta vez: cópialo ahora.
      </p>
    </div>
  );
}
