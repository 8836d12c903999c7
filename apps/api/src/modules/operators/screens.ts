import type { FastifyPluginAsync } from 'fastify';
import { blogConsoleRoutes } from '../blog/console-routes.ts';
import { exchangeRateConsoleRoutes, geographyConsoleRoutes } from '../catalog/console-routes.ts';
import { claimConsoleRoutes } from '../claims/console-routes.ts';
import { contactConsoleRoutes } from '../contact/console-routes.ts';
import { jobsConsoleRoutes } from '../jobs/console-routes.ts';
import { saleRefundConsoleRoutes } from '../payments/console-routes.ts';
import { addOnConsoleRoutes } from '../plans/add-on-console-routes.ts';
import { pricesConsoleRoutes } from '../plans/console-routes.ts';
import { discountCodeConsoleRoutes } from '../plans/discount-console-routes.ts';
import { planFileConsoleRoutes } from '../plans/plan-files.ts';
import { privacyConsoleRoutes } from '../privacy/console-routes.ts';
import { publishingConsoleRoutes } from '../publishing/console-routes.ts';
import { salesConsoleRoutes } from '../purchases/console-routes.ts';
import { newsletterConsoleRoutes } from '../subscriptions/console-routes.ts';
import { taxDocumentsConsoleRoutes } from '../tax-documents/console-routes.ts';

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
  // 4. Reembolsos (claims)
  claimConsoleRoutes,
  // 5. Contacto
  contactConsoleRoutes,
  // 6. Newsletter
  newsletterConsoleRoutes,
  // «Trabajos con fallas» (the «Hoy» figure's list)
  jobsConsoleRoutes,
  // «Documentos tributarios sin emitir» (issue 26, the «Hoy» figure's list)
  taxDocumentsConsoleRoutes,
  // 7. Datos personales
  privacyConsoleRoutes,
  // Issue 25, item 3: «Códigos de descuento»
  discountCodeConsoleRoutes,
  // Issue 27 §1: «Adicionales»
  addOnConsoleRoutes,
  // «Tipo de cambio» (issue 25)
  exchangeRateConsoleRoutes,
  // «Precios» (issue 25): the plans and the impact table; drafts, publishing and history are the publishing model's.
  pricesConsoleRoutes,
  // «Geografía» (issue 25, item 5): the form's modality names; the rest is the publishing model's kind `geography`.
  geographyConsoleRoutes,
  // «Planes» (issue 25 item 1): the image and general conditions uploads; the plan itself is the kind `plans`.
  planFileConsoleRoutes,
  // «Blog» (issue 25 item 7): the list, a new post, the Markdown preview and images; each post is the kind `blog`.
  blogConsoleRoutes,
  publishingConsoleRoutes,
];
