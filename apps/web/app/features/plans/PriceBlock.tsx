import {
  currencyFormat,
  discountPercent,
  instalmentsLabel,
  money,
  perPassengerPerDayLabel,
  taxTreatment,
} from './format.ts';
import type { ComparatorPlan } from './types.ts';

/**
 * A comparator plan's prices, what is paid first: the CLP total and its 6 interest-free instalments, then the same
 * total in USD, the price per traveller per day and the tax treatment (worded alike on every plan, with the plan's own
 * «¿Por qué?» when the console wrote one). A discount shows
 * the price before it struck through and the saving. Every amount comes computed and formatted from the API.
 */
export function PriceBlock({ plan, compact = false }: { plan: ComparatorPlan; compact?: boolean }) {
  const percent = plan.existeDescuentoAplicado ? discountPercent(plan.amount, plan.valorDCTO) : null;
  // With taxes on top, the price before discounts can be below the total: striking it through would mislead.
  const showBefore = plan.existeDescuentoAplicado && plan.amount > plan.totalAmount;
  const usd = currencyFormat(plan.monedaOrigen);
  return (
    <div className={compact ? 'space-y-1' : 'space-y-1.5'} data-testid="plan-price">
      {plan.existeDescuentoAplicado ? (
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          {showBefore ? (
            <span className="text-slate-500">
              <span className="sr-only">Precio antes de descuentos: </span>
              <del>{plan.montoAntesFormateado}</del>
            </span>
          ) : null}
          <span
            className={`rounded-md bg-emerald-50 px-1.5 py-0.5 font-semibold text-emerald-800 ${compact ? 'text-xs' : ''}`}
          >
            Ahorras {money(plan.valorDCTO, usd)}
            {percent ? ` (−${percent} %)` : ''}
          </span>
        </p>
      ) : null}
      <p className="text-slate-900" data-testid="plan-price-total">
        {compact ? null : <span className="block text-sm text-slate-600">Total a pagar</span>}
        <span className={compact ? 'text-lg font-extrabold' : 'text-3xl font-extrabold tracking-tight'}>
          {plan.montoConversionFormateado}
        </span>{' '}
        <abbr title="pesos chilenos" className="text-sm font-semibold text-slate-600 no-underline">
          CLP
        </abbr>
      </p>
      <p
        className={compact ? 'text-xs font-semibold text-brand-800' : 'text-sm font-semibold text-brand-800'}
        data-testid="plan-price-instalments"
      >
        {instalmentsLabel(plan.instalments)}
      </p>
      <p className={compact ? 'text-xs text-slate-700' : 'text-sm text-slate-700'} data-testid="plan-price-usd">
        <span className="font-semibold text-slate-900">{plan.montoTotalFormateado}</span> total del viaje
        <span className="block text-slate-600">{perPassengerPerDayLabel(plan.perPassengerPerDay)}</span>
      </p>
      <p className="text-xs text-slate-600" data-testid="plan-price-tax">
        {taxTreatment(plan.tax)}
      </p>
      {plan.porQueIva ? (
        // Why this plan carries IVA and another does not, in the insurer's words (issue 27 §2); no script needed.
        <details className="text-xs text-slate-600" data-testid="plan-price-tax-reason">
          <summary className="cursor-pointer font-semibold text-brand-700 underline">¿Por qué?</summary>
          <p className="mt-1">{plan.porQueIva}</p>
        </details>
      ) : null}
    </div>
  );
}
