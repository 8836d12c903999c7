import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { auditEntries } from '#app/db/schema.ts';
import { type Access, type BackofficeRoute, backofficeAccess } from '#app/modules/operators/guard.ts';
import { type Role, roleList } from '#app/modules/operators/service.ts';
import { asOperator, enrolledOperator, type Operator, TestClock } from './support/backoffice.ts';
import { describeOnEachDatabase } from './support/harness.ts';
import { call } from './support/http.ts';

/**
 * The role matrix (issue 24, docs/backoffice-roles.md): every /api/backoffice route, called with every role, with no
 * session, and with API keys. A caller the table allows is never answered 401 or 403 (the route itself may answer
 * 400 or 404 to the deliberately unknown ids and bodies below); one it does not allow is answered 401 without a
 * caller and 403 with one.
 */

const clock = new TestClock();
const unknownId = '00000000-0000-4000-8000-000000000000';
let serial = 0;

/** A request to each route: path parameters that name nothing, and bodies that change nothing real. */
const requests: Record<
  BackofficeRoute,
  () => { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: unknown }
> = {
  'GET /enrolment/:token': () => ({ method: 'GET', url: `/api/backoffice/enrolment/${'x'.repeat(43)}` }),
  'POST /enrolment/:token': () => ({ method: 'POST', url: `/api/backoffice/enrolment/${'x'.repeat(43)}`, payload: {} }),
  'POST /sign-in': () => ({ method: 'POST', url: '/api/backoffice/sign-in', payload: {} }),
  'POST /sign-in/second-factor': () => ({ method: 'POST', url: '/api/backoffice/sign-in/second-factor', payload: {} }),
  'GET /me': () => ({ method: 'GET', url: '/api/backoffice/me' }),
  'POST /sign-out': () => ({ method: 'POST', url: '/api/backoffice/sign-out' }),
  'GET /sessions': () => ({ method: 'GET', url: '/api/backoffice/sessions' }),
  'DELETE /sessions/:id': () => ({ method: 'DELETE', url: `/api/backoffice/sessions/${unknownId}` }),
  'GET /today': () => ({ method: 'GET', url: '/api/backoffice/today' }),
  'GET /operators': () => ({ method: 'GET', url: '/api/backoffice/operators' }),
  'POST /operators': () => ({
    method: 'POST',
    url: '/api/backoffice/operators',
    payload: { email: `matriz${++serial}@travesia.cl`, roles: ['support'] },
  }),
  'PATCH /operators/:id': () => ({
    method: 'PATCH',
    url: `/api/backoffice/operators/${unknownId}`,
    payload: { roles: ['support'] },
  }),
  'POST /operators/:id/reset-factors': () => ({
    method: 'POST',
    url: `/api/backoffice/operators/${unknownId}/reset-factors`,
  }),
  'GET /api-keys': () => ({ method: 'GET', url: '/api/backoffice/api-keys' }),
  'POST /api-keys': () => ({
    method: 'POST',
    url: '/api/backoffice/api-keys',
    payload: { name: `matriz ${++serial}`, roles: ['finance'], expiresAt: '2027-06-01T00:00:00Z' },
  }),
  'DELETE /api-keys/:id': () => ({ method: 'DELETE', url: `/api/backoffice/api-keys/${unknownId}` }),
  'GET /audit': () => ({ method: 'GET', url: '/api/backoffice/audit' }),
  'GET /audit.csv': () => ({ method: 'GET', url: '/api/backoffice/audit.csv' }),
  // 2. Ventas: a sale id that names nothing (404 past the guard).
  'GET /sales': () => ({ method: 'GET', url: '/api/backoffice/sales?q=nadie' }),
  'GET /sales/:id': () => ({ method: 'GET', url: '/api/backoffice/sales/1' }),
  'POST /sales/:id/certificate-email': () => ({ method: 'POST', url: '/api/backoffice/sales/1/certificate-email' }),
  'POST /sales/:id/revoke-access': () => ({ method: 'POST', url: '/api/backoffice/sales/1/revoke-access' }),
  'POST /sales/:id/withdrawal': () => ({ method: 'POST', url: '/api/backoffice/sales/1/withdrawal' }),
  'POST /sales/:id/travellers/:seq/correction': () => ({
    method: 'POST',
    url: '/api/backoffice/sales/1/travellers/1/correction',
    payload: { firstName: 'Ana', lastName: 'Soto', document: { type: 2, id: 'X1234567' }, reason: 'Error de tipeo' },
  }),
  // Screen 3, «Reembolsos de ventas»: refund ids that name nothing.
  'GET /sale-refunds': () => ({ method: 'GET', url: '/api/backoffice/sale-refunds?state=held' }),
  'POST /sale-refunds/:id/hold': () => ({
    method: 'POST',
    url: '/api/backoffice/sale-refunds/2000000000/hold',
    payload: { version: 1, reason: 'Matriz de roles' },
  }),
  'POST /sale-refunds/:id/transfer': () => ({
    method: 'POST',
    url: '/api/backoffice/sale-refunds/2000000000/transfer',
    payload: { version: 1, reference: `MATRIZ-${++serial}` },
  }),
  'POST /sale-refunds/:id/release': () => ({
    method: 'POST',
    url: '/api/backoffice/sale-refunds/2000000000/release',
    payload: { version: 1 },
  }),
  // Screen 4, claims: numbers and ids that name nothing (404), bodies that would change nothing.
  'GET /claims': () => ({ method: 'GET', url: '/api/backoffice/claims?status=waiting' }),
  'GET /claims/:number': () => ({ method: 'GET', url: '/api/backoffice/claims/R-00000000' }),
  'POST /claims/:number/assign': () => ({
    method: 'POST',
    url: '/api/backoffice/claims/R-00000000/assign',
    payload: { version: 1, to: 'nobody' },
  }),
  'POST /claims/:number/status': () => ({
    method: 'POST',
    url: '/api/backoffice/claims/R-00000000/status',
    payload: { version: 1, status: 'en_revision' },
  }),
  'POST /claims/:number/payment': () => ({
    method: 'POST',
    url: '/api/backoffice/claims/R-00000000/payment',
    payload: { version: 1, paidAmountClp: 1000 },
  }),
  'POST /claims/:number/notes': () => ({
    method: 'POST',
    url: '/api/backoffice/claims/R-00000000/notes',
    payload: { text: 'Nota de la matriz' },
  }),
  'GET /claim-documents/:id': () => ({
    method: 'GET',
    url: '/api/backoffice/claim-documents/2147483000?expires=4102444800&signature=firma-falsa',
  }),
  'GET /jobs': () => ({ method: 'GET', url: '/api/backoffice/jobs' }),
  'POST /jobs/:id/retry': () => ({ method: 'POST', url: '/api/backoffice/jobs/2000000000/retry' }),
  'GET /tax-documents': () => ({ method: 'GET', url: '/api/backoffice/tax-documents' }),
  'POST /tax-documents/:id/retry': () => ({ method: 'POST', url: '/api/backoffice/tax-documents/2000000000/retry' }),
  // Screens 5 and 6, «Contacto» and «Newsletter».
  'GET /contact-requests': () => ({ method: 'GET', url: '/api/backoffice/contact-requests' }),
  'GET /contact-requests/:id': () => ({ method: 'GET', url: '/api/backoffice/contact-requests/2147483647' }),
  'POST /contact-requests/:id/reply': () => ({
    method: 'POST',
    url: '/api/backoffice/contact-requests/2147483647/reply',
    payload: { reply: 'Hola' },
  }),
  'POST /contact-requests/:id/handled': () => ({
    method: 'POST',
    url: '/api/backoffice/contact-requests/2147483647/handled',
  }),
  'GET /newsletter/subscribers': () => ({ method: 'GET', url: '/api/backoffice/newsletter/subscribers' }),
  'DELETE /newsletter/subscribers/:id': () => ({
    method: 'DELETE',
    url: '/api/backoffice/newsletter/subscribers/2147483647',
  }),
  'GET /newsletter/subscribers.csv': () => ({ method: 'GET', url: '/api/backoffice/newsletter/subscribers.csv' }),
  // 7. Datos personales
  'GET /privacy/search': () => ({ method: 'GET', url: '/api/backoffice/privacy/search?q=nadie.matriz%40example.cl' }),
  'GET /privacy/export': () => ({
    method: 'GET',
    url: '/api/backoffice/privacy/export?q=nadie.matriz%40example.cl&format=json',
  }),
  'GET /privacy/requests': () => ({ method: 'GET', url: '/api/backoffice/privacy/requests' }),
  'POST /privacy/requests': () => ({ method: 'POST', url: '/api/backoffice/privacy/requests', payload: {} }),
  'POST /privacy/requests/:id/answer': () => ({
    method: 'POST',
    url: '/api/backoffice/privacy/requests/2000000000/answer',
    payload: { answer: 'x' },
  }),
  'POST /privacy/rectify': () => ({
    method: 'POST',
    url: '/api/backoffice/privacy/rectify',
    payload: { source: 'subscription', id: 2000000000, email: 'nadie.matriz@example.cl' },
  }),
  'POST /privacy/erase': () => ({ method: 'POST', url: '/api/backoffice/privacy/erase', payload: {} }),
  // «Códigos de descuento»: a body the schema refuses (400 past the guard) and codes that name nothing (404).
  'GET /discount-codes': () => ({ method: 'GET', url: '/api/backoffice/discount-codes' }),
  'POST /discount-codes': () => ({ method: 'POST', url: '/api/backoffice/discount-codes', payload: {} }),
  'PUT /discount-codes/:code': () => ({
    method: 'PUT',
    url: '/api/backoffice/discount-codes/NADIEMATRIZ',
    payload: {
      kind: 'percent',
      percent: '10',
      validFrom: '2026-01-01',
      validTo: '2026-12-31',
      maxUses: null,
      maxUsesPerBuyer: null,
      productIds: null,
      version: 1,
    },
  }),
  'POST /discount-codes/:code/deactivate': () => ({
    method: 'POST',
    url: '/api/backoffice/discount-codes/NADIEMATRIZ/deactivate',
    payload: { version: 1 },
  }),
  // «Adicionales»: an empty body the schema refuses (400 past the guard) and an id that names nothing (404).
  'GET /add-ons': () => ({ method: 'GET', url: '/api/backoffice/add-ons' }),
  'GET /add-ons/:id': () => ({ method: 'GET', url: '/api/backoffice/add-ons/2000000000' }),
  'POST /add-ons': () => ({ method: 'POST', url: '/api/backoffice/add-ons', payload: {} }),
  'PUT /add-ons/:id': () => ({
    method: 'PUT',
    url: '/api/backoffice/add-ons/2000000000',
    payload: {
      code: 'nadie-matriz',
      name: 'Matriz',
      description: '',
      benefits: [],
      pricing: 'daily',
      priceUsdPerDay: '1',
      planPercent: null,
      passengerTypeIds: [],
      modalityIds: [],
      destinationIds: [],
      productIds: [],
      buyableAfterPurchase: false,
      sortOrder: 0,
      version: 1,
    },
  }),
  'POST /add-ons/:id/deactivate': () => ({
    method: 'POST',
    url: '/api/backoffice/add-ons/2000000000/deactivate',
    payload: { version: 1 },
  }),
  // «Tipo de cambio»: a body without a reason (400 past the guard); no source configured here (409).
  'GET /exchange-rates': () => ({ method: 'GET', url: '/api/backoffice/exchange-rates' }),
  'POST /exchange-rates': () => ({
    method: 'POST',
    url: '/api/backoffice/exchange-rates',
    payload: { clpPerUsd: '950' },
  }),
  'POST /exchange-rates/fetch': () => ({ method: 'POST', url: '/api/backoffice/exchange-rates/fetch' }),
  // «Precios» (issue 25): a plan id that names nothing (404 past the guard), bodies that would change nothing.
  'GET /prices': () => ({ method: 'GET', url: '/api/backoffice/prices' }),
  'GET /prices/:key': () => ({ method: 'GET', url: '/api/backoffice/prices/999999999' }),
  'GET /prices/:key/grid': () => ({ method: 'GET', url: '/api/backoffice/prices/999999999/grid' }),
  'GET /prices/:key/impact': () => ({ method: 'GET', url: '/api/backoffice/prices/999999999/impact' }),
  'GET /prices/:key/history': () => ({ method: 'GET', url: '/api/backoffice/prices/999999999/history' }),
  'PUT /prices/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/prices/999999999/draft',
    payload: { baseVersion: 0, body: { promotionBp: 0, covidFeeCentsPerDay: null, rates: [] } },
  }),
  'POST /prices/:key/preview-link': () => ({ method: 'POST', url: '/api/backoffice/prices/999999999/preview-link' }),
  'POST /prices/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/prices/999999999/publish',
    payload: { baseVersion: 1 },
  }),
  'DELETE /prices/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/prices/999999999/scheduled' }),
  'POST /prices/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/prices/999999999/rollback',
    payload: { publicationId: 2000000000 },
  }),
  // «Geografía»: a key that names nothing (404 past the guard).
  'GET /geography-modalities': () => ({ method: 'GET', url: '/api/backoffice/geography-modalities' }),
  'GET /geography/:key': () => ({ method: 'GET', url: '/api/backoffice/geography/nadie' }),
  'GET /geography/:key/history': () => ({ method: 'GET', url: '/api/backoffice/geography/nadie/history' }),
  'PUT /geography/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/geography/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /geography/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/geography/nadie/preview-link',
  }),
  'POST /geography/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/geography/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /geography/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/geography/nadie/scheduled' }),
  'POST /geography/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/geography/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  // «Planes» (issue 25 item 1): the kind `plans` on a plan that names nothing (404 past the guard); uploads without
  // a file (the plan is looked up first: 404).
  'GET /plans/:key': () => ({ method: 'GET', url: '/api/backoffice/plans/999999999' }),
  'GET /plans/:key/history': () => ({ method: 'GET', url: '/api/backoffice/plans/999999999/history' }),
  'GET /plans/:key/options': () => ({ method: 'GET', url: '/api/backoffice/plans/999999999/options' }),
  'PUT /plans/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/plans/999999999/draft',
    payload: { baseVersion: 0, body: {} },
  }),
  'POST /plans/:key/preview-link': () => ({ method: 'POST', url: '/api/backoffice/plans/999999999/preview-link' }),
  'POST /plans/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/plans/999999999/publish',
    payload: { baseVersion: 1 },
  }),
  'DELETE /plans/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/plans/999999999/scheduled' }),
  'POST /plans/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/plans/999999999/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'POST /plans/:key/image': () => ({ method: 'POST', url: '/api/backoffice/plans/999999999/image?nombre=a.png' }),
  'POST /plans/:key/conditions': () => ({
    method: 'POST',
    url: '/api/backoffice/plans/999999999/conditions?nombre=a.pdf',
  }),
  // «El sitio»: a key that names nothing (404 past the guard).
  'POST /site-navigation/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/site-navigation/nadie/preview-link',
  }),
  'POST /site-footer/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/site-footer/nadie/preview-link',
  }),
  'POST /site-whatsapp/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/site-whatsapp/nadie/preview-link',
  }),
  'POST /site-flags/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/site-flags/nadie/preview-link',
  }),
  'POST /site-home/:key/preview-link': () => ({ method: 'POST', url: '/api/backoffice/site-home/nadie/preview-link' }),
  'GET /site-navigation/:key': () => ({ method: 'GET', url: '/api/backoffice/site-navigation/nadie' }),
  'GET /site-navigation/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-navigation/nadie/history' }),
  'PUT /site-navigation/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-navigation/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-navigation/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-navigation/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-navigation/:key/scheduled': () => ({
    method: 'DELETE',
    url: '/api/backoffice/site-navigation/nadie/scheduled',
  }),
  'POST /site-navigation/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-navigation/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'GET /site-footer/:key': () => ({ method: 'GET', url: '/api/backoffice/site-footer/nadie' }),
  'GET /site-footer/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-footer/nadie/history' }),
  'PUT /site-footer/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-footer/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-footer/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-footer/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-footer/:key/scheduled': () => ({
    method: 'DELETE',
    url: '/api/backoffice/site-footer/nadie/scheduled',
  }),
  'POST /site-footer/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-footer/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'GET /site-contacts/:key': () => ({ method: 'GET', url: '/api/backoffice/site-contacts/nadie' }),
  'GET /site-contacts/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-contacts/nadie/history' }),
  'PUT /site-contacts/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-contacts/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-contacts/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/site-contacts/nadie/preview-link',
  }),
  'POST /site-contacts/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-contacts/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-contacts/:key/scheduled': () => ({
    method: 'DELETE',
    url: '/api/backoffice/site-contacts/nadie/scheduled',
  }),
  'POST /site-contacts/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-contacts/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'GET /site-whatsapp/:key': () => ({ method: 'GET', url: '/api/backoffice/site-whatsapp/nadie' }),
  'GET /site-whatsapp/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-whatsapp/nadie/history' }),
  'PUT /site-whatsapp/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-whatsapp/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-whatsapp/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-whatsapp/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-whatsapp/:key/scheduled': () => ({
    method: 'DELETE',
    url: '/api/backoffice/site-whatsapp/nadie/scheduled',
  }),
  'POST /site-whatsapp/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-whatsapp/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'GET /site-flags/:key': () => ({ method: 'GET', url: '/api/backoffice/site-flags/nadie' }),
  'GET /site-flags/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-flags/nadie/history' }),
  'PUT /site-flags/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-flags/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-flags/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-flags/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-flags/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/site-flags/nadie/scheduled' }),
  'POST /site-flags/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-flags/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'GET /site-scripts/:key': () => ({ method: 'GET', url: '/api/backoffice/site-scripts/nadie' }),
  'GET /site-scripts/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-scripts/nadie/history' }),
  'PUT /site-scripts/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-scripts/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-scripts/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-scripts/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-scripts/:key/scheduled': () => ({
    method: 'DELETE',
    url: '/api/backoffice/site-scripts/nadie/scheduled',
  }),
  'POST /site-scripts/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-scripts/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  'GET /site-home/:key': () => ({ method: 'GET', url: '/api/backoffice/site-home/nadie' }),
  'GET /site-home/:key/history': () => ({ method: 'GET', url: '/api/backoffice/site-home/nadie/history' }),
  'PUT /site-home/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/site-home/nadie/draft',
    payload: { body: {}, baseVersion: 0 },
  }),
  'POST /site-home/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/site-home/nadie/publish',
    payload: { baseVersion: 0 },
  }),
  'DELETE /site-home/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/site-home/nadie/scheduled' }),
  'POST /site-home/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/site-home/nadie/rollback',
    payload: { publicationId: 2000000000 },
  }),
  // The FAQ has one key, `faq`: an unknown key is a 404 past the guard, so no call here changes the FAQ.
  'GET /faq/:key': () => ({ method: 'GET', url: '/api/backoffice/faq/ninguna' }),
  'GET /faq/:key/history': () => ({ method: 'GET', url: '/api/backoffice/faq/ninguna/history' }),
  'PUT /faq/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/faq/ninguna/draft',
    payload: { baseVersion: 0, body: { categories: [] } },
  }),
  'POST /faq/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/faq/ninguna/publish',
    payload: { baseVersion: 1 },
  }),
  'DELETE /faq/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/faq/ninguna/scheduled' }),
  'POST /faq/:key/preview-link': () => ({ method: 'POST', url: '/api/backoffice/faq/ninguna/preview-link' }),
  'POST /faq/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/faq/ninguna/rollback',
    payload: { publicationId: 2000000000 },
  }),
  // Legal pages are keyed by slug: an unknown one is a 404 past the guard, so no call here changes a page.
  'GET /legal-pages/:key': () => ({ method: 'GET', url: '/api/backoffice/legal-pages/ninguna' }),
  'GET /legal-pages/:key/history': () => ({ method: 'GET', url: '/api/backoffice/legal-pages/ninguna/history' }),
  'PUT /legal-pages/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/legal-pages/ninguna/draft',
    payload: { baseVersion: 0, body: { title: 'T', description: 'D', bodyHtml: '<p>x</p>' } },
  }),
  'POST /legal-pages/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/legal-pages/ninguna/publish',
    payload: { baseVersion: 1 },
  }),
  'POST /legal-pages/:key/preview-link': () => ({
    method: 'POST',
    url: '/api/backoffice/legal-pages/ninguna/preview-link',
  }),
  'DELETE /legal-pages/:key/scheduled': () => ({
    method: 'DELETE',
    url: '/api/backoffice/legal-pages/ninguna/scheduled',
  }),
  'POST /legal-pages/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/legal-pages/ninguna/rollback',
    payload: { publicationId: 2000000000 },
  }),
  // The blog: a category and a post that name nothing (400 or 404 past the guard), a preview that stores nothing.
  'GET /blog-posts': () => ({ method: 'GET', url: '/api/backoffice/blog-posts' }),
  'POST /blog-posts': () => ({
    method: 'POST',
    url: '/api/backoffice/blog-posts',
    payload: { title: 'Matriz', categoryId: 2000000000 },
  }),
  'POST /blog-markdown': () => ({
    method: 'POST',
    url: '/api/backoffice/blog-markdown',
    payload: { markdown: '# Hola' },
  }),
  'POST /blog-images': () => ({ method: 'POST', url: '/api/backoffice/blog-images?nombre=foto.png' }),
  'GET /blog/:key': () => ({ method: 'GET', url: '/api/backoffice/blog/999999' }),
  'GET /blog/:key/history': () => ({ method: 'GET', url: '/api/backoffice/blog/999999/history' }),
  'PUT /blog/:key/draft': () => ({
    method: 'PUT',
    url: '/api/backoffice/blog/999999/draft',
    payload: { baseVersion: 0, body: {} },
  }),
  'POST /blog/:key/preview-link': () => ({ method: 'POST', url: '/api/backoffice/blog/999999/preview-link' }),
  'POST /blog/:key/publish': () => ({
    method: 'POST',
    url: '/api/backoffice/blog/999999/publish',
    payload: { baseVersion: 1 },
  }),
  'DELETE /blog/:key/scheduled': () => ({ method: 'DELETE', url: '/api/backoffice/blog/999999/scheduled' }),
  'POST /blog/:key/rollback': () => ({
    method: 'POST',
    url: '/api/backoffice/blog/999999/rollback',
    payload: { publicationId: 2000000000 },
  }),
};

type Caller = { name: string; roles: readonly Role[]; kind: 'none' | 'session' | 'api-key' };

const allows = (access: Access, caller: Caller) =>
  access === 'public' ||
  (access === 'session'
    ? caller.kind === 'session'
    : caller.kind !== 'none' && caller.roles.some((r) => access.includes(r)));

/** Sign-out ends the caller's session: it is tried last. */
const routes = (Object.keys(backofficeAccess) as BackofficeRoute[]).sort(
  (a, b) => Number(a === 'POST /sign-out') - Number(b === 'POST /sign-out'),
);

describeOnEachDatabase(
  'Operator console: the role matrix',
  (ctx) => {
    it('every route × every caller: allowed callers pass the guard, the others get 401 (nobody) or 403', async () => {
      const admin = await enrolledOperator(ctx, 'root@travesia.cl', ['admin'], clock);
      const sessions = new Map<string, Operator>();
      for (const role of roleList)
        sessions.set(
          role,
          role === 'admin' ? admin : await enrolledOperator(ctx, `${role}@travesia.cl`, [role], clock),
        );
      const keys = new Map<string, string>();
      for (const role of roleList) {
        const created = await asOperator(ctx, admin, 'POST', '/api/backoffice/api-keys', {
          name: `clave ${role}`,
          roles: [role],
          expiresAt: '2027-06-01T00:00:00Z',
        });
        expect(created.status, created.text).toBe(201);
        keys.set(role, created.json<{ secret: string }>().secret);
      }
      const callers: Caller[] = [
        { name: 'nobody', roles: [], kind: 'none' },
        ...roleList.map((role) => ({ name: `${role} session`, roles: [role], kind: 'session' as const })),
        ...roleList.map((role) => ({ name: `${role} API key`, roles: [role], kind: 'api-key' as const })),
      ];
      const seen: string[] = [];
      for (const route of routes) {
        const access: Access = backofficeAccess[route];
        for (const caller of callers) {
          const request = requests[route]();
          const role = caller.roles[0] as Role;
          const answer =
            caller.kind === 'session'
              ? await asOperator(ctx, sessions.get(role), request.method, request.url, request.payload)
              : await call(ctx.app, {
                  method: request.method,
                  url: request.url,
                  ...(request.payload === undefined ? {} : { payload: request.payload as Record<string, unknown> }),
                  headers: caller.kind === 'api-key' ? { authorization: `Bearer ${keys.get(role)}` } : {},
                });
          const expected = allows(access, caller) ? 'allowed' : caller.kind === 'none' ? 401 : 403;
          const got = answer.status === 401 || answer.status === 403 ? answer.status : 'allowed';
          seen.push(
            `${route} as ${caller.name}: ${got === expected ? 'ok' : `expected ${expected}, got ${answer.status} ${answer.text}`}`,
          );
          if (got === 'allowed') expect(answer.status, `${route} as ${caller.name}`).toBeLessThan(500);
        }
      }
      expect(seen.filter((line) => !line.endsWith(': ok'))).toStrictEqual([]);
      expect(seen).toHaveLength(routes.length * callers.length);
    });

    it('an expired or revoked API key is refused; a key with role admin or finance opens the existing admin API', async () => {
      const admin = await enrolledOperator(ctx, 'raiz@travesia.cl', ['admin'], clock);
      const create = (roles: Role[], expiresAt: string) =>
        asOperator(ctx, admin, 'POST', '/api/backoffice/api-keys', {
          name: `clave ${roles.join('+')}`,
          roles,
          expiresAt,
        });
      const finance = (await create(['finance'], '2027-06-01T00:00:00Z')).json<{
        secret: string;
        apiKey: { id: string };
      }>();
      const support = (await create(['support'], '2027-06-01T00:00:00Z')).json<{ secret: string }>();
      const past = await create(['admin'], '2026-01-01T00:00:00Z');
      expect(past.status).toBe(400);
      const adminApi = (secret: string) =>
        call(ctx.app, {
          method: 'POST',
          url: '/api/admin/cache/invalidate',
          headers: { authorization: `Bearer ${secret}` },
        });
      expect((await adminApi(finance.secret)).status).toBe(200);
      expect((await adminApi(support.secret)).status).toBe(404);
      // The call by API key is audited as the key, once (the refused one is not).
      const trail = await asOperator(ctx, admin, 'GET', '/api/backoffice/audit?action=cache.invalidate');
      expect(trail.status, trail.text).toBe(200);
      expect(trail.text).toContain('clave finance');
      expect(
        (await ctx.app.db.select().from(auditEntries).where(eq(auditEntries.action, 'cache.invalidate'))).map(
          (row) => row.actorApiKeyId,
        ),
      ).toStrictEqual([finance.apiKey.id]);
      const listed = await asOperator(ctx, admin, 'GET', '/api/backoffice/api-keys');
      const shown = listed.json<{ apiKeys: { id: string; lastUsedAt: string | null; prefix: string }[] }>().apiKeys;
      const own = shown.find((key) => key.id === finance.apiKey.id);
      expect(own?.lastUsedAt).not.toBeNull();
      expect(finance.secret.startsWith(own?.prefix ?? '-')).toBe(true);
      expect(listed.text).not.toContain(finance.secret);
      expect((await asOperator(ctx, admin, 'DELETE', `/api/backoffice/api-keys/${finance.apiKey.id}`)).status).toBe(
        204,
      );
      expect((await adminApi(finance.secret)).status).toBe(404);
      const revoked = await call(ctx.app, {
        method: 'GET',
        url: '/api/backoffice/today',
        headers: { authorization: `Bearer ${finance.secret}` },
      });
      expect(revoked.status).toBe(401);
      // Expiry: the clock passes the key's date.
      const soon = (await create(['support'], new Date(clock.at.getTime() + 60_000).toISOString())).json<{
        secret: string;
      }>();
      clock.advance(2 * 60_000);
      const expired = await call(ctx.app, {
        method: 'GET',
        url: '/api/backoffice/today',
        headers: { authorization: `Bearer ${soon.secret}` },
      });
      expect(expired.status).toBe(401);
      expect(support.secret).toMatch(/^tvk_[A-Za-z0-9_-]{43}$/);
    });

    it('«Hoy» answers each figure with its key, label, value and link', async () => {
      const admin = await enrolledOperator(ctx, 'hoy@travesia.cl', ['support'], clock);
      const today = await asOperator(ctx, admin, 'GET', '/api/backoffice/today');
      expect(today.status, today.text).toBe(200);
      const figures = today.json<{ figures: { key: string; value: number | string; unit?: string; href: string }[] }>()
        .figures;
      expect(figures.map((f) => f.key)).toStrictEqual([
        'sales-today',
        'sales-today-amount',
        'sales-month',
        'sales-month-amount',
        'payments-confirming',
        'sale-refunds-pending',
        'sale-refunds-held',
        'claims-waiting',
        'contact-requests-24h',
        'jobs-failing',
        'tax-documents-not-issued',
        'exchange-rate-age',
      ]);
      for (const figure of figures) {
        // A count or an amount; the rate's age is a text when no rate is in force (the demo's is), never negative.
        if (typeof figure.value === 'number') expect(figure.value).toBeGreaterThanOrEqual(0);
        else expect(figure.key).toBe('exchange-rate-age');
        // Amounts say they are pesos, for the console to write them so.
        expect(figure.unit).toBe(figure.key.endsWith('-amount') ? 'clp' : undefined);
        expect(figure.href).toMatch(/^\/backoffice\//);
      }
      // Each link is a page of the console (apps/backoffice/app/lib/navigation.ts), not a path it does not have.
      const pages = [
        'ventas',
        'reembolsos-de-ventas',
        'reembolsos',
        'contacto',
        'trabajos',
        'documentos-tributarios',
        'tipo-de-cambio',
      ];
      for (const figure of figures) expect(pages).toContain(figure.href.split(/[/?]/)[2]);
    });
  },
  {},
  { now: clock.now },
);
