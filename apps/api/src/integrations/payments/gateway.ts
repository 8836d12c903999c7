/**
 * One interface, one implementation per gateway (DESIGN.md "Payments"). A gateway starts a payment and, when
 * the payer's browser comes back, tells what happened from the parameters of that return.
 */

/** What the browser brings back to our return URL (Webpay's names; the sandbox speaks the same). */
export type GatewayReturn = {
  token_ws?: string | undefined;
  TBK_TOKEN?: string | undefined;
  TBK_ID_SESION?: string | undefined;
  TBK_ORDEN_COMPRA?: string | undefined;
};

export type PaymentOutcome = 'authorized' | 'declined' | 'aborted' | 'timeout' | 'error';

export type ConfirmResult = {
  status: PaymentOutcome;
  amountClp: number | null;
  instalments: number | null;
  /** VD débito, VN sin cuotas, VC cuotas normales, SI 3 sin interés, S2 2 sin interés, NC N sin interés, VP prepago. */
  paymentTypeCode: string | null;
  authorizationCode: string | null;
  cardLastDigits: string | null;
  responseCode: number | null;
  detail: string;
  /** The gateway could not tell (unreachable): the payment stays in confirmation and is asked again later. */
  uncertain?: boolean;
};

export type StartPayment = { buyOrder: string; sessionId: string; amountClp: number; returnUrl: string };

/**
 * What the gateway knows of a transaction now, without changing it: a settled outcome, or `open` when it still
 * waits for our commit (the payer may have approved; nothing is charged until we commit).
 */
export type GatewayStatus = ConfirmResult & {
  open: boolean;
  /** How much of the transaction the gateway has given back so far, when it says (Webpay: amount − balance). */
  refundedClp?: number | null;
};

export type RefundResult = { status: 'refunded' | 'failed'; detail: string };

export interface PaymentGateway {
  id: string;
  /** A test gateway (no money moves): what it pays is marked as a test payment on every document. */
  testMode?: boolean;
  start(payment: StartPayment): Promise<{ redirectUrl: string; externalId: string }>;
  /** The payer's browser is back: commit (or record the abort, timeout or error) as the return's parameters say. */
  confirm(externalId: string | null, params: GatewayReturn): Promise<ConfirmResult>;
  /** Asks what happened to a transaction (the sweeper, after a crash or an unreachable gateway). */
  status(externalId: string): Promise<GatewayStatus>;
  /** Gives an authorized amount back (an authorization we cannot honour); failures are retried later. */
  refund(externalId: string, amountClp: number): Promise<RefundResult>;
}

/** Which payment a return is about: its token when there is one, else (timeouts) our buy order. */
export function identifyReturn(params: GatewayReturn): { externalId: string | null; buyOrder: string | null } {
  return {
    externalId: params.token_ws ?? params.TBK_TOKEN ?? null,
    buyOrder: params.TBK_ORDEN_COMPRA ?? null,
  };
}

/**
 * Webpay's return cases (chile-facts): token_ws alone → commit; TBK_TOKEN (aborted by the payer) → ask status,
 * never commit; only TBK_ID_SESION/TBK_ORDEN_COMPRA → timeout; all four → an error page was shown.
 */
export function classifyReturn(params: GatewayReturn): 'commit' | 'aborted' | 'timeout' | 'error' {
  if (params.token_ws && params.TBK_TOKEN) return 'error';
  if (params.token_ws) return 'commit';
  if (params.TBK_TOKEN) return 'aborted';
  if (params.TBK_ORDEN_COMPRA || params.TBK_ID_SESION) return 'timeout';
  return 'error';
}

export const emptyResult = {
  amountClp: null,
  instalments: null,
  paymentTypeCode: null,
  authorizationCode: null,
  cardLastDigits: null,
  responseCode: null,
} as const;
