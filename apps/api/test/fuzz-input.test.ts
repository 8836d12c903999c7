import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import type { ErrorBody } from '#app/errors.ts';
import { drainJobsAfterAll, invoiceBody, paidSale, passengersBody, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectNoInternals } from './support/http.ts';
import { passingToken, useFakeSiteverify } from './support/siteverify.ts';
import { inDays, quotationBody, searchParams, tripDates } from './support/trips.ts';

/**
 * Issue #11: thousands of generated bad requests to every API route, through app.inject(). Whatever comes in, the
 * API answers below 500, every 4xx is the spec §8 body `{status, detail, instance, errors}` (status as sent), and no
 * row stored before (a paid sale with its travellers and billing data, a contact request, a refund) has changed.
 *
 * FUZZ_RUNS (requests per route, default 32) and FUZZ_SEED (default 20261123) make a run larger or different; the
 * seed is printed, and a failure prints the smallest request fast-check could shrink it to.
 */

const seed = Number(process.env.FUZZ_SEED ?? 20261123);
const runsPerRoute = Number(process.env.FUZZ_RUNS ?? 32);
const adminToken = 'a-fuzzing-admin-token-of-at-least-32-characters';

const env: NodeJS.ProcessEnv = { ADMIN_TOKEN: adminToken };
useTemporaryDataDir(env);
const siteverify = useFakeSiteverify(env);

// ---------------------------------------------------------------------------------------------------------------
// What is fuzzed: one template per route, a request the route would (nearly) accept, which the generators spoil.

type Template = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The route's pattern under /api, `:name` for each path parameter. */
  route: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** The body is sent form-encoded (gateway returns, the sandbox page) rather than as JSON. */
  form?: boolean;
  headers?: Record<string, string>;
};

/** Ids of what the suite stores first: the templates point at them, so a request that got through would touch them. */
type Seeded = {
  quotationId: string;
  idVenta: number;
  idTransaction: number;
  accessToken: string;
  /** The first traveller's certificate (12.345.678-5), on a trip that left today: what a refund claim stands on. */
  certificate: string;
  refund: string;
};

const pdfBase64 = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n').toString('base64');

const refundBody = (certificate: string) => ({
  nombreTitular: 'Ana María Pérez',
  tipoDocumento: 1,
  numeroDocumento: '12.345.678-5',
  email: 'ana.perez@example.cl',
  telefono: '+56 9 1234 5678',
  numeroCertificado: certificate,
  descripcion: 'Me atendieron en una clínica de Madrid por una gastroenteritis y pagué la consulta.',
  fechaIncidente: inDays(0),
  monto: 185000,
  moneda: 'CLP',
  banco: '012',
  tipoCuenta: 'vista',
  numeroCuenta: '12345678',
  documentos: [{ nombre: 'boleta.pdf', contenido: pdfBase64 }],
});

const contactBody = () => ({
  fullName: 'Camila Rojas Soto',
  email: 'camila.rojas@example.cl',
  phone: '+56 9 1234 5678',
  idSubject: 3,
  detail: 'Necesito un certificado en inglés para el consulado.',
});

const stringsOf = (record: object) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, String(value)]));

function templates(s: Seeded): Template[] {
  const q = { quotationId: s.quotationId };
  const company = { companyId: '1' };
  const sale = { idVenta: String(s.idVenta) };
  const detail = passengersBody().passangers.map((p, index) => ({
    idProducto: 411,
    idPassangerType: index === 2 ? 2 : 1,
    name: p.firstName,
    lastName: p.lastName,
    gender: p.gender,
    idNacionality: p.nationality,
    idIdentification: p.document.type,
    identification: p.document.id,
    dob: p.birthDate,
    email: p.email,
    phone: p.phone,
    idCountry: 17,
    seq: index + 1,
  }));
  const search = stringsOf(searchParams({ discountCode: 'VERANO' }));
  const companyGets = [
    '',
    '/navigation-bar',
    '/footer',
    '/marketing',
    '/mission',
    '/vision',
    '/website-parameters',
    '/origins',
    '/modalities',
    '/passanger-types',
    '/passanger-type-product',
    '/payment-gateways',
    '/frequently-asked-questions',
    '/subjects',
    '/contacts-info',
    '/contact-forms/settings',
    '/covid-upgrade',
  ].map((tail): Template => ({ method: 'GET', route: `/companies/:companyId${tail}`, params: company }));
  return [
    { method: 'GET', route: '/health' },
    { method: 'GET', route: '/ready' },
    { method: 'GET', route: '/docs' },
    { method: 'GET', route: '/docs/ui/*', params: { '*': 'index.html' } },
    { method: 'GET', route: '/*', params: { '*': 'no/such/thing' } },
    ...companyGets,
    { method: 'GET', route: '/companies/:companyId/destinations/:modalityId', params: { ...company, modalityId: '1' } },
    {
      method: 'GET',
      route: '/companies/:companyId/destinations/:destinationId/countries',
      params: { ...company, destinationId: '3' },
    },
    { method: 'GET', route: '/companies/:companyId/exchange-rate', params: company, query: { amount: '100' } },
    {
      method: 'GET',
      route: '/companies/:companyId/contacts',
      params: company,
      query: { isEmergencyOrSaleContact: 'true' },
    },
    {
      method: 'GET',
      route: '/companies/:companyId/blog-posts',
      params: company,
      query: { page: '1', pageSize: '4', category: 'asistencia-y-coberturas' },
    },
    { method: 'GET', route: '/companies/:companyId/blog-posts/:postId', params: { ...company, postId: '2' } },
    { method: 'GET', route: '/companies/:companyId/legal-pages/:slug', params: { ...company, slug: 'terminos' } },
    {
      method: 'POST',
      route: '/companies/:companyId/subscriptions',
      params: company,
      body: { email: 'ana@example.cl' },
    },
    {
      method: 'POST',
      route: '/companies/:companyId/contact-forms',
      params: company,
      query: { reCaptchaToken: 'refused-token' },
      body: contactBody(),
    },
    { method: 'POST', route: '/quotations/:companyId', params: company, body: quotationBody({ planId: 411 }) },
    { method: 'GET', route: '/quotations/:companyId/:quotationId', params: { ...company, ...q } },
    {
      method: 'PUT',
      route: '/quotations/:companyId/:quotationId',
      params: { ...company, ...q },
      body: quotationBody({ planId: 412, upgradeCovid: true }),
    },
    { method: 'POST', route: '/companies/:companyId/quotation-redirect', params: company, query: q },
    { method: 'GET', route: '/:companyId/plans', params: company, query: search },
    { method: 'GET', route: '/:companyId/plans-comparador', params: company, query: { ...search, ...q } },
    { method: 'GET', route: '/:companyId/plans/:planId', params: { ...company, planId: '411' }, query: q },
    { method: 'GET', route: '/:companyId/plans-quotation/:quotationId', params: { ...company, ...q } },
    { method: 'GET', route: '/:companyId/plans-unavailable/:quotationId', params: { ...company, ...q } },
    { method: 'PUT', route: '/quotations/:quotationId/passangers', params: q, body: passengersBody() },
    { method: 'GET', route: '/quotations/:quotationId/passangers', params: q },
    { method: 'GET', route: '/companies/:companyId/quotations/:quotationId/add-ons', params: { ...company, ...q } },
    { method: 'PUT', route: '/quotations/:quotationId/passangers-detail', params: q, body: detail },
    { method: 'GET', route: '/quotations/:quotationId/passangers-detail', params: q },
    { method: 'POST', route: '/quotations/:quotationId/invoice-details', params: q, body: invoiceBody() },
    { method: 'GET', route: '/quotations/:quotationId/invoice-details', params: q },
    { method: 'POST', route: '/quotations/:quotationId/auto-envio', params: q, body: { type: 0, canal: 'WEB' } },
    {
      method: 'POST',
      route: '/payments',
      body: { ...q, gatewayId: 'sandbox', consents: { dataProcessing: true, marketing: false } },
    },
    { method: 'GET', route: '/payments/return/:gatewayId', params: { gatewayId: 'sandbox' }, query: { token_ws: 'x' } },
    {
      method: 'POST',
      route: '/payments/return/:gatewayId',
      params: { gatewayId: 'webpay' },
      body: { token_ws: 'x' },
      form: true,
    },
    {
      method: 'GET',
      route: '/companies/:idTransaction/payment-result/:idVenta',
      params: { idTransaction: String(s.idTransaction), ...sale },
      query: { token: s.accessToken },
    },
    { method: 'GET', route: '/payments/sandbox/:token', params: { token: 'sbx_unknown' } },
    {
      method: 'POST',
      route: '/payments/sandbox/:token',
      params: { token: 'sbx_unknown' },
      body: { decision: 'approve', instalments: '1' },
      form: true,
    },
    { method: 'GET', route: '/certificates', query: { word: 'camila@example.cl' } },
    {
      method: 'POST',
      route: '/certificates/:certificate/auto-envio',
      params: { certificate: 'TRV-0000' },
      body: { type: 0, canal: 'WEB' },
    },
    { method: 'GET', route: '/certificates/verification/:code', params: { code: 'ABCD1234' } },
    { method: 'GET', route: '/certificates/b2c/:idVenta', params: sale, query: { token: s.accessToken } },
    {
      method: 'GET',
      route: '/certificates/b2c/:idVenta/certificado.pdf',
      params: sale,
      query: { token: s.accessToken },
    },
    {
      method: 'GET',
      route: '/certificates/b2c/:idVenta/certificados',
      params: sale,
      query: { token: s.accessToken },
    },
    {
      method: 'GET',
      route: '/certificates/b2c/:idVenta/certificados/:certificate',
      params: { ...sale, certificate: 'TRV-0000' },
      query: { token: s.accessToken },
    },
    { method: 'GET', route: '/legal/condiciones-generales.pdf' },
    {
      method: 'GET',
      route: '/plan-images/:id/:size',
      params: { id: '00000000-0000-4000-8000-000000000000', size: 'large.webp' },
    },
    {
      method: 'GET',
      route: '/blog-images/:id/:size',
      params: { id: '00000000-0000-4000-8000-000000000000', size: 'large.webp' },
    },
    { method: 'GET', route: '/plan-conditions/:file', params: { file: '00000000-0000-4000-8000-000000000000.pdf' } },
    { method: 'POST', route: '/companies/:companyId/refunds', params: company, body: refundBody(s.certificate) },
    // The upload route takes multipart; any other body (JSON, forms, mutated) must be a 4xx.
    { method: 'POST', route: '/companies/:companyId/refunds/files', params: company, body: { documentos: [] } },
    {
      method: 'GET',
      route: '/companies/:companyId/refunds/:number',
      params: { ...company, number: s.refund },
      query: { document: '12.345.678-5' },
    },
    {
      method: 'POST',
      route: '/companies/:companyId/refunds/:number/documents',
      params: { ...company, number: s.refund },
      query: { document: '11.111.111-1' },
      body: { documentos: [{ nombre: 'otra.pdf', contenido: pdfBase64 }] },
    },
    {
      method: 'POST',
      route: '/admin/refunds/:number/status',
      params: { number: s.refund },
      headers: { authorization: 'Bearer not-the-admin-token' },
      body: { status: 'rechazada', reason: 'Sin boleta' },
    },
    {
      // With the right token, but for a refund that does not exist: what gets through validation finds nothing.
      method: 'POST',
      route: '/admin/refunds/:number/status',
      params: { number: 'R-2026-999999' },
      headers: { authorization: `Bearer ${adminToken}` },
      body: { status: 'en_revision' },
    },
    {
      method: 'POST',
      route: '/companies/:companyId/subscriptions/confirmation',
      params: company,
      body: { token: 'not-a-token' },
    },
    {
      method: 'POST',
      route: '/companies/:companyId/subscriptions/unsubscribe',
      params: company,
      body: { token: '1.not-a-signature' },
    },
    {
      method: 'POST',
      route: '/purchases/access',
      body: { number: String(s.idVenta), documentType: 'rut', document: '12.345.678-5' },
    },
    {
      method: 'POST',
      route: '/purchases/access/code',
      body: { number: String(s.idVenta), documentType: 'rut', document: '12.345.678-5', code: '000000' },
    },
    { method: 'POST', route: '/purchases/access/link', body: { link: `${s.idVenta}.1.1.nada` } },
    { method: 'POST', route: '/purchases/access/sale', body: { idVenta: s.idVenta, token: 'not-the-sale-token' } },
    { method: 'GET', route: '/purchases/mine', headers: { authorization: 'Bearer not-a-token' } },
    { method: 'GET', route: '/purchases/mine/comprobante.pdf', headers: { authorization: 'Bearer not-a-token' } },
    {
      method: 'GET',
      route: '/purchases/mine/documentos-tributarios/:document',
      params: { document: '1.pdf' },
      headers: { authorization: 'Bearer not-a-token' },
    },
    { method: 'GET', route: '/purchases/mine/certificado.pdf', headers: { authorization: 'Bearer not-a-token' } },
    {
      method: 'GET',
      route: '/purchases/mine/certificados/:certificate',
      params: { certificate: 'TRV-0000' },
      headers: { authorization: 'Bearer not-a-token' },
    },
    { method: 'POST', route: '/purchases/mine/withdrawal', headers: { authorization: 'Bearer not-a-token' } },
    {
      method: 'POST',
      route: '/purchases/mine/date-change/preview',
      headers: { authorization: 'Bearer not-a-token' },
      body: { departureDate: '2027-01-10', returnDate: '2027-01-20', countryDestination: 17 },
    },
    {
      method: 'POST',
      route: '/purchases/mine/date-change',
      headers: { authorization: 'Bearer not-a-token' },
      body: { departureDate: '2027-01-10', returnDate: '2027-01-20', countryDestination: 17 },
    },
    { method: 'GET', route: '/purchases/mine/add-ons', headers: { authorization: 'Bearer not-a-token' } },
    {
      method: 'POST',
      route: '/purchases/mine/add-ons',
      headers: { authorization: 'Bearer not-a-token' },
      body: { travellers: [{ seq: 1, adicionales: [1] }] },
    },
    { method: 'DELETE', route: '/purchases/mine/access', headers: { authorization: 'Bearer not-a-token' } },
    {
      method: 'POST',
      route: '/admin/purchases/:idVenta/revoke-access',
      params: sale,
      headers: { authorization: 'Bearer not-the-admin-token' },
    },
    { method: 'POST', route: '/admin/cache/invalidate', headers: { authorization: 'Bearer nope' }, query: {} },
    {
      method: 'GET',
      route: '/admin/sale-refunds',
      headers: { authorization: `Bearer ${adminToken}` },
      query: { minAttempts: '5', reason: 'withdrawal', saleId: String(s.idVenta), gateway: 'webpay', limit: '10' },
    },
    {
      method: 'POST',
      route: '/admin/sale-refunds/:id/release',
      params: { id: '2147483000' },
      headers: { authorization: `Bearer ${adminToken}` },
    },
    {
      // With the right token, for a sale refund that does not exist (the suite stores none): nothing to hold.
      method: 'POST',
      route: '/admin/sale-refunds/:id/hold',
      params: { id: '2147483000' },
      headers: { authorization: `Bearer ${adminToken}` },
      body: { operator: 'Operaciones' },
    },
    {
      method: 'POST',
      route: '/admin/sale-refunds/:id/hold',
      params: { id: '1' },
      headers: { authorization: 'Bearer not-the-admin-token' },
      body: {},
    },
    {
      // With the right token, for a sale refund that does not exist (the suite stores none): nothing to mark.
      method: 'POST',
      route: '/admin/sale-refunds/:id/manual',
      params: { id: '2147483000' },
      headers: { authorization: `Bearer ${adminToken}` },
      body: { reference: 'TRF-0001', operator: 'Operaciones' },
    },
    {
      method: 'POST',
      route: '/admin/sale-refunds/:id/manual',
      params: { id: '1' },
      headers: { authorization: 'Bearer not-the-admin-token' },
      body: { reference: 'TRF-0001' },
    },
  ];
}

// ---------------------------------------------------------------------------------------------------------------
// The generators.

const oddStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\u202Eevil\u202C',
  'שלום עולם',
  'مرحبا',
  '\u200B\u200C\u200D\uFEFF',
  '👩‍👩‍👧‍👦🇨🇱',
  'Z̷̢̛a̸l̶g̷o̵',
  '\r\n\t',
  "' OR 1=1 --",
  '"; DROP TABLE quotations; --',
  '../../../etc/passwd',
  '<script>alert(1)</script>',
  '%00',
  '%',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '99999999999999999999999',
  '0x10',
  '1.5',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
];

/**
 * A value too large to print in a failure report (a long string, nesting thousands deep): fast-check shows the
 * recipe, build() makes the value.
 */
class Big {
  constructor(
    readonly kind: 'string' | 'array' | 'object' | 'brackets' | 'oversize',
    readonly size: number,
  ) {}
  /** The value as JSON text, written without recursion (JSON.stringify would overflow the stack at this depth). */
  json(): string {
    if (this.kind === 'string') return JSON.stringify('ñ'.repeat(this.size));
    if (this.kind === 'array') return `${'['.repeat(this.size)}"deep"${']'.repeat(this.size)}`;
    if (this.kind === 'object') return `${'{"a":'.repeat(this.size)}"deep"${'}'.repeat(this.size)}`;
    if (this.kind === 'brackets') return `${'['.repeat(this.size)}${']'.repeat(this.size)}`;
    return `{"big":"${'x'.repeat(this.size)}"}`;
  }
  [fc.toStringMethod]() {
    return `Big(${this.kind}, ${this.size})`;
  }
}

/** A deep copy of a generated JSON value (a Big stays a Big: toJson() writes it). */
function materialize(value: unknown): unknown {
  if (value instanceof Big) return value;
  if (Array.isArray(value)) return value.map(materialize);
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      Object.defineProperty(copy, key, {
        value: materialize(inner),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }
  return value;
}

/** JSON.stringify, with each Big written by its own json(). */
function toJson(value: unknown): string {
  const bigs: Big[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) => {
    if (!(inner instanceof Big)) return inner;
    bigs.push(inner);
    return `\u0001big${bigs.length - 1}\u0001`;
  });
  return bigs.reduce((result, big, at) => result.replace(`"\\u0001big${at}\\u0001"`, () => big.json()), text ?? '');
}

const badString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...oddStrings) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);

const badNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-1, 0, -0, 0.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 1, Number.MAX_VALUE, -Number.MAX_VALUE, 1e-300),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const bigValue = fc.constantFrom(
  new Big('string', 2_000),
  new Big('string', 70_000),
  new Big('array', 10),
  new Big('object', 10),
  new Big('array', 5_000),
  new Big('object', 5_000),
);

const badValue: fc.Arbitrary<unknown> = fc.oneof(
  badString,
  badNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { '': '' }, JSON.parse('{"__proto__":{"polluted":true}}')),
  bigValue,
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(badString, { maxLength: 5 }),
);

/** A raw path segment or query value, already percent-encoded (invalid UTF-8 and lone `%` included). */
const rawEncoded = fc.constantFrom('%00', '%ED%A0%80', '%FF%FE', '%C0%80', '%', '%zz', '%2F..%2F', '%0A', '%E2%80%AE');

const badSegment: fc.Arbitrary<{ raw: string } | { text: string }> = fc.oneof(
  badString.map((text) => ({ text })),
  badNumber.map((n) => ({ text: String(n) })),
  rawEncoded.map((raw) => ({ raw })),
);

type Mutation =
  | { kind: 'param'; index: number; value: { raw: string } | { text: string } }
  | { kind: 'query-set'; index: number; value: { raw: string } | { text: string } }
  | { kind: 'query-drop'; index: number }
  | { kind: 'query-duplicate'; index: number; value: { raw: string } | { text: string } }
  | { kind: 'query-extra'; name: string; value: { raw: string } | { text: string } }
  | { kind: 'body-set'; path: number[]; value: unknown }
  | { kind: 'body-drop'; path: number[] }
  | { kind: 'body-extra'; path: number[]; name: string; value: unknown }
  | { kind: 'body-replace'; value: unknown }
  | { kind: 'raw-body'; text: string | Big; contentType: string }
  | { kind: 'content-type'; contentType: string }
  | { kind: 'header'; name: string; value: string };

const extraNames = fc.constantFrom(
  'totalAmount',
  'amount',
  'valorPlan',
  'montoDescuento',
  'status',
  'id',
  '__proto__',
  'constructor',
  'x\u0000',
  '',
  '\uD800',
);

const index = fc.nat({ max: 40 });
const path = fc.array(fc.nat({ max: 40 }), { minLength: 0, maxLength: 4 });

const malformedJson = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '[1,2',
    'nul',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":1}{"b":2}',
    '\uFEFF{}',
    '',
    '   ',
  ),
  fc.constantFrom(new Big('brackets', 100_000), new Big('oversize', 1_100_000)),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/vnd.api+json',
  '*/*',
  'garbage',
  '',
);

/**
 * The spoilers that can change something in a request like `template`: its path parameters, query, body (JSON or
 * raw, a GET has none) and headers. Fuzzing a GET's body would only send requests the route never reads.
 */
function mutationFor(template: Template): fc.Arbitrary<Mutation> {
  const hasParams = Object.keys(template.params ?? {}).length > 0;
  const hasQuery = Object.keys(template.query ?? {}).length > 0;
  const hasBody = template.body !== undefined;
  const takesBody = template.method !== 'GET';
  const choices: { when: boolean; weight: number; arbitrary: fc.Arbitrary<Mutation> }[] = [
    {
      when: hasParams,
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('param' as const), index, value: badSegment }),
    },
    {
      when: hasQuery,
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('query-set' as const), index, value: badSegment }),
    },
    { when: hasQuery, weight: 1, arbitrary: fc.record({ kind: fc.constant('query-drop' as const), index }) },
    {
      when: hasQuery,
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('query-duplicate' as const), index, value: badSegment }),
    },
    {
      when: true,
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('query-extra' as const),
        name: fc.oneof(extraNames, badString),
        value: badSegment,
      }),
    },
    {
      when: hasBody,
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('body-set' as const), path, value: badValue }),
    },
    { when: hasBody, weight: 2, arbitrary: fc.record({ kind: fc.constant('body-drop' as const), path }) },
    {
      when: hasBody,
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('body-extra' as const), path, name: extraNames, value: badValue }),
    },
    {
      when: takesBody,
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('body-replace' as const), value: badValue }),
    },
    {
      when: takesBody,
      weight: 2,
      arbitrary: fc.record({ kind: fc.constant('raw-body' as const), text: malformedJson, contentType: contentTypes }),
    },
    {
      when: takesBody,
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('content-type' as const), contentType: contentTypes }),
    },
    {
      when: true,
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('header' as const),
        name: fc.constantFrom('authorization', 'accept', 'accept-encoding', 'content-encoding', 'x-forwarded-for'),
        value: fc.oneof(
          fc.constantFrom('Bearer ', 'Bearer \u00ff', `Bearer ${adminToken}x`, 'gzip', 'br;q=abc', '*/*', 'text/html'),
          fc.string({ maxLength: 30 }),
        ),
      }),
    },
  ];
  return fc.oneof(...choices.filter((choice) => choice.when).map(({ weight, arbitrary }) => ({ weight, arbitrary })));
}

// ---------------------------------------------------------------------------------------------------------------
// Turning a template and its mutations into a request.

/** Lone surrogates replaced by U+FFFD (String.prototype.toWellFormed, which TypeScript's ES2022 library lacks). */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** Percent-encodes every byte but the unreserved ones (lone surrogates become U+FFFD, as a browser sends them). */
const encode = (value: { raw: string } | { text: string }) =>
  'raw' in value ? value.raw : encodeURIComponent(wellFormed(value.text));

const pick = <T>(list: T[], at: number): T | undefined => (list.length === 0 ? undefined : list[at % list.length]);

/** The container and key `path` leads to inside `body` (each step an index into the keys there), if any. */
function locate(body: unknown, steps: number[]): { parent: Record<string, unknown> | unknown[]; key: string } | null {
  let parent: unknown = body;
  let found: { parent: Record<string, unknown> | unknown[]; key: string } | null = null;
  for (const step of steps.length === 0 ? [0] : steps) {
    if (parent === null || typeof parent !== 'object' || parent instanceof Big) break;
    const key = pick(Object.keys(parent), step);
    if (key === undefined) break;
    found = { parent: parent as Record<string, unknown>, key };
    parent = (parent as Record<string, unknown>)[key];
  }
  return found;
}

type Built = { options: InjectOptions; instance: string; describe: string };

function build(template: Template, mutations: Mutation[]): Built {
  const params = Object.entries(template.params ?? {}).map(
    ([name, text]): [string, { raw: string } | { text: string }] => [name, { text }],
  );
  const query = Object.entries(template.query ?? {}).map(
    ([name, text]): [string, { raw: string } | { text: string }] => [name, { text }],
  );
  let body: unknown = materialize(template.body);
  let raw: { text: string; contentType: string } | null = null;
  let contentType: string | null = null;
  const headers: Record<string, string> = { ...template.headers };
  for (const m of mutations) {
    switch (m.kind) {
      case 'param': {
        const entry = pick(params, m.index);
        if (entry) entry[1] = m.value;
        break;
      }
      case 'query-set': {
        const entry = pick(query, m.index);
        if (entry) entry[1] = m.value;
        break;
      }
      case 'query-drop': {
        if (query.length > 0) query.splice(m.index % query.length, 1);
        break;
      }
      case 'query-duplicate': {
        const entry = pick(query, m.index);
        if (entry) query.push([entry[0], m.value]);
        break;
      }
      case 'query-extra':
        query.push([m.name, m.value]);
        break;
      case 'body-set': {
        const at = locate(body, m.path);
        if (at) (at.parent as Record<string, unknown>)[at.key] = materialize(m.value);
        else body = materialize(m.value);
        break;
      }
      case 'body-drop': {
        const at = locate(body, m.path);
        if (at && Array.isArray(at.parent)) at.parent.splice(Number(at.key), 1);
        else if (at) delete (at.parent as Record<string, unknown>)[at.key];
        else body = undefined;
        break;
      }
      case 'body-extra': {
        const at = locate(body, m.path.slice(0, -1));
        const target = at ? (at.parent as Record<string, unknown>)[at.key] : body;
        if (target !== null && typeof target === 'object' && !Array.isArray(target) && !(target instanceof Big)) {
          Object.defineProperty(target, m.name, {
            value: materialize(m.value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        break;
      }
      case 'body-replace':
        body = materialize(m.value);
        break;
      case 'raw-body':
        raw = { text: typeof m.text === 'string' ? m.text : m.text.json(), contentType: m.contentType };
        break;
      case 'content-type':
        contentType = m.contentType;
        break;
      case 'header':
        headers[m.name] = m.value;
        break;
    }
  }
  // The path: `:name` and the wildcard replaced by the (maybe spoilt) values, percent-encoded.
  let instance = `/api${template.route}`;
  for (const [name, value] of params) {
    const encoded =
      name === '*' && 'text' in value
        ? wellFormed(value.text).split('/').map(encodeURIComponent).join('/')
        : encode(value);
    instance = instance.replace(name === '*' ? '*' : `:${name}`, encoded);
  }
  const search = query.map(([name, value]) => `${encodeURIComponent(wellFormed(name))}=${encode(value)}`).join('&');
  const url = search ? `${instance}?${search}` : instance;

  let payload: string | undefined;
  if (raw) {
    payload = raw.text;
    if (raw.contentType) headers['content-type'] = raw.contentType;
  } else if (template.method !== 'GET' && body !== undefined) {
    if (template.form && body !== null && typeof body === 'object') {
      payload = new URLSearchParams(
        Object.entries(body).map(([k, v]): [string, string] => [
          wellFormed(k),
          String(typeof v === 'string' ? wellFormed(v) : toJson(v)),
        ]),
      ).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      payload = toJson(body);
      headers['content-type'] = 'application/json';
    }
  }
  if (contentType !== null) {
    if (contentType === '') delete headers['content-type'];
    else headers['content-type'] = contentType;
  }
  const options: InjectOptions = { method: template.method, url, headers, remoteAddress: '198.51.100.7' };
  if (payload !== undefined) options.payload = payload;
  const shown =
    payload === undefined
      ? ''
      : ` ${payload.length > 300 ? `${payload.slice(0, 300)}… (${payload.length} chars)` : payload}`;
  // The path as the server gets it: app.inject() resolves `.` and `..` segments as any URL parser does.
  return {
    options,
    instance: new URL(instance, 'http://localhost').pathname,
    describe: `${template.method} ${url.slice(0, 300)} ${JSON.stringify(headers)}${shown}`,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// What must hold, and the stored data that must not change.

/** How many answers of each status the run got (printed: a run that only ever hits one check is a weak run). */
const statuses = new Map<number, number>();

async function expectWellAnswered(ctx: TestContext, built: Built): Promise<void> {
  const response = await ctx.app.inject(built.options);
  const status = response.statusCode;
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const where = `${built.describe}\n→ ${status} ${response.body.slice(0, 500)}`;
  expect(status, where).toBeLessThan(500);
  if (status < 400) return;
  // The sandbox gateway's page answers a browser (which asks for HTML) with a page; every other 4xx is JSON.
  const accept = String(built.options.headers?.accept ?? '');
  if (built.instance.startsWith('/api/payments/sandbox/') && accept.includes('text/html') && status !== 400) {
    expect(String(response.headers['content-type']), where).toMatch(/^text\/html/);
    return;
  }
  expect(String(response.headers['content-type']), where).toMatch(/^application\/json/);
  expectNoInternals(response.body);
  const answer = JSON.parse(response.body) as ErrorBody;
  expect(Object.keys(answer).sort(), where).toStrictEqual(['detail', 'errors', 'instance', 'requestId', 'status']);
  expect(answer.status, where).toBe(status);
  expect(answer.instance, where).toBe(built.instance);
  expect(typeof answer.detail === 'string' && answer.detail.length > 0, where).toBe(true);
  expect(Array.isArray(answer.errors), where).toBe(true);
  for (const error of answer.errors) {
    expect(Object.keys(error).sort(), where).toStrictEqual(['code', 'field', 'message']);
    expect([typeof error.field, typeof error.code, typeof error.message], where).toStrictEqual([
      'string',
      'string',
      'string',
    ]);
  }
}

/** Tables whose rows change by design whatever the request (the job queue runs in the background). */
const changingTables = new Set(['jobs', '__drizzle_migrations']);

/** Every row of every table, as JSON text, per table. */
async function snapshot(ctx: TestContext): Promise<Map<string, string[]>> {
  const tables = await ctx.database.db.execute<{ name: string }>(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const result = new Map<string, string[]>();
  for (const { name } of (tables as unknown as { rows: { name: string }[] }).rows ?? tables) {
    if (changingTables.has(name)) continue;
    const rows = await ctx.database.db.execute(sql`select row_to_json(t)::text as row from ${sql.identifier(name)} t`);
    const list = ((rows as unknown as { rows: { row: string }[] }).rows ?? rows) as { row: string }[];
    result.set(name, list.map((r) => r.row).sort());
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------

describeOnEachDatabase(
  'bad input by the thousand (issue #11)',
  (ctx) => {
    const seeded = {} as Seeded;
    let before = new Map<string, string[]>();
    drainJobsAfterAll(ctx);

    beforeAll(async () => {
      console.info(`fuzz-input: FUZZ_SEED=${seed} FUZZ_RUNS=${runsPerRoute} (requests per route)`);
      const sale = await paidSale(ctx, 1, tripDates(10, 0));
      Object.assign(seeded, {
        quotationId: sale.quotationId,
        idVenta: sale.idVenta,
        idTransaction: sale.idTransaction,
        accessToken: sale.accessToken,
        certificate: sale.result.certificates[0]?.number ?? '',
      });
      const contact = await call(ctx.app, {
        method: 'POST',
        url: `/api/companies/1/contact-forms?reCaptchaToken=${passingToken('fuzz')}`,
        payload: contactBody(),
      });
      expect(contact.status, contact.text).toBe(204);
      const refund = await call(ctx.app, {
        method: 'POST',
        url: '/api/companies/1/refunds',
        payload: refundBody(seeded.certificate),
      });
      expect(refund.status, refund.text).toBe(204);
      seeded.refund = String(refund.headers['x-refund-number']);
      await ctx.app.runJobs();
      before = await snapshot(ctx);
      expect(siteverify.current.requests.length).toBeGreaterThan(0);
    }, 60_000);

    it('the templates cover every route the API has (the OpenAPI document, plus the hidden ones)', async () => {
      const documented = Object.entries((ctx.app.swagger() as { paths: Record<string, object> }).paths).flatMap(
        ([route, methods]) =>
          Object.keys(methods).map((method) => `${method.toUpperCase()} ${route.replace(/\{([^}]+)\}/g, ':$1')}`),
      );
      const hidden = [
        'GET /docs',
        'GET /docs/ui/*',
        'GET /*',
        'GET /payments/sandbox/:token',
        'POST /payments/sandbox/:token',
      ];
      const covered = new Set(templates(seeded).map((t) => `${t.method} ${t.route}`));
      expect(documented.length).toBeGreaterThan(50);
      for (const route of [...documented, ...hidden]) expect(covered, route).toContain(route);
    });

    it(`answers every generated bad request below 500, each 4xx in the §8 body`, async () => {
      const all = templates(seeded);
      let sent = 0;
      const failures: string[] = [];
      // Every route is fuzzed even when one fails, so one run names every case to fix.
      for (const [position, template] of all.entries()) {
        const details = await fc.check(
          fc.asyncProperty(fc.array(mutationFor(template), { minLength: 1, maxLength: 3 }), async (mutations) => {
            sent += 1;
            await expectWellAnswered(ctx, build(template, mutations));
          }),
          { seed: seed + position, numRuns: runsPerRoute, endOnFailure: process.env.FUZZ_SHRINK !== 'true' },
        );
        if (details.failed) {
          const error = details.errorInstance instanceof Error ? String(details.errorInstance.stack) : '';
          const example = fc.stringify(details.counterexample).slice(0, 600);
          failures.push(
            `${template.method} ${template.route} (seed ${seed + position}) ${example}\n${error.slice(0, 1200)}`,
          );
        }
      }
      const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
      console.info(`fuzz-input: ${sent} requests over ${all.length} routes; answers ${byStatus.join(' ')}`);
      statuses.clear();
      expect(failures, failures.join('\n\n')).toStrictEqual([]);
      expect(sent).toBeGreaterThanOrEqual(all.length * runsPerRoute);
    }, 600_000);

    it('and nothing stored before has changed or gone', async () => {
      await ctx.app.runJobs();
      const after = await snapshot(ctx);
      for (const [table, rows] of before) {
        const now = new Set(after.get(table) ?? []);
        const lost = rows.filter((row) => !now.has(row));
        expect(lost, `rows of ${table} changed or deleted`).toStrictEqual([]);
      }
    });
  },
  env,
);
