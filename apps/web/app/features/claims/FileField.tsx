import { type ComponentProps, type ReactNode, useId, useRef, useState } from 'react';
import { FieldMessage } from '#app/components/fields.tsx';
import { useHydrated } from '#app/lib/hydrated.ts';

/** What the field says it holds, in Spanish whatever the browser's language («No file chosen» in an English one). */
export function chosenFilesText(names: string[]): string {
  if (names.length === 0) return 'Ningún archivo elegido';
  if (names.length === 1) return names[0] ?? '';
  return `${names.length} archivos: ${names.join(', ')}`;
}

/**
 * A labelled file input for supporting documents (PDF, JPG, PNG), with its limits as a hint. Once the page runs its
 * JavaScript the browser's own control (whose button and «no file» text follow the browser's language) is replaced
 * by the store's: «Elegir archivos» and the names chosen, in Spanish. The real input stays in the tab order, visually
 * hidden, so the keyboard, screen readers and the form post are the browser's; without JavaScript it stays as it is.
 */
export function FileField({
  label,
  error,
  hint,
  onChange,
  ...input
}: { label: string; error?: string; hint?: ReactNode } & Omit<ComponentProps<'input'>, 'className' | 'type'>) {
  const id = useId();
  const messageId = `${id}-message`;
  const chosenId = `${id}-chosen`;
  const inputRef = useRef<HTMLInputElement>(null);
  const enhanced = useHydrated();
  const [names, setNames] = useState<string[]>([]);
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold text-slate-700">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        type="file"
        className={
          enhanced
            ? 'peer sr-only'
            : 'w-full min-w-0 rounded-lg border border-dashed border-slate-400 bg-slate-50 px-3 py-3 text-sm text-slate-800 file:mr-3 file:rounded-md file:border-0 file:bg-brand-700 file:px-3 file:py-1.5 file:font-semibold file:text-white aria-[invalid=true]:border-red-600'
        }
        aria-invalid={error ? true : undefined}
        aria-describedby={enhanced ? `${chosenId} ${messageId}` : messageId}
        onChange={(event) => {
          setNames(Array.from(event.currentTarget.files ?? [], (file) => file.name));
          onChange?.(event);
        }}
        {...input}
      />
      {enhanced ? (
        // The pointer's way in; the keyboard reaches the input itself, whose focus ring this box shows.
        <div
          className={`flex min-w-0 items-center gap-3 rounded-lg border border-dashed bg-slate-50 px-3 py-3 text-sm text-slate-800 peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-700 ${error ? 'border-red-600' : 'border-slate-400'}`}
        >
          <button
            type="button"
            tabIndex={-1}
            aria-hidden="true"
            className="shrink-0 rounded-md bg-brand-700 px-3 py-1.5 font-semibold text-white hover:bg-brand-800"
            onClick={() => inputRef.current?.click()}
          >
            Elegir archivos
          </button>
          <span id={chosenId} aria-live="polite" className="min-w-0 break-words">
            {chosenFilesText(names)}
          </span>
        </div>
      ) : null}
      {error ? <FieldMessage id={messageId} error={error} /> : null}
      <p id={error ? undefined : messageId} className="text-sm text-slate-600">
        {hint}
      </p>
    </div>
  );
}
