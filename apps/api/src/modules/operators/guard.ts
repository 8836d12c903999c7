import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, resourceNotFound } from '#app/errors.ts';
import { inNetworks, type Network } from '#app/lib/security/networks.ts';
import type { AuditActor } from '../audit/service.ts';
import { sameText } from './secrets.ts';
import {
  type ApiKeyView,
  authenticateApiKey,
  authenticateSession,
  messages,
  type OperatorDeps,
  type Role,
  roleList,
  type SignedIn,
} from './service.ts';

/**
 * Who may call each console route (issue 24), the one table the guard reads (and docs/backoffice-roles.md shows):
 * - `public`: anyone (enrolment, sign-in), rate-limited;
 * - `session`: any signed-in operator, whatever their roles (their own session, sessions, sign-out); never an API key;
 * - a list of roles: an operator session or an API key holding one of them.
 * A console route missing from the table is refused (403) to everyone: a new route must be placed here first.
 */
export type Access = 'public' | 'session' | readonly Role[];

export const backofficeAccess = {
  'GET /enrolment/:token': 'public',
  'POST /enrolment/:token': 'public',
  'POST /sign-in': 'public',
  'POST /sign-in/second-factor': 'public',
  'GET /me': 'session',
  'POST /sign-out': 'session',
  'GET /sessions': 'session',
  'DELETE /sessions/:id': 'session',
  'GET /today': roleList,
  'GET /operators': ['admin'],
  'POST /operators': ['admin'],
  'PATCH /operators/:id': ['admin'],
  'POST /operators/:id/reset-factors': ['admin'],
  'GET /api-keys': ['admin'],
  'POST /api-keys': ['admin'],
  'DELETE /api-keys/:id': ['admin'],
  'GET /audit': ['admin'],
  'GET /audit.csv': ['admin'],
  // 2. Ventas (purchases/console-routes.ts): finance reads, support acts on the buyer's behalf.
  'GET /sales': ['admin', 'support', 'finance'],
  'GET /sales/:id': ['admin', 'support', 'finance'],
  'POST /sales/:id/certificate-email': ['admin', 'support'],
  'POST /sales/:id/revoke-access': ['admin', 'support'],
  'POST /sales/:id/withdrawal': ['admin', 'support'],
  'POST /sales/:id/travellers/:seq/correction': ['admin', 'support'],
  // Screen 3, «Reembolsos de ventas» (payments/console-routes.ts).
  'GET /sale-refunds': ['admin', 'finance'],
  'POST /sale-refunds/:id/hold': ['admin', 'finance'],
  'POST /sale-refunds/:id/transfer': ['admin', 'finance'],
  'POST /sale-refunds/:id/release': ['admin', 'finance'],
  // Screen 4, claims («Reembolsos»): every role that serves travellers reads them; support handles them (assigns,
  // changes status, asks for documents, approves amounts); finance records what was paid; all three write notes.
  'GET /claims': ['admin', 'support', 'finance'],
  'GET /claims/:number': ['admin', 'support', 'finance'],
  'POST /claims/:number/assign': ['admin', 'support'],
  'POST /claims/:number/status': ['admin', 'support'],
  'POST /claims/:number/payment': ['admin', 'finance'],
  'POST /claims/:number/notes': ['admin', 'support', 'finance'],
  'GET /claim-documents/:id': ['admin', 'support', 'finance'],
  // «Trabajos con fallas» (jobs/console-routes.ts): what failed may name anyone; administrators look and retry.
  'GET /jobs': ['admin'],
  'POST /jobs/:id/retry': ['admin'],
  // Tax documents not issued (tax-documents/console-routes.ts): finance answers for them with the administrators.
  'GET /tax-documents': ['admin', 'finance'],
  'POST /tax-documents/:id/retry': ['admin', 'finance'],
  // Screens 5 and 6, «Contacto» and «Newsletter» (contact/console-routes.ts, subscriptions/console-routes.ts).
  'GET /contact-requests': ['admin', 'support'],
  'GET /contact-requests/:id': ['admin', 'support'],
  'POST /contact-requests/:id/reply': ['admin', 'support'],
  'POST /contact-requests/:id/handled': ['admin', 'support'],
  'GET /newsletter/subscribers': ['admin', 'support', 'content'],
  'DELETE /newsletter/subscribers/:id': ['admin', 'support', 'content'],
  'GET /newsletter/subscribers.csv': ['admin', 'content'],
  // 7. Datos personales (Ley 19.628 / 21.719)
  'GET /privacy/search': ['admin', 'support'],
  'GET /privacy/export': ['admin', 'support'],
  'GET /privacy/requests': ['admin', 'support'],
  'POST /privacy/requests': ['admin', 'support'],
  'POST /privacy/requests/:id/answer': ['admin', 'support'],
  'POST /privacy/rectify': ['admin', 'support'],
  'POST /privacy/erase': ['admin', 'support'],
  // Issue 25, item 3: «Códigos de descuento» (plans/discount-console-routes.ts): pricing edits, finance reads.
  'GET /discount-codes': ['admin', 'pricing', 'finance'],
  'POST /discount-codes': ['admin', 'pricing'],
  'PUT /discount-codes/:code': ['admin', 'pricing'],
  'POST /discount-codes/:code/deactivate': ['admin', 'pricing'],
  // «Adicionales» (issue 27 §1; plans/add-on-console-routes.ts): priced like plans, so pricing and administrators edit;
  // finance and content (who write the plans' texts) read.
  'GET /add-ons': ['admin', 'pricing', 'finance', 'content'],
  'GET /add-ons/:id': ['admin', 'pricing', 'finance', 'content'],
  'POST /add-ons': ['admin', 'pricing'],
  'PUT /add-ons/:id': ['admin', 'pricing'],
  'POST /add-ons/:id/deactivate': ['admin', 'pricing'],
  // «Tipo de cambio» (catalog/console-routes.ts, issue 25): pricing and admin change it; finance reads it.
  'GET /exchange-rates': ['admin', 'pricing', 'finance'],
  'POST /exchange-rates': ['admin', 'pricing'],
  'POST /exchange-rates/fetch': ['admin', 'pricing'],
  // «Precios» (issue 25; plans/console-routes.ts and the publishing model's routes for the kind `prices`): pricing
  // and administrators edit and publish; finance reads prices, their impact and their history.
  'GET /prices': ['admin', 'pricing', 'finance', 'content'],
  'GET /prices/:key': ['admin', 'pricing', 'finance'],
  'GET /prices/:key/grid': ['admin', 'pricing', 'finance'],
  'GET /prices/:key/impact': ['admin', 'pricing', 'finance'],
  'GET /prices/:key/history': ['admin', 'pricing', 'finance'],
  'PUT /prices/:key/draft': ['admin', 'pricing'],
  'POST /prices/:key/preview-link': ['admin', 'pricing'],
  'POST /prices/:key/publish': ['admin', 'pricing'],
  'DELETE /prices/:key/scheduled': ['admin', 'pricing'],
  'POST /prices/:key/rollback': ['admin', 'pricing'],
  // «Geografía» (issue 25, item 5; catalog/geography.ts through the publishing model's routes): content and
  // administrators, like the site: regions, countries and origins change what is offered, never an amount.
  'GET /geography-modalities': ['admin', 'content'],
  'GET /geography/:key': ['admin', 'content'],
  'GET /geography/:key/history': ['admin', 'content'],
  'PUT /geography/:key/draft': ['admin', 'content'],
  'POST /geography/:key/preview-link': ['admin', 'content'],
  'POST /geography/:key/publish': ['admin', 'content'],
  'DELETE /geography/:key/scheduled': ['admin', 'content'],
  'POST /geography/:key/rollback': ['admin', 'content'],
  // «Planes» (issue 25 item 1; the publishing model's routes for the kind `plans` and plans/plan-files.ts): content
  // and administrators edit, upload and publish; pricing reads (the plan list is GET /prices).
  'GET /plans/:key': ['admin', 'content', 'pricing'],
  'GET /plans/:key/history': ['admin', 'content', 'pricing'],
  'GET /plans/:key/options': ['admin', 'content', 'pricing'],
  'PUT /plans/:key/draft': ['admin', 'content'],
  'POST /plans/:key/preview-link': ['admin', 'content'],
  'POST /plans/:key/publish': ['admin', 'content'],
  'DELETE /plans/:key/scheduled': ['admin', 'content'],
  'POST /plans/:key/rollback': ['admin', 'content'],
  'POST /plans/:key/image': ['admin', 'content'],
  'POST /plans/:key/conditions': ['admin', 'content'],
  // «El sitio» (issue 25, item 6; company/site.ts and content/site-contacts.ts through the publishing model's routes):
  // content and administrators edit and publish the navigation bar, footer, contacts, WhatsApp, flags and scripts.
  'GET /site-navigation/:key': ['admin', 'content'],
  'GET /site-navigation/:key/history': ['admin', 'content'],
  'PUT /site-navigation/:key/draft': ['admin', 'content'],
  'POST /site-navigation/:key/preview-link': ['admin', 'content'],
  'POST /site-navigation/:key/publish': ['admin', 'content'],
  'DELETE /site-navigation/:key/scheduled': ['admin', 'content'],
  'POST /site-navigation/:key/rollback': ['admin', 'content'],
  'GET /site-footer/:key': ['admin', 'content'],
  'GET /site-footer/:key/history': ['admin', 'content'],
  'PUT /site-footer/:key/draft': ['admin', 'content'],
  'POST /site-footer/:key/preview-link': ['admin', 'content'],
  'POST /site-footer/:key/publish': ['admin', 'content'],
  'DELETE /site-footer/:key/scheduled': ['admin', 'content'],
  'POST /site-footer/:key/rollback': ['admin', 'content'],
  'GET /site-contacts/:key': ['admin', 'content'],
  'GET /site-contacts/:key/history': ['admin', 'content'],
  'PUT /site-contacts/:key/draft': ['admin', 'content'],
  'POST /site-contacts/:key/preview-link': ['admin', 'content'],
  'POST /site-contacts/:key/publish': ['admin', 'content'],
  'DELETE /site-contacts/:key/scheduled': ['admin', 'content'],
  'POST /site-contacts/:key/rollback': ['admin', 'content'],
  'GET /site-whatsapp/:key': ['admin', 'content'],
  'GET /site-whatsapp/:key/history': ['admin', 'content'],
  'PUT /site-whatsapp/:key/draft': ['admin', 'content'],
  'POST /site-whatsapp/:key/preview-link': ['admin', 'content'],
  'POST /site-whatsapp/:key/publish': ['admin', 'content'],
  'DELETE /site-whatsapp/:key/scheduled': ['admin', 'content'],
  'POST /site-whatsapp/:key/rollback': ['admin', 'content'],
  'GET /site-flags/:key': ['admin', 'content'],
  'GET /site-flags/:key/history': ['admin', 'content'],
  'PUT /site-flags/:key/draft': ['admin', 'content'],
  'POST /site-flags/:key/preview-link': ['admin', 'content'],
  'POST /site-flags/:key/publish': ['admin', 'content'],
  'DELETE /site-flags/:key/scheduled': ['admin', 'content'],
  'POST /site-flags/:key/rollback': ['admin', 'content'],
  'GET /site-scripts/:key': ['admin', 'content'],
  'GET /site-scripts/:key/history': ['admin', 'content'],
  'PUT /site-scripts/:key/draft': ['admin', 'content'],
  'POST /site-scripts/:key/publish': ['admin', 'content'],
  'DELETE /site-scripts/:key/scheduled': ['admin', 'content'],
  'POST /site-scripts/:key/rollback': ['admin', 'content'],
  'GET /site-home/:key': ['admin', 'content'],
  'GET /site-home/:key/history': ['admin', 'content'],
  'PUT /site-home/:key/draft': ['admin', 'content'],
  'POST /site-home/:key/preview-link': ['admin', 'content'],
  'POST /site-home/:key/publish': ['admin', 'content'],
  'DELETE /site-home/:key/scheduled': ['admin', 'content'],
  'POST /site-home/:key/rollback': ['admin', 'content'],
  // «Preguntas frecuentes» (issue 25 item 7; content/faq-kind.ts through the publishing model's routes, key `faq`):
  // content operators and administrators edit, publish and roll back.
  'GET /faq/:key': ['admin', 'content'],
  'GET /faq/:key/history': ['admin', 'content'],
  'PUT /faq/:key/draft': ['admin', 'content'],
  'POST /faq/:key/publish': ['admin', 'content'],
  'DELETE /faq/:key/scheduled': ['admin', 'content'],
  'POST /faq/:key/rollback': ['admin', 'content'],
  'POST /faq/:key/preview-link': ['admin', 'content'],
  // «Textos legales» (issue 25 item 7; legal/legal-kind.ts, key: the page's slug): each publication a new version.
  'GET /legal-pages/:key': ['admin', 'content'],
  'GET /legal-pages/:key/history': ['admin', 'content'],
  'PUT /legal-pages/:key/draft': ['admin', 'content'],
  'POST /legal-pages/:key/publish': ['admin', 'content'],
  'DELETE /legal-pages/:key/scheduled': ['admin', 'content'],
  'POST /legal-pages/:key/rollback': ['admin', 'content'],
  'POST /legal-pages/:key/preview-link': ['admin', 'content'],
  // «Blog» (issue 25 item 7; blog/blog-kind.ts through the publishing model's routes, one key per post, and
  // blog/console-routes.ts): content operators and administrators write, upload, publish, retire and roll back.
  'GET /blog-posts': ['admin', 'content'],
  'POST /blog-posts': ['admin', 'content'],
  'POST /blog-markdown': ['admin', 'content'],
  'POST /blog-images': ['admin', 'content'],
  'GET /blog/:key': ['admin', 'content'],
  'GET /blog/:key/history': ['admin', 'content'],
  'PUT /blog/:key/draft': ['admin', 'content'],
  'POST /blog/:key/preview-link': ['admin', 'content'],
  'POST /blog/:key/publish': ['admin', 'content'],
  'DELETE /blog/:key/scheduled': ['admin', 'content'],
  'POST /blog/:key/rollback': ['admin', 'content'],
} as const satisfies Record<string, Access>;

export type BackofficeRoute = keyof typeof backofficeAccess;

/** The caller of a console request, once the guard let it through. */
export type Caller =
  | { kind: 'public' }
  | { kind: 'session'; signedIn: SignedIn; actor: AuditActor }
  | { kind: 'api-key'; apiKey: ApiKeyView; actor: AuditActor };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the console's guard on every /api/backoffice request. */
    backofficeCaller: Caller | null;
  }
}

export type CookieSettings = { name: string; secure: boolean };

/** `__Host-travesia_operator` (Secure) over https and in production; `travesia_operator` on http://localhost. */
export const cookieSettings = (secure: boolean): CookieSettings => ({
  name: secure ? '__Host-travesia_operator' : 'travesia_operator',
  secure,
});

export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

export function setSessionCookie(reply: FastifyReply, cookie: CookieSettings, token: string, maxAgeSeconds: number) {
  const attributes = ['Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (cookie.secure) attributes.push('Secure');
  reply.header('set-cookie', `${cookie.name}=${token}; ${attributes.join('; ')}`);
}

export const clearSessionCookie = (reply: FastifyReply, cookie: CookieSettings) =>
  setSessionCookie(reply, cookie, '', 0);

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The console's guard, one onRequest hook for every /api/backoffice route (before the body is read): finds the
 * caller (API key by `Authorization: Bearer`, else the session cookie), checks the route's access in
 * `backofficeAccess` (401 without a caller, 403 without the role), and on every state-changing request the Origin
 * (when sent, it must be the console's) and, for a session, the X-CSRF-Token.
 */
export function backofficeGuard(
  deps: OperatorDeps,
  options: { prefix: string; origin: string; cookie: CookieSettings; allowedNetworks?: readonly Network[] },
) {
  return async (request: FastifyRequest) => {
    // BACKOFFICE_ALLOWED_NETWORKS guards the API as it guards the pages (the pages' loaders call it with the
    // browser's own address): from elsewhere, the console's API does not exist.
    const networks = options.allowedNetworks ?? [];
    if (networks.length > 0 && !inNetworks(request.ip, networks)) throw resourceNotFound();
    const route = `${request.method} ${(request.routeOptions.url ?? '').slice(options.prefix.length)}`;
    const access: Access | undefined = (backofficeAccess as Record<string, Access>)[route];
    if (access === undefined) throw new ApiError(403, messages.forbidden);
    const changes = !safeMethods.has(request.method);
    if (changes) {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== options.origin) throw new ApiError(403, messages.csrf);
    }
    if (access === 'public') {
      request.backofficeCaller = { kind: 'public' };
      return;
    }
    const ip = request.ip;
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (request.headers.authorization !== undefined) {
      const apiKey = bearer ? await authenticateApiKey(deps, bearer) : undefined;
      if (!apiKey) throw new ApiError(401, messages.signInRequired);
      if (access === 'session' || !apiKey.roles.some((role) => access.includes(role))) {
        throw new ApiError(403, messages.forbidden);
      }
      request.backofficeCaller = {
        kind: 'api-key',
        apiKey,
        actor: { apiKeyId: apiKey.id, label: `api-key:${apiKey.name}`, ip },
      };
      return;
    }
    const token = cookieValue(request, options.cookie.name);
    const signedIn = token ? await authenticateSession(deps, token) : undefined;
    if (!signedIn) throw new ApiError(401, messages.signInRequired);
    if (changes) {
      const given = request.headers['x-csrf-token'];
      if (typeof given !== 'string' || !sameText(given, signedIn.csrfToken)) throw new ApiError(403, messages.csrf);
    }
    if (access !== 'session' && !signedIn.operator.roles.some((role) => (access as readonly string[]).includes(role))) {
      throw new ApiError(403, messages.forbidden);
    }
    request.backofficeCaller = {
      kind: 'session',
      signedIn,
      actor: { operatorId: signedIn.operator.id, label: signedIn.operator.email, ip },
    };
  };
}
