/**
 * Ordering of the comparator's plans, kept pure (no React, no API) so it can be unit-tested on its own.
 *
 * - `precio`: total price, lowest first.
 * - `cobertura`: the first benefit's limit (the medical coverage, e.g. 'USD 60.000' → 60000), highest first; a plan
 *   whose limit is not a number goes last. Ties go to the API's best-coverage plan, then to the cheaper one.
 *
 * Both keep the API's order among plans that are otherwise equal.
 */
export type PlanOrder = 'precio' | 'cobertura';

export const planOrders: readonly PlanOrder[] = ['precio', 'cobertura'];

export const defaultPlanOrder: PlanOrder = 'precio';

/** The order asked for in the URL (`?orden=`), the default when missing or unknown. */
export function parsePlanOrder(value: string | null | undefined): PlanOrder {
  return planOrders.find((order) => order === value) ?? defaultPlanOrder;
}

/** What the sort needs from a plan: the comparator's and the preview's plans both fit. */
export type SortablePlan = {
  totalAmount: number;
  mejorCobertura: boolean;
  prestaciones: readonly { limite: string }[];
};

/**
 * The first amount written in a benefit's limit: 'USD 60.000' → 60000, 'US$ 1,250.50' → 1250.5,
 * 'Hasta USD 3.000 por día' → 3000. Null when the text holds no number ('Incluido').
 */
export function parseLimitAmount(text: string): number | null {
  const match = /\d[\d.,]*/.exec(text);
  if (!match) return null;
  const digits = match[0].replace(/[.,]+$/, '');
  // Thousands groups only: 60.000, 60,000, 1.250.000.
  if (/^\d{1,3}([.,]\d{3})+$/.test(digits)) return Number(digits.replace(/[.,]/g, ''));
  const lastSeparator = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','));
  if (lastSeparator === -1) return Number(digits);
  // The last separator is the decimal one (1.250,50 or 1,250.50); any other is a thousands separator.
  const integer = digits.slice(0, lastSeparator).replace(/[.,]/g, '');
  const fraction = digits.slice(lastSeparator + 1);
  const value = Number(`${integer}.${fraction}`);
  return Number.isFinite(value) ? value : null;
}

/** The plan's headline coverage: its first benefit's limit as a number, or null. */
export function coverageOf(plan: SortablePlan): number | null {
  const first = plan.prestaciones[0];
  return first ? parseLimitAmount(first.limite) : null;
}

/** A new array of the plans in the asked order; the input is not changed. */
export function sortPlans<Plan extends SortablePlan>(plans: readonly Plan[], order: PlanOrder): Plan[] {
  const indexed = plans.map((plan, index) => ({ plan, index, coverage: coverageOf(plan) }));
  indexed.sort((a, b) => {
    if (order === 'cobertura') {
      const byCoverage = (b.coverage ?? Number.NEGATIVE_INFINITY) - (a.coverage ?? Number.NEGATIVE_INFINITY);
      if (byCoverage !== 0 && !Number.isNaN(byCoverage)) return byCoverage;
      if (a.plan.mejorCobertura !== b.plan.mejorCobertura) return a.plan.mejorCobertura ? -1 : 1;
    }
    const byPrice = a.plan.totalAmount - b.plan.totalAmount;
    if (byPrice !== 0) return byPrice;
    return a.index - b.index;
  });
  return indexed.map((entry) => entry.plan);
}

/**
 * The rows of the comparison table: every benefit label of any plan, in the order they first appear, with each
 * plan's limit (null: the plan does not include it).
 */
export function benefitRows(
  plans: readonly { id: number; prestaciones: readonly { detallePrestacion: string; limite: string }[] }[],
): { label: string; limits: (string | null)[] }[] {
  const labels: string[] = [];
  for (const plan of plans) {
    for (const benefit of plan.prestaciones) {
      if (!labels.includes(benefit.detallePrestacion)) labels.push(benefit.detallePrestacion);
    }
  }
  return labels.map((label) => ({
    label,
    limits: plans.map((plan) => plan.prestaciones.find((b) => b.detallePrestacion === label)?.limite ?? null),
  }));
}

/** The same limit written with other spacing or capitals («USD 30.000» and «usd  30.000») is the same limit. */
const sameLimit = (limit: string | null) => (limit === null ? null : limit.replace(/\s+/g, ' ').trim().toLowerCase());

/** The rows where the plans differ: a benefit one plan lacks, or limits that are not all the same. */
export function differingRows<Row extends { limits: (string | null)[] }>(rows: readonly Row[]): Row[] {
  return rows.filter((row) => new Set(row.limits.map(sameLimit)).size > 1);
}
