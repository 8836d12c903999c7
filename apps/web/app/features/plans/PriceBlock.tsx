import { currencyFormat, discountPercent, money } from './format.ts';
import type { ComparatorPlan } from './types.ts';

/**
 * A comparator plan's prices: the before price struck through and the saving when a discount applies, the price per
 * day, the total in USD and its CLP equivalent.
 */
export function PriceBlock({ plan, compact = false }: { plan: ComparatorPlan; compact?: boolean }) {
  const usd = currencyFormat(plan.monedaOrigen);
  const percent = plan.existeDescuentoAplicado ? discountPercent(plan.amount, plan.valorDCTO) : null;
  // With taxes on top, the price before discounts can be below the total: striking it through would mislead.
  const showBefore = plan.existeDescuentoAplicado && plan.amount > plan.totalAmount;
  const taxed = plan.tax > 1;
  return (
    <div className={compact ? 'space-y-1' : 'space-y-1.5'}>
      {plan.existeDescuentoAplicado && compact ? (
        <>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            {showBefore ? (
              <span className="text-slate-500">
                <span className="sr-only">Precio antes de descuentos: </span>
                <del>{plan.montoAntesFormateado}</del>
              </span>
            ) : null}
            {percent ? (
              <span className="rounded-md bg-emerald-50 px-1.5 py-0.5 text-xs font-bold text-emerald-800">
                <span className="sr-only">Descuento de </span>−{percent} %
              </span>
            ) : null}
          </p>
          <p className="text-xs font-semibold text-emerald-800">Ahorras {money(plan.valorDCTO, usd)}</p>
        </>
      ) : null}
      {plan.existeDescuentoAplicado && !compact ? (
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
          {showBefore ? (
            <span className="text-slate-500">
              <span className="sr-only">Precio antes de descuentos: </span>
              <del>{plan.montoAntesFormateado}</del>
            </span>
          ) : null}
          <span className="rounded-md bg-emerald-50 px-1.5 py-0.5 font-semibold text-emerald-800">
            Ahorras {money(plan.valorDCTO, usd)}
            {percent ? ` (−${percent} %)` : ''}
          </span>
        </p>
      ) : null}
      {compact ? null : (
        <p className="text-slate-900">
          <span className="text-3xl font-extrabold tracking-tight">{plan.valorDiaFormateado}</span>{' '}
          <span className="text-sm text-slate-600">por día</span>
        </p>
      )}
      <p className={compact ? 'text-lg font-bold text-slate-900' : 'text-slate-700'}>
        {compact ? null : <span className="text-sm">Total del viaje: </span>}
        <span className={compact ? '' : 'font-bold text-slate-900'}>{plan.montoTotalFormateado}</span>
        <span className="sr-only"> dólares</span>
      </p>
      <p className="text-sm text-slate-600">
        {plan.montoConversionFormateado}{' '}
        <abbr title="pesos chilenos" className="no-underline">
          CLP
        </abbr>
        {taxed ? ' · impuestos incluidos' : ''}
      </p>
    </div>
  );
}
