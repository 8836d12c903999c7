import type { ComparatorPlan } from './types.ts';

/** «Condiciones generales (PDF)» of a plan, opened in a new tab; nothing when the plan has none. */
export function ConditionsLink({ plan, className }: { plan: ComparatorPlan; className: string }) {
  if (!plan.condicionesGenerales) return null;
  return (
    <a href={plan.condicionesGenerales} target="_blank" rel="noopener" className={className}>
      Condiciones generales<span className="sr-only"> de {plan.label}</span> (PDF)
    </a>
  );
}
