import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#app/db/client.ts';
import { sandboxTransactions } from '#app/db/schema.ts';
import { classifyReturn, emptyResult, type PaymentGateway } from './gateway.ts';

/** Webpay's payment type codes for interest-free instalments (chile-facts). */
export function paymentTypeForInstalments(instalments: number): string {
  if (instalments <= 1) return 'VN';
  if (instalments === 2) return 'S2';
  if (instalments === 3) return 'SI';
  return 'NC';
}

export const sandboxPagePath = (token: string) => `/api/payments/sandbox/${token}`;

/**
 * The built-in test gateway (like a card network's test mode): a page served by this API where the payer
 * approves (1–6 instalments), declines or abandons, after which the browser returns exactly as from Webpay.
 */
export function sandboxGateway(db: Database): PaymentGateway {
  return {
    id: 'sandbox',
    async start({ buyOrder, sessionId, amountClp, returnUrl }) {
      const token = `sbx_${randomBytes(16).toString('hex')}`;
      await db.insert(sandboxTransactions).values({ token, buyOrder, sessionId, amountClp, returnUrl });
      // The page lives on this API, at the origin the payer comes back to: the return URL is built from
      // configuration only (PUBLIC_URL or an allowed Host; see lib/origins.ts), never from what a request says.
      return { redirectUrl: `${new URL(returnUrl).origin}${sandboxPagePath(token)}`, externalId: token };
    },
    async confirm(externalId, params) {
      const kind = classifyReturn(params);
      if (kind === 'timeout') return { ...emptyResult, status: 'timeout', detail: 'Se agotó el tiempo para pagar' };
      if (kind === 'aborted') return { ...emptyResult, status: 'aborted', detail: 'El pago fue abandonado' };
      if (kind === 'error' || !externalId)
        return { ...emptyResult, status: 'error', detail: 'La pasarela mostró un error' };
      const [row] = await db.select().from(sandboxTransactions).where(eq(sandboxTransactions.token, externalId));
      if (!row || row.status === 'created' || row.status === 'aborted') {
        return { ...emptyResult, status: 'error', detail: 'Transacción de prueba inexistente o sin decisión' };
      }
      // Committing again answers the same, as Webpay's status does for a committed transaction.
      if (row.status !== 'committed') {
        await db
          .update(sandboxTransactions)
          .set({ status: 'committed' })
          .where(eq(sandboxTransactions.token, externalId));
      }
      if (row.decision !== 'approved') {
        return {
          ...emptyResult,
          amountClp: row.amountClp,
          responseCode: -1,
          status: 'declined',
          detail: 'Pago rechazado',
        };
      }
      const instalments = row.instalments ?? 1;
      return {
        status: 'authorized',
        amountClp: row.amountClp,
        instalments,
        paymentTypeCode: paymentTypeForInstalments(instalments),
        authorizationCode: String(100000 + (Number.parseInt(externalId.slice(-4), 16) % 900000)),
        cardLastDigits: '6623',
        responseCode: 0,
        detail: 'Pago autorizado (pasarela de prueba)',
      };
    },
  };
}
