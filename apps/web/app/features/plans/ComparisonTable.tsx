import { Link } from 'react-router';
import { AddOnRowGroup } from './AddOns.tsx';
import type { Band } from './addOns.ts';
import { ChoosePlanForm } from './ChoosePlanForm.tsx';
import { ConditionsLink } from './ConditionsLink.tsx';
import { comparatorBadges, PlanBadges, planColor } from './PlanBadges.tsx';
import { PriceBlock } from './PriceBlock.tsx';
import { benefitRows, differingRows } from './sortPlans.ts';
import type { ComparatorPlan } from './types.ts';

const stickyCell = 'sticky left-0 z-10 shadow-[1px_0_0_0_var(--color-slate-200)]';

/**
 * Plans side by side: one column per plan (name, badges, prices, «Elegir»), one row per benefit of any plan («—» when
 * a plan lacks it), or only the rows where the plans differ (a link in the URL, ?diferencias=1, so it works without
 * JavaScript and a shared link keeps it). On a narrow screen the table scrolls sideways inside its own box with the
 * benefit column kept in view; the page itself never scrolls sideways. Below the benefits, one row per add-on any plan
 * offers (issue 27 §1): its price per traveller on each plan, or «No disponible con este plan».
 */
export function ComparisonTable({
  plans,
  caption,
  onlyDifferences = false,
  allRowsSearch,
  differencesSearch,
  bands = [],
}: {
  plans: ComparatorPlan[];
  /** The site's age bands, to say who cannot take an add-on. */
  bands?: readonly Band[];
  caption: string;
  onlyDifferences?: boolean;
  /** Where the «every row» and «only differences» links lead (the page's order kept). */
  allRowsSearch: string;
  differencesSearch: string;
}) {
  const allRows = benefitRows(plans);
  const differing = differingRows(allRows);
  const rows = onlyDifferences ? differing : allRows;
  const alike = allRows.length - differing.length;
  return (
    <div>
      {plans.length > 1 && alike > 0 ? (
        <p className="mb-3 text-sm text-slate-700">
          {onlyDifferences ? (
            <>
              {alike === 1
                ? 'Ocultamos 1 prestación igual en todos los planes. '
                : `Ocultamos ${alike} prestaciones iguales en todos los planes. `}
              <Link to={allRowsSearch} preventScrollReset replace className="font-semibold text-brand-700 underline">
                Ver todas las prestaciones
              </Link>
            </>
          ) : (
            <Link to={differencesSearch} preventScrollReset replace className="font-semibold text-brand-700 underline">
              Ver solo las diferencias entre planes
            </Link>
          )}
        </p>
      ) : null}
      <p className="mb-2 text-sm text-slate-600 md:hidden" aria-hidden="true">
        Desliza la tabla hacia el lado para ver todos los planes →
      </p>
      {/* A scrollable region must be reachable (and scrollable) by keyboard. */}
      <section
        aria-label="Tabla comparativa de planes (desplazable)"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: axe's scrollable-region-focusable wants it reachable by keyboard
        tabIndex={0}
        className="relative overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm"
      >
        <table className="w-full min-w-max border-separate border-spacing-0 text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead>
            <tr>
              <td
                className={`${stickyCell} w-32 min-w-32 bg-white border-b border-slate-200 p-2.5 sm:w-56 sm:min-w-56 sm:p-3`}
              />
              {plans.map((plan) => (
                <th
                  key={plan.id}
                  scope="col"
                  className="w-40 min-w-40 border-b border-l border-slate-200 p-2.5 align-top font-normal sm:w-52 sm:min-w-52 sm:p-3"
                  style={{ borderTop: `4px solid ${planColor(plan)}` }}
                >
                  <span className="block text-base font-extrabold" style={{ color: plan.colorTitulo }}>
                    {plan.label}
                  </span>
                  {plan.paraQuien ? <span className="mt-1 block text-xs text-slate-700">{plan.paraQuien}</span> : null}
                  <PlanBadges badges={comparatorBadges(plan)} className="mt-2" />
                  <ConditionsLink plan={plan} className="mt-2 inline-block text-xs text-brand-700 underline" />
                </th>
              ))}
            </tr>
            <tr>
              <th
                scope="row"
                className={`${stickyCell} border-b border-slate-200 bg-slate-50 p-2.5 align-top font-semibold text-slate-900 sm:p-3`}
              >
                Total a pagar
              </th>
              {plans.map((plan) => (
                <td key={plan.id} className="border-b border-l border-slate-200 bg-slate-50 p-2.5 align-top sm:p-3">
                  <PriceBlock plan={plan} compact />
                  <ChoosePlanForm planId={plan.id} planLabel={plan.label} label="Elegir" className="mt-3" />
                </td>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.label} className={index % 2 === 1 ? 'bg-slate-50' : 'bg-white'}>
                <th
                  scope="row"
                  className={`${stickyCell} ${index % 2 === 1 ? 'bg-slate-50' : 'bg-white'} border-b border-slate-100 p-2.5 align-top font-medium text-slate-800 sm:p-3`}
                >
                  {row.label}
                </th>
                {row.limits.map((limit, column) => (
                  <td
                    key={plans[column]?.id ?? column}
                    className="border-b border-l border-slate-100 p-2.5 align-top text-slate-900 sm:p-3"
                  >
                    {limit ?? (
                      <>
                        <span aria-hidden="true" className="text-slate-400">
                          —
                        </span>
                        <span className="sr-only">No incluida</span>
                      </>
                    )}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
          <AddOnRowGroup plans={plans} bands={bands} headerClassName={stickyCell} />
        </table>
      </section>
    </div>
  );
}
