import { parseIsoDate } from '@travesia/domain/dates';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { fromChileanDate, toChileanDate } from '#app/lib/dates.ts';

/** The calendar is fetched when the visitor points at, focuses or presses its button, not with the page. */
const loadCalendar = () => import('./CalendarPopover.tsx');
const CalendarPopover = lazy(loadCalendar);
const preloadCalendar = () => void loadCalendar().catch(() => undefined);

const isoToLocalDate = (iso: string) => {
  const [y = 0, m = 1, d = 1] = iso.split('-').map(Number);
  return new Date(y, m - 1, d);
};
const localDateToIso = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

type Props = {
  label: string;
  /** ISO date, '' when empty, or the raw text when what was typed is not a date (validation reports it). */
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  /**
   * The calendar's first and last days (ISO), read only once the calendar is wanted. A function when working the
   * day out is costly: the quoter's «today in Chile» needs the browser's time-zone data, ~20–90 ms on a phone the
   * first time, which hydrating the page should not wait for.
   */
  min: string | (() => string);
  max: string | (() => string);
  disabled?: boolean;
  error?: string;
  hint?: string;
  name: string;
};

/**
 * A date field Chileans can type (dd-mm-aaaa) or pick from a calendar in Spanish (react-day-picker, keyboard
 * navigable, with Spanish labels for screen readers). The calendar (CalendarPopover.tsx) loads on first use.
 */
export function DateField({ label, value, onChange, onBlur, min, max, disabled, error, hint, name }: Props) {
  const inputId = useId();
  const messageId = useId();
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on (never on the server): until then the button alone is rendered.
  const [calendarWanted, setCalendarWanted] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const [text, setText] = useState(() => (parseIsoDate(value) === null ? value : toChileanDate(value)));

  // Follow outside changes (a fixed return date, a reset) without fighting what the visitor is typing.
  useEffect(() => {
    if (parseIsoDate(value) !== null) setText(toChileanDate(value));
    else if (value === '') setText('');
  }, [value]);

  const selected = parseIsoDate(value) === null ? undefined : isoToLocalDate(value);
  const describedBy = error || hint ? messageId : undefined;

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="text-sm font-semibold text-slate-700">
        {label}
      </label>
      <div className="flex">
        <input
          id={inputId}
          name={name}
          type="text"
          inputMode="numeric"
          placeholder="dd-mm-aaaa"
          autoComplete="off"
          value={text}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            const iso = fromChileanDate(event.target.value);
            onChange(iso ?? event.target.value.trim());
          }}
          onBlur={onBlur}
          className="min-w-0 flex-1 rounded-l-lg border border-slate-300 px-3 py-2.5 text-slate-900 disabled:bg-slate-100 disabled:text-slate-600"
        />
        <button
          ref={button}
          type="button"
          disabled={disabled}
          className="rounded-r-lg border border-l-0 border-slate-300 px-3 text-brand-700 hover:bg-brand-50 disabled:text-slate-400"
          aria-label={`Abrir calendario: ${label}`}
          aria-haspopup="dialog"
          aria-expanded={open}
          data-state={open ? 'open' : 'closed'}
          onPointerEnter={preloadCalendar}
          onFocus={preloadCalendar}
          onClick={() => {
            setCalendarWanted(true);
            setOpen(!open);
          }}
        >
          <svg
            aria-hidden="true"
            width="20"
            height="20"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M3 10h18M8 3v4M16 3v4" />
          </svg>
        </button>
        {calendarWanted ? (
          <Suspense fallback={null}>
            <CalendarPopover
              anchor={button}
              open={open}
              onOpenChange={setOpen}
              label={label}
              selected={selected}
              min={isoToLocalDate(typeof min === 'function' ? min() : min)}
              max={isoToLocalDate(typeof max === 'function' ? max() : max)}
              onSelect={(date) => {
                onChange(localDateToIso(date));
                setOpen(false);
              }}
            />
          </Suspense>
        ) : null}
      </div>
      {error ? (
        <p id={messageId} className="text-sm font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
