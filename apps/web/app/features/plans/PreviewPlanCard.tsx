import {
  discountPercent,
  instalmentsLabel,
  money,
  perPassengerPerDayLabel,
  previewFormats,
  taxTreatment,
} from './format.ts';
import { PlanBadges, previewBadges } from './PlanBadges.tsx';
import type { PreviewPlan } from './types.ts';

/**
 * A plan as the capture (preview) view shows it: fixed width so screenshots come out the same on any screen.
 * The first benefit's limit is the headline; up to five benefits are shown in all.
 */
export function PreviewPlanCard({ plan }: { plan: PreviewPlan }) {
  const { origin, converted } = previewFormats(plan);
  const [first, ...others] = plan.prestaciones;
  const percent = discountPercent(plan.amount, plan.valorDCTO);
  const showBefore = plan.valorDCTO > 0 && plan.amount > plan.totalAmount;
  const headingId = `preview-plan-${plan.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex w-[280px] shrink-0 flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
      data-plan-id={plan.id}
    >
      <div className="relative">
        <img src={plan.original} alt="" width={280} height={140} className="h-[140px] w-[280px] object-cover" />
        <PlanBadges badges={previewBadges(plan)} className="absolute top-3 left-3 right-3" />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <h2 id={headingId} className="mb-3 text-xl font-extrabold" style={{ color: plan.colorTitulo }}>
          {plan.label}
        </h2>
        {first ? (
          <div className="mb-4 rounded-xl bg-brand-50 px-4 py-3">
            <p className="text-xs font-semibold text-brand-700">{first.detallePrestacion}</p>
            <p className="text-2xl font-extrabold text-brand-900">{first.limite}</p>
          </div>
        ) : null}
        <div className="mb-4 space-y-1">
          {plan.valorDCTO > 0 ? (
            <p className="flex flex-wrap items-center gap-2 text-sm">
              {showBefore ? (
                <span className="text-slate-500">
                  <span className="sr-only">Antes: </span>
                  <del>{money(plan.amount, origin)}</del>
                </span>
              ) : null}
              <span className="rounded-md bg-emerald-50 px-1.5 py-0.5 font-semibold text-emerald-800">
                Ahorras {money(plan.valorDCTO, origin)}
                {percent ? ` (−${percent} %)` : ''}
              </span>
            </p>
          ) : null}
          <p className="text-slate-900">
            <span className="block text-xs text-slate-600">Total a pagar</span>
            <span className="text-2xl font-extrabold">{money(plan.montoConversion, converted)}</span>{' '}
            <span className="text-sm font-semibold text-slate-600">{plan.siglaMonedaConvertida}</span>
          </p>
          <p className="text-sm font-semibold text-brand-800">{instalmentsLabel(plan.instalments)}</p>
          <p className="text-sm text-slate-700">
            <strong className="text-slate-900">{money(plan.totalAmount, origin)}</strong> total del viaje
            <span className="block text-slate-600">{perPassengerPerDayLabel(plan.perPassengerPerDay)}</span>
          </p>
          <p className="text-xs text-slate-600">{taxTreatment(plan.tax)}</p>
        </div>
        {others.length > 0 ? (
          <ul className="space-y-1.5 border-t border-slate-100 pt-3 text-sm">
            {others.slice(0, 4).map((benefit) => (
              <li key={benefit.detallePrestacion} className="flex justify-between gap-3">
                <span className="text-slate-600">{benefit.detallePrestacion}</span>
                <strong className="shrink-0 text-right text-slate-900">{benefit.limite}</strong>
              </li>
            ))}
          </ul>
        ) : null}
        {plan.selected ? (
          <p className="mt-auto flex items-start gap-2 pt-4 text-sm font-semibold text-emerald-800">
            <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 h-4 w-4 shrink-0" fill="currentColor">
              <path d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17Zm-1.2 11.8 5.6-5.6-1.3-1.3-4.3 4.3-2-2-1.3 1.3 3.3 3.3Z" />
            </svg>
            Seleccionado para pasajeros entre 75 y 84 años
          </p>
        ) : null}
      </div>
    </article>
  );
}
