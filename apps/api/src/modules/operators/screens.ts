import type { FastifyPluginAsync } from 'fastify';
import { saleRefundConsoleRoutes } from '../payments/console-routes.ts';
import { privacyConsoleRoutes } from '../privacy/console-routes.ts';
import { salesConsoleRoutes } from '../purchases/console-routes.ts';

/**
 * The console's screens beyond operators, keys and audit (issue 24): each module keeps its console routes in its own
 * `console-routes.ts` and lists them here. They register inside backofficeRoutes (routes.ts), under
 * /api/backoffice, behind its guard: each route must also have its line in guard.ts's `backofficeAccess`.
 */
export const consoleScreens: readonly FastifyPluginAsync[] = [
  // 2. Ventas
  salesConsoleRoutes,
  // 3. Reembolsos de ventas
  saleRefundConsoleRoutes,
  // 7. Datos personales
  privacyConsoleRoutes,
];
