import type { FastifyPluginAsync } from 'fastify';
import { contactConsoleRoutes } from '../contact/console-routes.ts';
import { newsletterConsoleRoutes } from '../subscriptions/console-routes.ts';

/**
 * The console's screens beyond operators, keys and audit (issue 24): each module keeps its console routes in its own
 * `console-routes.ts` and lists them here. They register inside backofficeRoutes (routes.ts), under
 * /api/backoffice, behind its guard: each route must also have its line in guard.ts's `backofficeAccess`.
 */
export const consoleScreens: readonly FastifyPluginAsync[] = [contactConsoleRoutes, newsletterConsoleRoutes];
