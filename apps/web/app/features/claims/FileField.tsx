import { type ComponentProps, type ReactNode, useId } from 'react';
import { FieldMessage } from '#app/components/fields.tsx';

/** A labelled file input for supporting documents (PDF, JPG, PNG), with its limits as a hint. */
export function FileField({
  label,
  error,
  hint,
  ...input
}: { label: string; error?: string; hint?: ReactNode } & Omit<ComponentProps<'input'>, 'className' | 'type'>) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="file"
        className="w-full min-w-0 rounded-lg border border-dashed border-slate-400 bg-slate-50 px-3 py-3 text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-1.5 file:font-semibold file:text-white aria-[invalid=true]:border-red-600"
        aria-invalid={error ? true : undefined}
        aria-describedby={messageId}
        {...input}
      />
      {error ? <FieldMessage id={messageId} error={error} /> : null}
      <p id={error ? undefined : messageId} className="text-sm text-slate-600">
        {hint}
      </p>
    </div>
  );
}
