import { useId } from 'react';
import { useShellModals } from '#app/components/shell-modals-context.ts';
import { FieldError } from './FieldError.tsx';
import type { QuoterFieldsProps } from './quoter-values.ts';

/** The optional discount code and the covid upgrade (with its coverages in a modal). */
export function ExtrasFields({ values, errors, change }: QuoterFieldsProps) {
  const { openUpgrade } = useShellModals();
  const ids = { code: useId(), covid: useId() };
  return (
    <div className="grid gap-4 sm:grid-cols-2 sm:items-end">
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.code} className="text-sm font-semibold text-slate-700">
          Código de descuento <span className="font-normal text-slate-500">(opcional)</span>
        </label>
        <input
          id={ids.code}
          type="text"
          autoComplete="off"
          className="rounded-lg border border-slate-300 px-3 py-2.5 uppercase text-slate-900"
          aria-invalid={errors.discountCode ? true : undefined}
          aria-describedby={errors.discountCode ? `${ids.code}-error` : undefined}
          name="discountCode"
          value={values.discountCode}
          onChange={(event) => change('discountCode', event.target.value)}
        />
        <FieldError message={errors.discountCode} id={`${ids.code}-error`} />
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg bg-brand-50 px-3 py-2.5">
        <input
          id={ids.covid}
          type="checkbox"
          className="h-5 w-5 accent-brand-700"
          name="upgradeCovid"
          value="true"
          checked={values.upgradeCovid}
          onChange={(event) => change('upgradeCovid', event.target.checked)}
        />
        <label htmlFor={ids.covid} className="font-medium text-slate-800">
          Agregar upgrade COVID-19
        </label>
        <button type="button" onClick={openUpgrade} className="text-sm font-semibold text-brand-700 underline">
          Ver coberturas
        </button>
      </div>
    </div>
  );
}
