import { errorMessages } from '@travesia/domain/messages';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBodySchema, errorResponses } from '#app/errors.ts';
import { typed } from '#app/http.ts';
import { publicBaseUrl } from '#app/lib/security/public-origin.ts';
import type { PaymentDeps, PurchaseSteps } from '#app/modules/payments/service.ts';
import { addOnsToBuy, buyAddOns } from './add-on-purchase.ts';
import { confirmDateChange, previewDateChange } from './date-change.ts';
import {
  addOnPurchaseRequest,
  addOnPurchaseResultSchema,
  addOnsToBuySchema,
  bearer,
  buyerOnly,
  dateChangePreviewSchema,
  dateChangeRequest,
  dateChangeResultSchema,
  tags,
  tokenOf,
  withdrawalSchema,
} from './schemas.ts';
import { requireAccess, requireBuyer } from './service.ts';
import { withdraw } from './withdrawal.ts';

/** «Retractarme»: the buyer cancels the purchase within the legal window (withdrawal.ts). */
export function withdrawalRoute(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db } = fastify;

  app.post(
    '/purchases/mine/withdrawal',
    {
      schema: {
        tags,
        description:
          '«Retractarme» (derecho a retracto): until the end (midnight, Chile time) of the 10th calendar day after the purchase date and before the trip starts, cancels the open purchase — certificates voided, the whole amount refunded through the gateway that took it, a confirmation e-mailed. Idempotent: repeated or concurrent calls answer the same state and refund once. Outside the window: 409 with the reason. Without a live token: 404.',
        headers: bearer,
        response: { 200: withdrawalSchema, ...errorResponses, ...buyerOnly, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      const { withdrew, state } = await withdraw(db, saleId);
      if (withdrew) fastify.work.emit('purchaseWithdrawn');
      reply.header('Cache-Control', 'private, no-store');
      return state;
    },
  );
}

/** What a change of a paid purchase pays through (a date change's difference, add-ons bought afterwards). */
const changeDeps = (fastify: FastifyInstance, workflow: PurchaseSteps, request: FastifyRequest): PaymentDeps => ({
  db: fastify.db,
  gateways: fastify.integrations.gateways,
  onPaid: (paidSaleId) => fastify.work.emit('salePaid', paidSaleId),
  workflow,
  log: request.log,
});

/**
 * A date change of the open purchase: its preview, and its confirmation, which runs the purchase workflow's steps
 * through payments (a difference paid: certificates replaced).
 */
export function dateChangeRoutes(fastify: FastifyInstance, options: { workflow: PurchaseSteps }) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.post(
    '/purchases/mine/date-change/preview',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs },
      schema: {
        tags,
        description:
          'Reprices the open purchase for new trip dates, and optionally another country of the same destination region (same plan, region and travellers, the quoter’s rules): the new price, the difference and what confirming does. Nothing is written. A country outside the region: 400 (country_outside_region); nothing changed: 400 (same_dates). After the departure date or on a purchase that cannot change: 409.',
        headers: bearer,
        body: dateChangeRequest,
        response: { 200: dateChangePreviewSchema, ...errorResponses, ...buyerOnly, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      reply.header('Cache-Control', 'private, no-store');
      return previewDateChange({ db }, saleId, request.body);
    },
  );

  app.post(
    '/purchases/mine/date-change',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.paymentStart },
      schema: {
        tags,
        description:
          'Changes the trip dates (and optionally the country inside the same destination region) of the open purchase. A higher price answers `redirectUrl`: the buyer pays the difference there and the change is applied when the gateway approves it (declined or abandoned: nothing changes). A lower or equal price is applied at once and the difference is refunded through the gateway. New certificates replace the old ones (voided) and are e-mailed.',
        headers: bearer,
        body: dateChangeRequest,
        response: {
          200: dateChangeResultSchema,
          ...errorResponses,
          ...buyerOnly,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      const base = publicBaseUrl(request, config);
      return confirmDateChange(
        { ...changeDeps(fastify, options.workflow, request), nudgeRefunds: () => fastify.work.emit('refundRequested') },
        saleId,
        request.body,
        (gatewayId) => `${base}/api/payments/return/${gatewayId}`,
      );
    },
  );
}

/** Add-ons bought from «Mi compra» after the purchase (add-on-purchase.ts): what can be added, and buying them. */
export function addOnPurchaseRoutes(fastify: FastifyInstance, options: { workflow: PurchaseSteps }) {
  const app = typed(fastify);
  const { db, config } = fastify;

  app.get(
    '/purchases/mine/add-ons',
    {
      schema: {
        tags,
        description:
          'Not in spec §7 (issue 27 §1): the add-ons the buyer can still add to each traveller of the open purchase (marked buyable after purchase, for that traveller’s age band, the trip and the plan, not bought yet), priced today. After the departure date or on a purchase that cannot change: 409. The buyer’s access only.',
        headers: bearer,
        response: { 200: addOnsToBuySchema, ...errorResponses, ...buyerOnly, 409: errorBodySchema },
      },
    },
    async (request, reply) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      reply.header('Cache-Control', 'private, no-store');
      return addOnsToBuy({ db }, saleId);
    },
  );

  app.post(
    '/purchases/mine/add-ons',
    {
      config: { invalidInputDetail: errorMessages.invalidInputs, rateLimit: config.rateLimits.paymentStart },
      schema: {
        tags,
        description:
          'Adds add-ons to travellers of the open purchase: priced on the server, paid through the gateway that took the purchase (`redirectUrl`); the certificates are issued again with them when the gateway approves (declined or abandoned: nothing changes). One not on offer to that traveller: 400 on its field.',
        headers: bearer,
        body: addOnPurchaseRequest,
        response: {
          200: addOnPurchaseResultSchema,
          ...errorResponses,
          ...buyerOnly,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (request) => {
      const saleId = requireBuyer(await requireAccess(db, tokenOf(request)));
      const base = publicBaseUrl(request, config);
      return buyAddOns(
        changeDeps(fastify, options.workflow, request),
        saleId,
        request.body,
        (gatewayId) => `${base}/api/payments/return/${gatewayId}`,
      );
    },
  );
}
