import { describe, expect, it } from 'vitest';
import { benefitRows, coverageOf, differingRows, parseLimitAmount, parsePlanOrder, sortPlans } from './sortPlans.ts';

const plan = (id: number, totalAmount: number, limite: string | null, mejorCobertura = false) => ({
  id,
  totalAmount,
  mejorCobertura,
  prestaciones: limite === null ? [] : [{ detallePrestacion: 'Gastos médicos', limite }],
});
const ids = (plans: { id: number }[]) => plans.map((p) => p.id);

describe('parsePlanOrder (?orden=)', () => {
  it('knows precio and cobertura, else the default precio', () => {
    expect(parsePlanOrder('cobertura')).toBe('cobertura');
    expect(parsePlanOrder('precio')).toBe('precio');
    expect(parsePlanOrder('nombre')).toBe('precio');
    expect(parsePlanOrder(null)).toBe('precio');
    expect(parsePlanOrder(undefined)).toBe('precio');
  });
});

describe('parseLimitAmount', () => {
  it.each([
    ['USD 60.000', 60000],
    ['USD 60,000', 60000],
    ['US$ 1,250.50', 1250.5],
    ['USD 1.250,50', 1250.5],
    ['Hasta USD 3.000 por día', 3000],
    ['1.250.000', 1250000],
    ['USD 500.', 500],
    ['150', 150],
  ])('%s → %s', (text, amount) => {
    expect(parseLimitAmount(text)).toBe(amount);
  });
  it('answers null when the text holds no number', () => {
    expect(parseLimitAmount('Incluido')).toBeNull();
    expect(coverageOf(plan(1, 10, null))).toBeNull();
  });
});

describe('sortPlans', () => {
  const plans = [
    plan(1, 300, 'USD 60.000'),
    plan(2, 100, 'USD 30.000'),
    plan(3, 200, 'Incluido'),
    plan(4, 100, 'USD 150.000'),
  ];
  it('precio: cheapest first, the API order among equal prices', () => {
    expect(ids(sortPlans(plans, 'precio'))).toEqual([2, 4, 3, 1]);
  });
  it('cobertura: highest coverage first, a limit with no number last', () => {
    expect(ids(sortPlans(plans, 'cobertura'))).toEqual([4, 1, 2, 3]);
  });
  it('cobertura ties: the best-coverage plan, then the cheaper, then the API order', () => {
    const tied = [plan(1, 300, 'USD 50.000'), plan(2, 200, 'USD 50.000'), plan(3, 400, 'USD 50.000', true)];
    expect(ids(sortPlans(tied, 'cobertura'))).toEqual([3, 2, 1]);
    const unknown = [plan(1, 300, 'Incluido'), plan(2, 200, null), plan(3, 200, 'Sí')];
    expect(ids(sortPlans(unknown, 'cobertura'))).toEqual([2, 3, 1]);
  });
  it('returns a new array and leaves the input alone', () => {
    const before = ids(plans);
    const sorted = sortPlans(plans, 'cobertura');
    expect(sorted).not.toBe(plans);
    expect(ids(plans)).toEqual(before);
  });
});

describe('benefitRows', () => {
  it('every benefit of any plan, in first-seen order, with each plan’s limit or null', () => {
    const rows = benefitRows([
      { id: 1, prestaciones: [{ detallePrestacion: 'Médicos', limite: 'USD 30.000' }] },
      {
        id: 2,
        prestaciones: [
          { detallePrestacion: 'Equipaje', limite: 'USD 1.000' },
          { detallePrestacion: 'Médicos', limite: 'USD 60.000' },
        ],
      },
    ]);
    expect(rows).toEqual([
      { label: 'Médicos', limits: ['USD 30.000', 'USD 60.000'] },
      { label: 'Equipaje', limits: [null, 'USD 1.000'] },
    ]);
  });
});

describe('differingRows', () => {
  it('keeps a benefit one plan lacks and limits that differ; drops those every plan has alike', () => {
    const rows = [
      { label: 'Médicos', limits: ['USD 30.000', 'USD 60.000'] },
      { label: 'Equipaje', limits: [null, 'USD 1.000'] },
      { label: 'Asistencia legal', limits: ['USD 1.500', 'usd  1.500 '] },
      { label: 'Repatriación', limits: ['Incluida', 'Incluida'] },
    ];
    expect(differingRows(rows).map((row) => row.label)).toStrictEqual(['Médicos', 'Equipaje']);
    expect(differingRows([{ label: 'Médicos', limits: ['USD 30.000'] }])).toStrictEqual([]);
  });
});
