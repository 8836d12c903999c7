import { type ReactNode, useId } from 'react';
import { Form, Link, useSubmit } from 'react-router';
import { useHydrated } from '#app/lib/hydrated.ts';
import type { PlanOrder } from './sortPlans.ts';

export type PlansView = 'tarjetas' | 'comparar';

/** `?vista=comparar` shows the table; anything else the cards. */
export function parsePlansView(value: string | null | undefined): PlansView {
  return value === 'comparar' ? 'comparar' : 'tarjetas';
}

/** `?diferencias=1` shows only the table's rows where the plans differ. */
export function parseOnlyDifferences(value: string | null | undefined): boolean {
  return value === '1';
}

/**
 * The search string for an order and a view (the cards are the default view and need no parameter), and, in the
 * table, whether only the rows where the plans differ are shown.
 */
export function plansSearch(order: PlanOrder, view: PlansView, onlyDifferences = false): string {
  const params = new URLSearchParams({ orden: order });
  if (view === 'comparar') params.set('vista', 'comparar');
  if (view === 'comparar' && onlyDifferences) params.set('diferencias', '1');
  return `?${params.toString()}`;
}

const orderLabels: Record<PlanOrder, string> = {
  precio: 'Precio (menor a mayor)',
  cobertura: 'Cobertura (mayor a menor)',
};

/**
 * «Ordenar por» and the cards/table switch. Both live in the URL (?orden=, ?vista=) so a reload or a shared link
 * keeps them; the order is a GET form that works without JavaScript (its «Aplicar» button is only needed then).
 */
export function PlansToolbar({
  order,
  view,
  onlyDifferences = false,
}: {
  order: PlanOrder;
  view: PlansView;
  onlyDifferences?: boolean;
}) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  const selectId = useId();
  const toggle = (target: PlansView, label: string, icon: ReactNode) => {
    const current = view === target;
    return (
      <Link
        to={plansSearch(order, target)}
        preventScrollReset
        replace
        aria-current={current ? 'true' : undefined}
        className={`inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold transition-colors ${
          current ? 'bg-brand-700 text-white shadow-sm' : 'text-slate-700 hover:bg-white hover:text-brand-700'
        }`}
      >
        {icon}
        {label}
      </Link>
    );
  };
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <Form method="get" preventScrollReset className="flex flex-wrap items-center gap-x-2 gap-y-1.5 sm:flex-nowrap">
        {view === 'comparar' ? <input type="hidden" name="vista" value="comparar" /> : null}
        {view === 'comparar' && onlyDifferences ? <input type="hidden" name="diferencias" value="1" /> : null}
        <label htmlFor={selectId} className="text-sm font-semibold text-slate-700">
          Ordenar por:
        </label>
        <select
          key={order}
          id={selectId}
          name="orden"
          defaultValue={order}
          onChange={(event) => submit(event.currentTarget.form, { replace: true, preventScrollReset: true })}
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-900 shadow-sm sm:w-auto"
        >
          {(Object.keys(orderLabels) as PlanOrder[]).map((value) => (
            <option key={value} value={value}>
              {orderLabels[value]}
            </option>
          ))}
        </select>
        {hydrated ? null : (
          <button
            type="submit"
            className="rounded-lg border border-brand-700 px-3 py-2 text-sm font-semibold text-brand-700"
          >
            Aplicar
          </button>
        )}
      </Form>
      <nav aria-label="Forma de ver los planes" className="inline-flex self-start rounded-xl bg-slate-100 p-1">
        {toggle(
          'tarjetas',
          'Ver tarjetas',
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M3 3h6v6H3V3Zm8 0h6v6h-6V3ZM3 11h6v6H3v-6Zm8 0h6v6h-6v-6Z" />
          </svg>,
        )}
        {toggle(
          'comparar',
          'Comparar planes',
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
            <path d="M2 4h16v2H2V4Zm0 5h16v2H2V9Zm0 5h16v2H2v-2Z" />
          </svg>,
        )}
      </nav>
    </div>
  );
}
