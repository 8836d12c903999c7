import { PlanAddOns } from './AddOns.tsx';
import type { Band } from './addOns.ts';
import { ChoosePlanForm } from './ChoosePlanForm.tsx';
import { ConditionsLink } from './ConditionsLink.tsx';
import { comparatorBadges, PlanBadges, planColor } from './PlanBadges.tsx';
import { PriceBlock } from './PriceBlock.tsx';
import type { ComparatorPlan } from './types.ts';

type Props = {
  plan: ComparatorPlan;
  benefitsShown?: number;
  error?: string | null;
  /** Why the quotation's discount code, applied to other plans, does not apply to this one (in words). */
  discountNote?: string | null;
  /** The add-ons other plans of the page offer and this one cannot take (their names). */
  missingAddOns?: readonly string[];
  /** The site's age bands, to say who cannot take an add-on. */
  bands?: readonly Band[];
};

/**
 * One plan of the comparator's listing: badges, image, title, first benefits, prices and «Elegir plan». On a phone the
 * card leads with the badges, the name, the total, the instalments and «Elegir»; the benefits and the image follow
 * (the price sat under a large image, below the fold). Only the order on screen changes: the benefits hold nothing to
 * focus, so «Elegir» is the card's first stop for the keyboard at every width. The add-ons («Adicionales disponibles»,
 * opened with <details>) follow «Elegir» at every width, so the keyboard meets them in the order the eye does.
 */
export function PlanCard({
  plan,
  benefitsShown = 4,
  error = null,
  discountNote = null,
  missingAddOns = [],
  bands = [],
}: Props) {
  const accent = planColor(plan);
  const badges = comparatorBadges(plan);
  const headingId = `plan-${plan.id}-titulo`;
  const highlighted = plan.mejorPlan;
  return (
    <article
      aria-labelledby={headingId}
      className={`relative flex flex-col overflow-hidden rounded-2xl border bg-white shadow-sm transition-shadow hover:shadow-md ${
        highlighted ? 'border-accent-500 ring-2 ring-accent-500/70' : 'border-slate-200'
      }`}
    >
      <div className="h-1.5" style={{ backgroundColor: accent }} aria-hidden="true" />
      <div className="relative max-sm:order-last">
        <img
          src={plan.original}
          alt=""
          loading="lazy"
          width={640}
          height={360}
          className="aspect-[16/7] w-full object-cover"
        />
        <PlanBadges badges={badges} className="absolute top-3 left-3 right-3 max-sm:hidden" />
      </div>
      <div className="flex flex-1 flex-col p-5">
        <PlanBadges badges={badges} className="mb-3 sm:hidden" />
        <h3 id={headingId} className="mb-3 text-xl font-extrabold" style={{ color: plan.colorTitulo }}>
          {plan.label}
        </h3>
        {plan.paraQuien ? (
          <p className="-mt-2 mb-3 text-sm text-slate-700" data-para-quien={plan.id}>
            {plan.paraQuien}
          </p>
        ) : null}
        <ul
          className="mb-5 space-y-2 text-sm max-sm:order-last max-sm:mt-5 max-sm:mb-0"
          aria-label={`Principales coberturas de ${plan.label}`}
        >
          {plan.prestaciones.slice(0, benefitsShown).map((benefit, index) => (
            <li key={benefit.detallePrestacion} className="flex items-start gap-2">
              <svg
                aria-hidden="true"
                viewBox="0 0 20 20"
                className="mt-0.5 h-4 w-4 shrink-0 text-brand-500"
                fill="currentColor"
              >
                <path d="M8.2 14.3 3.9 10l1.4-1.4 2.9 2.9 6.5-6.5 1.4 1.4-7.9 7.9Z" />
              </svg>
              <span className="text-slate-700">
                {benefit.detallePrestacion}:{' '}
                <strong className={index === 0 ? 'text-base text-slate-900' : 'text-slate-900'}>
                  {benefit.limite}
                </strong>
              </span>
            </li>
          ))}
        </ul>
        <div className="mt-auto border-t border-slate-100 pt-4">
          {discountNote ? (
            <p className="mb-2 text-sm font-medium text-amber-900" data-discount-note={plan.id}>
              {discountNote}
            </p>
          ) : null}
          <PriceBlock plan={plan} />
          <ChoosePlanForm planId={plan.id} planLabel={plan.label} className="mt-4" />
          <ConditionsLink plan={plan} className="mt-3 inline-block text-sm text-brand-700 underline" />
          {error ? (
            <p className="mt-2 text-sm font-medium text-red-700" id={`plan-${plan.id}-error`}>
              {error}
            </p>
          ) : null}
        </div>
        <PlanAddOns
          plan={plan}
          missing={missingAddOns}
          bands={bands}
          className="mt-4 border-t border-slate-100 pt-4 max-sm:order-last"
        />
      </div>
    </article>
  );
}
