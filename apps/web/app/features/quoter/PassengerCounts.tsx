import { maxPassengers } from '@travesia/domain/limits';
import { useId } from 'react';
import { FieldError } from './FieldError.tsx';
import { passengerFieldPrefix } from './fields.ts';
import type { PassengerTypes } from './quoter-values.ts';

/**
 * The passenger − / + buttons. At 0 (or at the maximum) they are aria-disabled, not disabled: a disabled button
 * loses the keyboard focus, which would drop to the page; this one keeps it and ignores the press.
 */
const stepperClass =
  'h-8 w-8 rounded-full border border-slate-300 text-lg leading-none text-brand-700 hover:bg-white aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent';

/**
 * The passengers by age band: number inputs as the server renders them (they post without JavaScript), − / +
 * steppers once the page is interactive (`enhanced`).
 */
export function PassengerCounts({
  passengerTypes,
  passengers,
  totalPassengers,
  error,
  enhanced,
  changePassengers,
}: {
  passengerTypes: PassengerTypes;
  passengers: Record<string, number>;
  totalPassengers: number;
  error: string | undefined;
  enhanced: boolean;
  changePassengers: (typeId: number, delta: number) => void;
}) {
  const idPrefix = useId();
  return (
    <fieldset
      className="rounded-xl border border-slate-200 p-3"
      aria-describedby={error ? 'quoter-passengers-error' : undefined}
    >
      <legend className="px-1 text-sm font-semibold text-slate-700">
        Pasajeros <span className="font-normal text-slate-500">(hasta {maxPassengers})</span>
      </legend>
      <ul className="grid gap-2 sm:grid-cols-3">
        {passengerTypes.map((type) => {
          const count = passengers[String(type.id)] ?? 0;
          return (
            <li key={type.id} className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
              {enhanced ? (
                <>
                  <span className="text-sm text-slate-700">{type.label}</span>
                  <span className="flex items-center gap-2">
                    <button
                      type="button"
                      className={stepperClass}
                      onClick={() => {
                        if (count > 0) changePassengers(type.id, -1);
                      }}
                      aria-disabled={count === 0}
                      aria-label={`Quitar ${type.label.toLowerCase()}`}
                    >
                      −
                    </button>
                    <output
                      className="w-5 text-center font-semibold"
                      aria-live="polite"
                      aria-label={`${type.label}: ${count}`}
                    >
                      {count}
                    </output>
                    <button
                      type="button"
                      className={stepperClass}
                      onClick={() => {
                        if (totalPassengers < maxPassengers) changePassengers(type.id, 1);
                      }}
                      aria-disabled={totalPassengers >= maxPassengers}
                      aria-label={`Agregar ${type.label.toLowerCase()}`}
                    >
                      +
                    </button>
                  </span>
                </>
              ) : (
                <>
                  <label htmlFor={`${idPrefix}-${type.id}`} className="text-sm text-slate-700">
                    {type.label}
                  </label>
                  {/* As wide as the − n + stepper it becomes, so the row keeps its height on hydration. */}
                  <input
                    id={`${idPrefix}-${type.id}`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={maxPassengers}
                    name={`${passengerFieldPrefix}${type.id}`}
                    defaultValue={count}
                    className="h-8 w-[100px] shrink-0 rounded-lg border border-slate-300 bg-white px-2 text-center font-semibold text-slate-900"
                  />
                </>
              )}
            </li>
          );
        })}
      </ul>
      <FieldError message={error} id="quoter-passengers-error" />
    </fieldset>
  );
}
