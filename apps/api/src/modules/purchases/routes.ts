import type { FastifyInstance } from 'fastify';
import type { PurchaseSteps } from '#app/modules/payments/service.ts';
import { accessRoutes, closeAccessRoutes } from './access-routes.ts';
import { addOnPurchaseRoutes, dateChangeRoutes, withdrawalRoute } from './change-routes.ts';
import { purchaseDocumentRoutes, purchaseViewRoute } from './document-routes.ts';

/**
 * «Mi compra» without an account: a code by e-mail or a signed link opens one paid sale for a short while. The route
 * groups share this plugin's context (no encapsulation of their own); what they tell the rest of the app goes
 * through `app.work` (a code or an e-mail queued, a sale paid, a withdrawal, a refund due).
 */
export function purchaseRoutes(options: {
  /** The purchase workflow's steps payments runs (a date change's difference paid: certificates replaced). */
  workflow: PurchaseSteps;
}) {
  return async (fastify: FastifyInstance) => {
    accessRoutes(fastify);
    purchaseViewRoute(fastify);
    purchaseDocumentRoutes(fastify);
    withdrawalRoute(fastify);
    dateChangeRoutes(fastify, options);
    addOnPurchaseRoutes(fastify, options);
    closeAccessRoutes(fastify);
  };
}
