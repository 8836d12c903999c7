import { addOnPriceLabel, addOnRows, type Band, unavailableBandsLabel } from './addOns.ts';
import { listInSpanish } from './format.ts';
import type { PlanAddOn } from './types.ts';

type WithAddOns = { id: number; label: string; adicionales: PlanAddOn[] };

/**
 * A plan card's add-ons (issue 27 §1): «Adicionales disponibles», each with its price per traveller and, behind a
 * <details> (no script), what it covers and who cannot take it; then the add-ons other plans of the page offer that this
 * one cannot take, which is what changes the choice. Nothing when no plan of the page offers any.
 */
export function PlanAddOns({
  plan,
  missing,
  bands,
  className = '',
}: {
  plan: WithAddOns;
  /** Names of the add-ons other plans offer and this one cannot take. */
  missing: readonly string[];
  bands: readonly Band[];
  className?: string;
}) {
  if (plan.adicionales.length === 0 && missing.length === 0) return null;
  const headingId = `plan-${plan.id}-adicionales`;
  return (
    <section aria-labelledby={headingId} className={`text-sm ${className}`} data-testid="plan-add-ons">
      <h4 id={headingId} className="mb-2 font-bold text-slate-900">
        Adicionales disponibles
      </h4>
      {plan.adicionales.length > 0 ? (
        <ul className="space-y-1.5">
          {plan.adicionales.map((addOn) => {
            const limit = unavailableBandsLabel(addOn, bands);
            return (
              <li key={addOn.id}>
                <details>
                  <summary className="cursor-pointer text-slate-800">
                    <span className="font-semibold">{addOn.name}</span>{' '}
                    <span className="block pl-4 text-slate-700">{addOnPriceLabel(addOn)}</span>
                  </summary>
                  <p className="mt-1 pl-4 text-slate-700">{addOn.description}</p>
                  {limit ? <p className="mt-1 pl-4 text-slate-600">{limit}.</p> : null}
                </details>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-slate-700">Este plan no admite adicionales para tu viaje.</p>
      )}
      {missing.length > 0 ? (
        <p className="mt-2 font-medium text-amber-900" data-testid="plan-add-ons-missing">
          No disponible con este plan: {listInSpanish(missing)}.
        </p>
      ) : null}
      {plan.adicionales.length > 0 ? (
        <p className="mt-2 text-xs text-slate-600">Los eliges para cada viajero al comprar.</p>
      ) : null}
    </section>
  );
}

/**
 * The comparison table's add-on rows: one per add-on any plan offers, with each plan's price per traveller or «No
 * disponible con este plan». Its own row group, so «only the differences» (benefits) leaves it whole.
 */
export function AddOnRowGroup({
  plans,
  bands,
  headerClassName,
}: {
  plans: readonly WithAddOns[];
  bands: readonly Band[];
  /** The sticky first column's classes, as the table's other row headers. */
  headerClassName: string;
}) {
  const rows = addOnRows(plans);
  if (rows.length === 0) return null;
  return (
    <tbody data-add-ons="">
      <tr>
        <th
          scope="rowgroup"
          className={`${headerClassName} border-b border-slate-200 bg-brand-50 p-2.5 align-top font-bold text-brand-900 sm:p-3`}
        >
          Adicionales por viajero
        </th>
        <td
          colSpan={plans.length}
          className="border-b border-slate-200 bg-brand-50 p-2.5 text-xs text-slate-700 sm:p-3"
        >
          Los eliges para cada viajero al comprar.
        </td>
      </tr>
      {rows.map((row) => (
        <tr key={row.id} className="bg-white">
          <th
            scope="row"
            className={`${headerClassName} border-b border-slate-100 bg-white p-2.5 align-top font-medium text-slate-800 sm:p-3`}
          >
            {/* The name as plain text: it names the row for a screen reader in any of its cells. */}
            {row.name}
            <details className="mt-1 text-xs font-normal">
              <summary className="cursor-pointer font-semibold text-brand-700 underline">¿Qué cubre?</summary>
              <p className="mt-1 text-slate-700">{row.description}</p>
            </details>
          </th>
          {row.offers.map((offer, column) => {
            const limit = offer ? unavailableBandsLabel(offer, bands) : null;
            return (
              <td
                key={plans[column]?.id ?? column}
                className="border-b border-l border-slate-100 p-2.5 align-top text-slate-900 sm:p-3"
              >
                {offer ? (
                  <>
                    <span className="font-semibold">{addOnPriceLabel(offer)}</span>
                    {limit ? <span className="mt-1 block text-xs text-slate-600"> {limit}</span> : null}
                  </>
                ) : (
                  <span className="font-medium text-amber-900">No disponible con este plan</span>
                )}
              </td>
            );
          })}
        </tr>
      ))}
    </tbody>
  );
}
