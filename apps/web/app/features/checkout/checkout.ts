/** What the purchase steps share between server and browser. */

/** The three steps of the purchase, by their path. */
export type CheckoutStep = 'compra' | 'facturacion' | 'pago';

export const stepPath = (step: CheckoutStep, planId: number | string, quotationId: string) =>
  `/${step}/${planId}/${quotationId}`;

/** The API's built-in test gateway: never preselected, and listed after the real ones. */
export const testGatewayId = 'sandbox';

/** The message when «Pagar» is pressed before a gateway was chosen (the page and the action say the same). */
export const chooseGatewayMessage = 'Elige un medio de pago';

/** The gateways in the order the buyer sees them: the real ones first (as the company lists them), the test one last. */
export function gatewaysInOrder<T extends { id: string }>(gateways: T[]): T[] {
  return [...gateways.filter((g) => g.id !== testGatewayId), ...gateways.filter((g) => g.id === testGatewayId)];
}

export function successUrl(sale: { idVenta: number; idTransaction: number }): string {
  return `/exito?venta=${sale.idVenta}&transaccion=${sale.idTransaction}`;
}

/** What every step shows beside its form: the trip and the plan priced for it by the API. */
export type CheckoutSummary = {
  quotationId: string;
  planId: number;
  planLabel: string;
  planImage: string | null;
  departureDate: string;
  returnDate: string;
  days: number;
  destination: string | null;
  passengerGroups: { passengerTypeId: number; quantity: number; ageFrom: number; ageTo: number }[];
  /** What is paid: the plan plus the add-ons chosen (formatted), and in CLP. */
  totalUsd: string;
  totalClp: string;
  amountClp: number;
  /** The plan alone, formatted (the total when no add-on is chosen). */
  planClp: string;
  planAmountClp: number;
  /** Each add-on chosen, by traveller (seq 1…n), priced by the API. */
  addOnLines: { seq: number; name: string; clp: string }[];
  /** Chosen add-ons that can no longer be bought (the payment is refused until they are removed), in words. */
  addOnProblems: string[];
  /** One traveller of each travelling age band, priced by the API (CLP and USD, formatted). */
  perPassenger: { passengerTypeId: number; quantity: number; clp: string; usd: string }[];
  /** One of the interest-free instalments, formatted (e.g. 6 of «$13.438»). */
  instalments: { count: number; amount: string };
  /** Every way to split the total: 1 to 6 instalments, each amount formatted. */
  instalmentOptions: { count: number; amount: string }[];
};

/** A step that cannot show its form says why, in a page of its own (with a way forward). */
export type CheckoutNoticeState =
  | { state: 'not-found' }
  | { state: 'expired'; quotationId: string }
  | { state: 'no-plan'; quotationId: string }
  | { state: 'unavailable'; quotationId: string; messages: string[] }
  | { state: 'paid'; successUrl: string | null };
