import { addDays, todayInChile } from '@travesia/domain/dates';
import { PassengerType } from '@travesia/domain/ids';
import { expect } from 'vitest';
import { discountCodes } from '#app/db/schema.ts';
import type { ListingPlan } from '#app/modules/plans/schemas.ts';
import type { Quotation } from '#app/modules/quotations/schemas.ts';
import type { TestContext } from './harness.ts';
import { type Answer, call, get } from './http.ts';

/**
 * Trips for the quotation and plan suites. The server refuses departures before today in Chile, so every date is
 * relative to the real current date, never a calendar date written in the test.
 */

/** Today + `days`, in Chile's calendar (negative: in the past). */
export const inDays = (days: number) => addDays(todayInChile(), days);

export type PassengerCount = { passengerTypeId: number; quantity: number };

/** The reference trip of both suites: 2 adults (0–74) and 1 senior (75–84). */
export const twoAdultsOneSenior: PassengerCount[] = [
  { passengerTypeId: PassengerType.upTo74, quantity: 2 },
  { passengerTypeId: PassengerType.from75To84, quantity: 1 },
];

/** A trip of `days` days (both ends counted) leaving in 10 days. */
export function tripDates(days: number, leavingIn = 10) {
  const departureDate = inDays(leavingIn);
  return { departureDate, returnDate: addDays(departureDate, days - 1) };
}

/** An annual multi-trip term: the return is fixed at departure + 364 (365 days). */
export function annualDates(leavingIn = 10) {
  const departureDate = inDays(leavingIn);
  return { departureDate, returnDate: addDays(departureDate, 364) };
}

export type QuotationBody = {
  origin: number;
  destination: number;
  modality: number;
  departureDate: string;
  returnDate: string;
  passangerTypes: { passengerTypeId?: number; id?: number; quantity: number }[];
  discountCode?: string | null;
  upgradeCovid?: boolean;
  planId?: number | null;
  referralCode?: string | null;
  pantalla?: string | null;
  name?: string | null;
  lastName?: string | null;
  phone?: string | null;
  email?: string | null;
  rut?: string | null;
  domicilio?: string | null;
};

/** Chile → Europe (destination 3), single trip, 10 days, 2 adults + 1 senior, unless overridden. */
export function quotationBody(overrides: Partial<QuotationBody> = {}): QuotationBody {
  return {
    origin: 1,
    destination: 3,
    modality: 1,
    ...tripDates(10),
    passangerTypes: twoAdultsOneSenior,
    ...overrides,
  };
}

export const postQuotation = (ctx: TestContext, body: unknown, companyId: number | string = 1) =>
  call(ctx.app, { method: 'POST', url: `/api/quotations/${companyId}`, payload: body as Record<string, unknown> });

export const putQuotation = (ctx: TestContext, id: string, body: unknown, companyId: number | string = 1) =>
  call(ctx.app, {
    method: 'PUT',
    url: `/api/quotations/${companyId}/${id}`,
    payload: body as Record<string, unknown>,
  });

/** Creates a quotation that must be accepted; answers its id. */
export async function createQuotation(ctx: TestContext, overrides: Partial<QuotationBody> = {}): Promise<string> {
  const answer = await postQuotation(ctx, quotationBody(overrides));
  expect(answer.status, answer.text).toBe(201);
  return answer.json<{ id: string }>().id;
}

export async function readQuotation(ctx: TestContext, id: string): Promise<Quotation> {
  const answer = await get(ctx.app, `/api/quotations/1/${id}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Quotation>();
}

export type SearchParams = {
  origin?: number | string;
  destination?: number | string;
  modality?: number | string;
  departureDate?: string;
  returnDate?: string;
  passengers?: string;
  discountCode?: string;
  upgradeCovid?: string;
};

/** `passengers=1:2,2:1` as the plan search takes it. */
export const passengersParam = (passengers: PassengerCount[]) =>
  passengers.map((p) => `${p.passengerTypeId}:${p.quantity}`).join(',');

/** The plan search parameters of the reference trip (Europe, 10 days, 2 adults + 1 senior), unless overridden. */
export function searchParams(overrides: SearchParams = {}): SearchParams {
  return {
    origin: 1,
    destination: 3,
    modality: 1,
    ...tripDates(10),
    passengers: passengersParam(twoAdultsOneSenior),
    ...overrides,
  };
}

export function searchUrl(params: SearchParams, companyId: number | string = 1): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) query.set(name, String(value));
  }
  return `/api/${companyId}/plans?${query.toString()}`;
}

export const searchPlans = (ctx: TestContext, params: SearchParams, companyId: number | string = 1): Promise<Answer> =>
  get(ctx.app, searchUrl(params, companyId));

/** Stores a discount code for company 1, valid from `validFrom` to `validTo` inclusive (Chile's calendar). */
export async function insertDiscountCode(
  ctx: TestContext,
  code: { code: string; percentBp: number; validFrom: string; validTo: string },
) {
  await ctx.database.db.insert(discountCodes).values({ companyId: 1, ...code });
}

/** The plan search's answer for `params` (the reference trip by default), which must be a 200. */
export async function listing(ctx: TestContext, params: SearchParams = searchParams()): Promise<ListingPlan[]> {
  const answer = await searchPlans(ctx, params);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<ListingPlan[]>();
}

/** The plan `id` of an answer; a missing one fails the test naming the plans there were. */
export function planOf<T extends { id: number }>(plans: T[], id: number): T {
  const plan = plans.find((p) => p.id === id);
  if (!plan) throw new Error(`plan ${id} is not in the answer (${plans.map((p) => p.id).join(', ')})`);
  return plan;
}
