import { type ConfirmResult, classifyReturn, emptyResult, type GatewayReturn, type PaymentGateway } from './gateway.ts';

/**
 * Transbank's hosts, as its SDK's `Environment` names them (webpay.test.ts holds them equal). The SDK itself (with
 * axios) is loaded on the first call to Webpay, not at start-up: most processes never make one (issue #10's memory).
 */
const Environment = {
  Integration: 'https://webpay3gint.transbank.cl',
  Production: 'https://webpay3g.transbank.cl',
} as const;

const loadSdk = async () => (await import('transbank-sdk')).default;

type WebpayConfig = { environment: string; commerceCode: string; apiKey: string; testMode: boolean };

/** The commit/status answer of Webpay Plus REST v1.2 (chile-facts). */
type WebpayTransaction = {
  vci?: string;
  amount?: number;
  status?: string;
  buy_order?: string;
  session_id?: string;
  card_detail?: { card_number?: string };
  authorization_code?: string;
  payment_type_code?: string;
  response_code?: number;
  installments_number?: number;
  /** What is left of the amount after refunds (present once part was annulled). */
  balance?: number;
};

/**
 * What Webpay has given back of a transaction: nothing while it is AUTHORIZED (whatever its balance field says), all
 * of a reversal, amount − balance of an annulment (all of it when no balance is given); unknown otherwise.
 */
function refundedOf(answer: WebpayTransaction): number | null {
  if (answer.amount === undefined) return null;
  if (answer.status === 'AUTHORIZED') return 0;
  if (answer.status === 'REVERSED') return answer.amount;
  if (answer.status === 'NULLIFIED' || answer.status === 'PARTIALLY_NULLIFIED') {
    return answer.balance === undefined ? answer.amount : answer.amount - answer.balance;
  }
  return null;
}

export function webpayBaseUrl(environment: string): string {
  if (environment === 'integration') return Environment.Integration;
  if (environment === 'production') return Environment.Production;
  return environment.replace(/\/$/, ''); // a Webpay-compatible server, e.g. a test double on loopback
}

function fromTransaction(answer: WebpayTransaction, approvedDetail: string): ConfirmResult {
  const approved = answer.response_code === 0 && answer.status === 'AUTHORIZED';
  return {
    status: approved ? 'authorized' : 'declined',
    amountClp: typeof answer.amount === 'number' ? answer.amount : null,
    instalments: answer.installments_number ?? null,
    paymentTypeCode: answer.payment_type_code ?? null,
    authorizationCode: answer.authorization_code ?? null,
    cardLastDigits: answer.card_detail?.card_number ?? null,
    responseCode: answer.response_code ?? null,
    detail: approved
      ? approvedDetail
      : `Webpay: ${answer.status ?? 'sin estado'} (código ${answer.response_code ?? '?'})`,
  };
}

/**
 * Each call to Webpay gives up after this long; a confirmation makes at most two (commit, then status), which the
 * payment claim's lifetime (payments/service.ts) must comfortably exceed.
 */
export const webpayTimeoutMs = 10_000;

/** Webpay Plus through Transbank's official SDK. */
export function webpayGateway(config: WebpayConfig): PaymentGateway {
  const transaction = async () => {
    const { Options, WebpayPlus } = await loadSdk();
    return new WebpayPlus.Transaction(
      new Options(config.commerceCode, config.apiKey, webpayBaseUrl(config.environment), webpayTimeoutMs),
    );
  };

  return {
    id: 'webpay',
    // The integration environment (or its public credentials anywhere) moves no money: its payments are test payments.
    testMode: config.testMode,
    async start({ buyOrder, sessionId, amountClp, returnUrl }) {
      const answer = (await (await transaction()).create(buyOrder, sessionId, amountClp, returnUrl)) as {
        token: string;
        url: string;
      };
      // Webpay expects the browser to arrive with token_ws; a GET with it as a query parameter is accepted.
      return { redirectUrl: `${answer.url}?token_ws=${encodeURIComponent(answer.token)}`, externalId: answer.token };
    },
    async confirm(externalId, params: GatewayReturn) {
      const kind = classifyReturn(params);
      if (kind === 'timeout')
        return { ...emptyResult, status: 'timeout', detail: 'Se agotó el tiempo para pagar en Webpay' };
      if (kind === 'error' || !externalId) {
        return { ...emptyResult, status: 'error', detail: 'Webpay mostró un error durante el pago' };
      }
      if (kind === 'aborted') {
        // Aborted by the payer: ask the status (never commit) for the record.
        const answer = (await (await transaction()).status(externalId).catch(() => ({}))) as WebpayTransaction;
        return {
          ...emptyResult,
          amountClp: answer.amount ?? null,
          status: 'aborted',
          detail: 'El pago fue anulado en Webpay',
        };
      }
      try {
        return fromTransaction(
          (await (await transaction()).commit(externalId)) as WebpayTransaction,
          'Pago autorizado por Webpay',
        );
      } catch (commitError) {
        const reason = commitError instanceof Error ? commitError.message : String(commitError);
        // A commit that already happened (e.g. we crashed before recording it) is recovered from the status.
        let answer: WebpayTransaction;
        try {
          answer = (await (await transaction()).status(externalId)) as WebpayTransaction;
        } catch {
          // Neither commit nor status answered: the money may or may not be taken. Ask again later, never guess.
          return {
            ...emptyResult,
            status: 'error',
            uncertain: true,
            detail: `No se pudo confirmar el pago en Webpay: ${reason}`,
          };
        }
        if (answer.status === 'AUTHORIZED' || answer.status === 'FAILED') {
          return fromTransaction(answer, 'Pago autorizado por Webpay (recuperado)');
        }
        return {
          ...emptyResult,
          status: 'error',
          detail: `No se pudo confirmar el pago en Webpay (${answer.status ?? 'sin estado'}): ${reason}`,
        };
      }
    },
    async status(externalId) {
      let answer: WebpayTransaction;
      try {
        answer = (await (await transaction()).status(externalId)) as WebpayTransaction;
      } catch (error) {
        const reason = error instanceof Error ? error.name : 'desconocido';
        return {
          ...emptyResult,
          status: 'error',
          uncertain: true,
          open: false,
          detail: `Webpay no respondió: ${reason}`,
        };
      }
      if (answer.status === 'INITIALIZED') {
        return { ...emptyResult, status: 'error', open: true, detail: 'Webpay espera la confirmación del comercio' };
      }
      if (answer.status === 'AUTHORIZED' || answer.status === 'FAILED') {
        return {
          ...fromTransaction(answer, 'Pago autorizado por Webpay (consultado)'),
          open: false,
          refundedClp: refundedOf(answer),
        };
      }
      // REVERSED, NULLIFIED, PARTIALLY_NULLIFIED, CAPTURED…: not a sale we can honour by its status alone.
      return {
        ...emptyResult,
        amountClp: answer.amount ?? null,
        status: 'error',
        open: false,
        refundedClp: refundedOf(answer),
        detail: `Webpay: ${answer.status ?? 'sin estado'}`,
      };
    },
    async refund(externalId, amountClp) {
      try {
        const answer = (await (await transaction()).refund(externalId, amountClp)) as {
          type?: string;
          response_code?: number;
        };
        // A full refund within hours is a reversal; later, an annulment (NULLIFIED, approved with code 0).
        if (answer.type === 'REVERSED' || (answer.type === 'NULLIFIED' && answer.response_code === 0)) {
          return { status: 'refunded', detail: `Webpay: ${answer.type}` };
        }
        return { status: 'failed', detail: `Webpay rechazó el reembolso (${answer.type ?? 'sin tipo'})` };
      } catch (error) {
        return {
          status: 'failed',
          detail: `Webpay no respondió al reembolso: ${error instanceof Error ? error.name : '?'}`,
        };
      }
    },
  };
}
