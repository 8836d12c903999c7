import { randomBytes } from 'node:crypto';
import type { Database } from '#app/db/client.ts';
import type { SandboxLedger, SandboxTransaction } from '#app/modules/payments/sandbox-ledger.ts';
import { type ConfirmResult, classifyReturn, emptyResult, type PaymentGateway } from './gateway.ts';

/** Webpay's payment type codes for interest-free instalments (chile-facts). */
export function paymentTypeForInstalments(instalments: number): string {
  if (instalments <= 1) return 'VN';
  if (instalments === 2) return 'S2';
  if (instalments === 3) return 'SI';
  return 'NC';
}

/** The test gateway's id, as GET /companies/{companyId}/payment-gateways lists it. */
export const sandboxGatewayId = 'sandbox';

export const sandboxPagePath = (token: string) => `/api/payments/sandbox/${token}`;

type SandboxRow = SandboxTransaction;

/** What a committed sandbox transaction answers, to a commit and to a status query alike. */
function outcomeOf(row: SandboxRow, token: string): ConfirmResult {
  if (row.decision !== 'approved') {
    return { ...emptyResult, amountClp: row.amountClp, responseCode: -1, status: 'declined', detail: 'Pago rechazado' };
  }
  const instalments = row.instalments ?? 1;
  return {
    status: 'authorized',
    amountClp: row.amountClp,
    instalments,
    paymentTypeCode: paymentTypeForInstalments(instalments),
    authorizationCode: String(100000 + (Number.parseInt(token.slice(-4), 16) % 900000)),
    cardLastDigits: '6623',
    responseCode: 0,
    detail: 'Pago autorizado (pasarela de prueba)',
  };
}

/**
 * The built-in test gateway (like a card network's test mode): a page served by this API where the payer
 * approves (1–6 instalments), declines or abandons, after which the browser returns exactly as from Webpay. Its
 * ledger is the payments module's sandbox_transactions table, read and written through that module's service.
 */
export function sandboxGateway(db: Database, ledger: SandboxLedger): PaymentGateway {
  return {
    id: sandboxGatewayId,
    testMode: true,
    async start({ buyOrder, sessionId, amountClp, returnUrl }) {
      const token = `sbx_${randomBytes(16).toString('hex')}`;
      await ledger.insert(db, { token, buyOrder, sessionId, amountClp, returnUrl });
      // The page lives on this API, at the origin the payer comes back to: the return URL is built from
      // configuration only (PUBLIC_URL or an allowed Host; see lib/security/origins.ts), never from what a request says.
      return { redirectUrl: `${new URL(returnUrl).origin}${sandboxPagePath(token)}`, externalId: token };
    },
    async confirm(externalId, params) {
      const kind = classifyReturn(params);
      if (kind === 'timeout') return { ...emptyResult, status: 'timeout', detail: 'Se agotó el tiempo para pagar' };
      if (kind === 'aborted') return { ...emptyResult, status: 'aborted', detail: 'El pago fue abandonado' };
      if (kind === 'error' || !externalId)
        return { ...emptyResult, status: 'error', detail: 'La pasarela mostró un error' };
      const row = await ledger.find(db, externalId);
      if (!row || row.status === 'created' || row.status === 'aborted') {
        return { ...emptyResult, status: 'error', detail: 'Transacción de prueba inexistente o sin decisión' };
      }
      // Committing again answers the same, as Webpay's status does for a committed transaction.
      if (row.status !== 'committed') {
        await ledger.commit(db, externalId);
      }
      return outcomeOf(row, externalId);
    },
    async status(externalId) {
      const row = await ledger.find(db, externalId);
      if (!row) return { ...emptyResult, status: 'error', open: false, detail: 'Transacción de prueba inexistente' };
      if (row.status === 'aborted') {
        return { ...emptyResult, status: 'aborted', open: false, detail: 'El pago fue abandonado' };
      }
      // Decided on the page but not committed yet (or not decided at all): it waits for our commit, as Webpay's would.
      if (row.status !== 'committed') {
        return { ...emptyResult, status: 'error', open: true, detail: 'La pasarela de prueba espera la confirmación' };
      }
      return { ...outcomeOf(row, externalId), open: false, refundedClp: row.refundedClp ?? 0 };
    },
    async refund(externalId, amountClp) {
      return (await ledger.refund(db, externalId, amountClp))
        ? { status: 'refunded', detail: 'Reembolsado en la pasarela de prueba' }
        : { status: 'failed', detail: 'La pasarela de prueba no tiene ese pago aprobado' };
    },
  };
}
