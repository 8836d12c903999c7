import { convertUsdToClp } from '@travesia/domain/exchange';
import { centsToDecimal } from '@travesia/domain/pricing';
import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { type PurchasedAddOn, type PurchaseSnapshot, payments, sales, sandboxTransactions } from '#app/db/schema.ts';

/*
 * Sales with add-ons (issue 27 §1) for the tests (API and e2e): written into a started payment's snapshot as the
 * purchase step sells them, before the payer approves it. No test runner imported: Playwright loads it too.
 */

/** An add-on to sell in a test: what it covers and its USD total (its CLP follows at the purchase's rate). */
export type AddOnToSell = Pick<
  PurchasedAddOn,
  'id' | 'code' | 'name' | 'description' | 'benefits' | 'pricing' | 'totalUsdCents'
>;

/**
 * Two add-ons of the demo's kind (issue 27 §1), priced per day for the 10-day trips of support/checkout.ts: sports
 * (USD 1,80 a day: USD 18) and electronics and baggage (USD 0,95 a day: USD 9.50).
 */
export const sampleAddOns = {
  sports: {
    id: 9001,
    code: 'deportes',
    name: 'Deportes y aventura',
    description: 'Cubre la práctica amateur de deportes de riesgo: esquí, buceo, trekking.',
    benefits: [
      { label: 'Asistencia médica por accidente deportivo', value: 'USD 20.000' },
      { label: 'Rescate en montaña', value: 'USD 5.000' },
    ],
    pricing: { kind: 'daily', centsPerDay: 180 },
    totalUsdCents: 1800,
  },
  electronics: {
    id: 9002,
    code: 'electronicos',
    name: 'Electrónicos y equipaje',
    description: 'Robo o daño de notebook, teléfono y cámara.',
    benefits: [{ label: 'Robo de equipos electrónicos', value: 'USD 800' }],
    pricing: { kind: 'daily', centsPerDay: 95 },
    totalUsdCents: 950,
  },
} satisfies Record<string, AddOnToSell>;

/**
 * Adds add-ons to a started payment, as the purchase step sells them (issue 27 §1): the attempt's snapshot gets each
 * traveller's add-ons (by traveller index) and the price split plan / add-ons, and the amount charged (the attempt,
 * its sale and the sandbox's transaction) becomes the plan plus the add-ons. Answers the snapshot.
 */
export async function sellAddOns(
  db: Database,
  payment: { idVenta: number; idTransaction: number },
  addOns: Record<number, AddOnToSell[]>,
): Promise<PurchaseSnapshot> {
  const [attempt] = await db.select().from(payments).where(eq(payments.id, payment.idTransaction));
  const bought = attempt?.purchase;
  if (!attempt || !bought?.price.clpPerUsd) throw new Error('the payment has no snapshot to add add-ons to');
  const rate = bought.price.clpPerUsd;
  const travellersWithAddOns = bought.travellers.map((person, index) => {
    const sold = (addOns[index] ?? []).map(
      (addOn): PurchasedAddOn => ({
        ...addOn,
        netCents: addOn.totalUsdCents,
        taxCents: 0,
        totalClp: convertUsdToClp(centsToDecimal(addOn.totalUsdCents), rate),
      }),
    );
    return sold.length > 0 ? { ...person, addOns: sold } : person;
  });
  const all = travellersWithAddOns.flatMap((person) => person.addOns ?? []);
  const plan = { totalUsdCents: bought.price.totalUsdCents, totalClp: bought.price.totalClp };
  const sum = {
    totalUsdCents: all.reduce((total, addOn) => total + addOn.totalUsdCents, 0),
    totalClp: all.reduce((total, addOn) => total + addOn.totalClp, 0),
  };
  const purchase: PurchaseSnapshot = {
    ...bought,
    travellers: travellersWithAddOns,
    price: {
      ...bought.price,
      totalUsdCents: plan.totalUsdCents + sum.totalUsdCents,
      totalClp: plan.totalClp + sum.totalClp,
      plan,
      addOns: sum,
    },
  };
  await db.update(payments).set({ purchase, amountClp: purchase.price.totalClp }).where(eq(payments.id, attempt.id));
  await db
    .update(sales)
    .set({ amountClp: purchase.price.totalClp, amountUsdCents: purchase.price.totalUsdCents })
    .where(eq(sales.id, payment.idVenta));
  if (attempt.gateway === 'sandbox' && attempt.externalId) {
    await db
      .update(sandboxTransactions)
      .set({ amountClp: purchase.price.totalClp })
      .where(eq(sandboxTransactions.token, attempt.externalId));
  }
  return purchase;
}
