import { type ComponentProps, type ReactNode, useId } from 'react';

const controlClass =
  'w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-red-600 aria-[invalid=true]:bg-red-50/40 disabled:bg-slate-100';

/** A field's message: the error (announced) or a hint, tied to the control by aria-describedby. */
export function FieldMessage({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={id} role="alert" className="text-sm font-medium text-red-700">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={id} className="text-sm text-slate-500">
      {hint}
    </p>
  ) : null;
}

type FieldProps = { label: string; error?: string; hint?: ReactNode; optional?: boolean; className?: string };

function Label({ htmlFor, label, optional }: { htmlFor: string; label: string; optional?: boolean }) {
  return (
    <label htmlFor={htmlFor} className="text-sm font-semibold text-slate-700">
      {label}
      {optional ? <span className="font-normal text-slate-500"> (opcional)</span> : null}
    </label>
  );
}

/** A labelled text input; spread react-hook-form's register() into it. */
export function TextField({
  label,
  error,
  hint,
  optional,
  className,
  ...input
}: FieldProps & Omit<ComponentProps<'input'>, 'className'>) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ''}`}>
      <Label htmlFor={id} label={label} optional={optional} />
      <input
        id={id}
        type="text"
        className={controlClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...input}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

/** A labelled multi-line text field (5 rows unless told); spread react-hook-form's register() into it. */
export function TextAreaField({
  label,
  error,
  hint,
  optional,
  className,
  ...textarea
}: FieldProps & Omit<ComponentProps<'textarea'>, 'className'>) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ''}`}>
      <Label htmlFor={id} label={label} optional={optional} />
      <textarea
        id={id}
        rows={5}
        className={controlClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...textarea}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

/** A labelled select; spread react-hook-form's register() into it. */
export function SelectField({
  label,
  error,
  hint,
  optional,
  className,
  children,
  ...select
}: FieldProps & Omit<ComponentProps<'select'>, 'className'>) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className ?? ''}`}>
      <Label htmlFor={id} label={label} optional={optional} />
      <select
        id={id}
        className={controlClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        {...select}
      >
        {children}
      </select>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

/** A checkbox with its label beside it (the whole row is clickable). */
export function CheckboxField({
  label,
  error,
  className,
  ...input
}: { label: ReactNode; error?: string; className?: string } & Omit<ComponentProps<'input'>, 'className' | 'type'>) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={`flex flex-col gap-1 ${className ?? ''}`}>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId : undefined}
          {...input}
        />
        <label htmlFor={id} className="font-medium text-slate-800">
          {label}
        </label>
      </div>
      <FieldMessage id={messageId} error={error} />
    </div>
  );
}

/** A titled group of fields (a passenger, the emergency contact…). */
export function FormSection({
  title,
  description,
  children,
  headingLevel = 2,
}: {
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  headingLevel?: 2 | 3;
}) {
  const id = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6">
      <Heading id={id} className="text-lg font-bold text-slate-900">
        {title}
      </Heading>
      {description ? <p className="mt-0.5 text-sm text-slate-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Errors that belong to no single field (or that the API reported on the whole form). */
export function FormErrors({ messages, children }: { messages: string[]; children?: ReactNode }) {
  if (messages.length === 0 && !children) return null;
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
      {messages.length === 1 ? (
        <p className="font-semibold">{messages[0]}</p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 font-semibold">
          {messages.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      )}
      {children}
    </div>
  );
}

/** A step's submit button: «Guardando...» while the step is being saved, else its label with a forward arrow. */
export function ContinueButton({
  submitting,
  label,
  className = '',
}: {
  submitting: boolean;
  label: string;
  className?: string;
}) {
  return (
    <button
      type="submit"
      disabled={submitting}
      className={`flex items-center justify-center gap-2 rounded-xl bg-accent-700 px-6 py-3.5 text-lg font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70 ${className}`}
    >
      {submitting ? 'Guardando...' : label}
      {submitting ? null : (
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
          <path d="M11.3 4.3 10 5.6l3.4 3.4H3v2h10.4L10 14.4l1.3 1.3L17 10l-5.7-5.7Z" />
        </svg>
      )}
    </button>
  );
}
