import { formatClp } from '@travesia/domain/money';
import type { Purchase } from './purchase.ts';

type AddOn = Omit<Purchase['travellers'][number]['addOns'][number], 'amountClp' | 'amountUsd'> & { amountClp?: number };

/**
 * A traveller's add-ons («adicionales», issue 27 §1) as bought: each one's name, what it covers with its limits and,
 * for the buyer, what it cost her (a traveller's own view carries no amounts). None bought: nothing.
 */
export function AddOnList({ addOns, label }: { addOns: AddOn[]; label: string }) {
  if (addOns.length === 0) return null;
  return (
    <div className="mt-2">
      <p className="text-xs font-bold tracking-wide text-slate-700 uppercase">Adicionales contratados</p>
      <ul aria-label={label} className="mt-1 grid gap-1.5">
        {addOns.map((addOn) => (
          <li key={addOn.code} className="rounded-md border border-slate-200 bg-white px-2.5 py-1.5">
            <div className="flex items-baseline justify-between gap-3">
              <span className="font-semibold text-slate-900">{addOn.name}</span>
              {addOn.amountClp !== undefined ? (
                <span className="font-semibold whitespace-nowrap text-slate-900 tabular-nums">
                  {formatClp(addOn.amountClp)}
                </span>
              ) : null}
            </div>
            <ul className="text-slate-600">
              {addOn.benefits.map((benefit) => (
                <li key={benefit.label}>
                  {benefit.label}: <span className="font-semibold text-slate-800">{benefit.value}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** «Tu pago»'s split when add-ons were bought: the plan, the add-ons and the total charged (none otherwise). */
export function PriceBreakdown({ breakdown }: { breakdown: Purchase['priceBreakdown'] }) {
  if (breakdown.addOnsClp === 0) return null;
  const rows: [string, number, boolean][] = [
    ['Plan', breakdown.planClp, false],
    ['Adicionales', breakdown.addOnsClp, false],
    ['Total', breakdown.totalClp, true],
  ];
  return (
    <dl
      aria-label="Desglose del precio"
      className="mb-4 grid gap-1 rounded-lg border border-slate-200 px-3 py-2 text-sm"
    >
      {rows.map(([term, amount, strong]) => (
        <div key={term} className="flex justify-between gap-4">
          <dt className={strong ? 'font-bold text-slate-900' : 'text-slate-600'}>{term}</dt>
          <dd className={`text-right tabular-nums ${strong ? 'font-extrabold' : 'font-semibold'} text-slate-900`}>
            {formatClp(amount)}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** What a withdrawal gives back of a purchase with add-ons, in words: «plan $X + adicionales $Y = total $Z». */
export function refundBreakdownText(breakdown: Purchase['priceBreakdown'], refundClp: number): string | null {
  if (breakdown.addOnsClp === 0 || breakdown.totalClp !== refundClp) return null;
  return `Plan ${formatClp(breakdown.planClp)} + adicionales ${formatClp(breakdown.addOnsClp)} = total devuelto ${formatClp(refundClp)}.`;
}
