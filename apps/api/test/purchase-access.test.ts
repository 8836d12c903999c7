import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loadConfig } from '#app/config.ts';
import { openPglite } from '#app/db/client.ts';
import { auditEntries, jobs, purchaseAccessCodes, purchaseAccessLimits } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/http/rate-limit.ts';
import { receiptTotalText } from '#app/modules/purchases/receipt-pdf.ts';
import {
  buyerOnlyMessage,
  codeRefusalFloorMs,
  invalidCodeMessage,
  invalidLinkMessage,
  purchaseCodeEmailKind,
} from '#app/modules/purchases/service.ts';
import {
  clpText,
  decideOnSandbox,
  drainJobsAfterAll,
  followReturn,
  paidSale,
  paymentResult,
  readyToPay,
  startPayment,
  successUrl,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { testApiKey } from './support/cli.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, anyRequestId, call } from './support/http.ts';
import { pdfStrings } from './support/pdf-text.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';

/**
 * «Mi compra» without an account (issue #12, Access): a one-time code e-mailed to an address the sale holds, or the
 * signed link of the purchase e-mail, opens one paid sale for a short while; nothing tells a stranger whether a sale
 * or document exists.
 */

const env: NodeJS.ProcessEnv = { ADMIN_TOKEN: 'a'.repeat(40) };
useTemporaryDataDir(env);
/** The same store in production mode (answers serialized, not validated): filled in once `env` is complete. */
const productionModeEnv: NodeJS.ProcessEnv = {};
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
  Object.assign(productionModeEnv, env, { RESPONSE_VALIDATION: 'false' });
});
afterAll(async () => {
  await smtp?.close();
});

/** Camila (RUT 12.345.678-5) is the first traveller of every paid sale of support/checkout.ts. */
const camila = { documentType: 'rut', document: '12345678-5' } as const;

const requestCode = (ctx: TestContext, body: Record<string, unknown>, remoteAddress = '127.0.0.1') =>
  call(ctx.app, { method: 'POST', url: '/api/purchases/access', payload: body, remoteAddress });
const checkCode = (ctx: TestContext, body: Record<string, unknown>) =>
  call(ctx.app, { method: 'POST', url: '/api/purchases/access/code', payload: body });
const openLink = (ctx: TestContext, link: string) =>
  call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
const mine = (ctx: TestContext, token: string, path = '') =>
  call(ctx.app, { method: 'GET', url: `/api/purchases/mine${path}`, headers: { authorization: `Bearer ${token}` } });

const receipt = (ctx: TestContext, token: string) =>
  ctx.app.inject({
    method: 'GET',
    url: '/api/purchases/mine/comprobante.pdf',
    headers: { authorization: `Bearer ${token}` },
  });

/** The code of the newest code e-mail sent to `address`. */
function lastCodeTo(address: string): string {
  const mail = smtp.received.filter((m) => m.to.includes(address) && m.parsed.subject?.includes('código')).at(-1);
  const code = /\b(\d{6})\b/.exec(mail?.parsed.text ?? '')?.[1];
  if (!code) throw new Error(`no code e-mailed to ${address}`);
  return code;
}

/** Diego (DNI AR30111222, diego@example.com), the second traveller: not the payer. */
const diego = { documentType: 'dni', document: 'AR30111222' } as const;
/** Rosa (RUT 7.654.321-6, rosa@example.cl), the third traveller. */
const rosa = { documentType: 'rut', document: '7.654.321-6' } as const;

type Holder = { documentType: 'rut' | 'dni' | 'passport'; document: string };

/** Asks for a code for `number` as `holder`, lets the job e-mail it, and answers the code sent to `address`. */
async function codeTo(ctx: TestContext, number: string, holder: Holder, address: string) {
  const asked = await requestCode(ctx, { number, ...holder });
  expect(asked.status, asked.text).toBe(202);
  await ctx.app.runJobs();
  return lastCodeTo(address);
}

/** Asks for a code for `number` with Camila's RUT, sends it, and answers it. */
async function codeFor(ctx: TestContext, number: string, document: string = camila.document) {
  const asked = await requestCode(ctx, { number, documentType: 'rut', document });
  expect(asked.status, asked.text).toBe(202);
  await ctx.app.runJobs();
  return lastCodeTo('camila@example.cl');
}

async function opened(answer: Answer): Promise<string> {
  expect(answer.status, answer.text).toBe(200);
  const { token, expiresAt } = answer.json<{ token: string; expiresAt: string }>();
  expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 25 * 60_000);
  return token;
}

/** Every code e-mail the fake SMTP server received so far. */
const codeMails = () => smtp.received.filter((m) => m.parsed.subject?.startsWith('Tu código para ver tu compra'));

describeOnEachDatabase(
  '«Mi compra»: access by e-mailed code or signed link',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('a code asked with the sale number and the RUT in another format is e-mailed to the holder; it opens the purchase once', async () => {
      const sale = await paidSale(ctx, 3);
      const code = await codeFor(ctx, String(sale.idVenta), '12.345.678-5');
      expect(code).toMatch(/^\d{6}$/);
      const token = await opened(await checkCode(ctx, { number: String(sale.idVenta), ...camila, code }));

      const view = await mine(ctx, token);
      expect(view.status, view.text).toBe(200);
      const purchase = view.json<Record<string, unknown> & { travellers: { name: string; document: string }[] }>();
      expect(purchase).toMatchObject({
        role: 'buyer',
        idVenta: sale.idVenta,
        status: 'paid',
        amountClp: sale.result.amountClp,
        amountUsd: sale.result.amountUsd,
        payment: {
          gateway: 'Pasarela de prueba',
          instalments: 3,
          paymentType: 'Crédito, cuotas sin interés',
          instalmentAmountClp: Math.ceil(sale.result.amountClp / 3),
        },
      });
      expect(purchase.travellers[0]).toMatchObject({ name: 'Camila Rojas', document: '12.***.***-5' });
      // No document leaves whole.
      expect(view.text).not.toContain('12.345.678');
      expect(view.text).not.toContain('AR30111222');
      expect(view.headers['cache-control']).toContain('no-store');

      // The same code again: used up.
      const again = await checkCode(ctx, { number: String(sale.idVenta), ...camila, code });
      expect(again.status).toBe(400);
      expect(again.json()).toMatchObject({ detail: invalidCodeMessage });
    });

    it('a certificate number with its holder’s document works too; a document of another traveller of that certificate does not', async () => {
      const sale = await paidSale(ctx);
      const number = sale.result.certificates[0]?.number ?? '';
      expect(number).toMatch(/^TRV-/);
      const code = await codeFor(ctx, number.toLowerCase());
      await opened(await checkCode(ctx, { number, ...camila, code }));

      const before = codeMails().length;
      // Rosa's RUT is on the sale, but not on Camila's certificate: nothing is sent.
      const other = await requestCode(ctx, { number, documentType: 'rut', document: '7.654.321-6' });
      expect(other.status).toBe(202);
      await ctx.app.runJobs();
      expect(codeMails()).toHaveLength(before);
    });

    it('nothing tells an unknown sale, certificate or document from a known one: same 202, no e-mail, the same 400 for any code', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const before = codeMails().length;
      const known = await requestCode(ctx, { number: String(sale.idVenta), ...camila });
      const unknownSale = await requestCode(ctx, { number: '123', ...camila });
      const unknownCertificate = await requestCode(ctx, { number: 'TRV-2026-000000001-1', ...camila });
      const wrongDocument = await requestCode(ctx, {
        number: String(sale.idVenta),
        documentType: 'dni',
        document: 'X1234567',
      });
      for (const answer of [known, unknownSale, unknownCertificate, wrongDocument]) {
        expect(answer.status).toBe(202);
        expect(answer.text).toBe(known.text);
      }
      await ctx.app.runJobs();
      expect(
        codeMails()
          .slice(before)
          .map((mail) => mail.to),
      ).toStrictEqual([['camila@example.cl']]);

      const guesses = await Promise.all([
        checkCode(ctx, { number: '123', ...camila, code: '123456' }),
        checkCode(ctx, { number: String(sale.idVenta), documentType: 'dni', document: 'X1234567', code: '123456' }),
      ]);
      for (const guess of guesses) {
        expect(guess.status).toBe(400);
        expect(guess.json()).toStrictEqual({
          status: 400,
          detail: invalidCodeMessage,
          instance: '/api/purchases/access/code',
          errors: [{ field: 'code', code: 'invalid', message: invalidCodeMessage }],
          requestId: anyRequestId,
        });
      }
    });

    it('an invalid RUT is a 400 naming the field, whatever the number', async () => {
      const answer = await requestCode(ctx, { number: '1', documentType: 'rut', document: '12.345.678-9' });
      expect(answer.status).toBe(400);
      expect(answer.json()).toMatchObject({ errors: [{ field: 'document', code: 'invalid_rut' }] });
    });

    it('a code dies after 5 wrong tries: the right one no longer opens anything', async () => {
      const sale = await paidSale(ctx);
      const code = await codeFor(ctx, String(sale.idVenta));
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i++) {
        expect((await checkCode(ctx, { number: String(sale.idVenta), ...camila, code: wrong })).status).toBe(400);
      }
      expect((await checkCode(ctx, { number: String(sale.idVenta), ...camila, code })).status).toBe(400);
    });

    it('a code expires after 10 minutes', async () => {
      const sale = await paidSale(ctx);
      const code = await codeFor(ctx, String(sale.idVenta));
      const [row] = await ctx.database.db
        .select()
        .from(purchaseAccessCodes)
        .where(eq(purchaseAccessCodes.saleId, sale.idVenta));
      const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
      expect(Math.abs(lifetime - 10 * 60_000)).toBeLessThan(5_000);
      await ctx.database.db
        .update(purchaseAccessCodes)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(purchaseAccessCodes.saleId, sale.idVenta));
      expect((await checkCode(ctx, { number: String(sale.idVenta), ...camila, code })).status).toBe(400);
    });

    it('a newer code replaces the older one', async () => {
      const sale = await paidSale(ctx);
      const first = await codeFor(ctx, String(sale.idVenta));
      // The next minute's request (one e-mail a minute per traveller): queued as the job the request makes.
      await ctx.database.db.update(jobs).set({ dedupeKey: null }).where(eq(jobs.kind, purchaseCodeEmailKind));
      const second = await codeFor(ctx, String(sale.idVenta));
      if (first !== second) {
        expect((await checkCode(ctx, { number: String(sale.idVenta), ...camila, code: first })).status).toBe(400);
      }
      await opened(await checkCode(ctx, { number: String(sale.idVenta), ...camila, code: second }));
    });

    it('the purchase e-mail confirms the total, the payment type, each instalment, the withdrawal right and the seller', async () => {
      const sale = await paidSale(ctx, 3);
      await ctx.app.runJobs();
      const mail = smtp.received.find((m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`));
      const text = mail?.parsed.text ?? '';
      expect(text).toContain(`Total pagado: ${clpText(sale.result.amountClp)}`);
      // Worded as the plan's price was: this plan carries no IVA (never «impuestos incluidos» of a plan with none).
      expect(text).toMatch(/Total pagado: \$[\d.]+ \(USD [\d.,]+\), no afecto a IVA\./);
      expect(text).toContain('Forma de pago: Crédito, cuotas sin interés.');
      expect(text).toContain(`3 cuotas sin interés de ${clpText(Math.ceil(sale.result.amountClp / 3))}.`);
      expect(text).toContain('Derecho a retracto');
      expect(text).toMatch(/Vendido por .+, RUT [\d.]+-[\dkK], /);
    });

    it('the purchase e-mail carries a signed link that opens the purchase; a tampered or expired one does not', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const mail = smtp.received.find((m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`));
      const link = /\/mi-compra\?enlace=([\w.-]+)/.exec(mail?.parsed.text ?? '')?.[1];
      expect(link, mail?.parsed.text).toBeDefined();
      const token = await opened(await openLink(ctx, link ?? ''));
      expect((await mine(ctx, token)).json()).toMatchObject({ idVenta: sale.idVenta });

      const [id, version, expires, signature] = (link ?? '').split('.');
      const tampered = [
        `${Number(id) + 1}.${version}.${expires}.${signature}`,
        `${id}.${version}.${Number(expires) + 1}.${signature}`,
        `${id}.${version}.${expires}.${(signature ?? '').replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
        'nada',
      ];
      for (const bad of tampered) {
        const answer = await openLink(ctx, bad);
        expect(answer.status).toBe(400);
        expect(answer.json()).toMatchObject({ detail: invalidLinkMessage });
      }
      // Correctly signed (with the configured secret) but expired.
      const past = Math.floor(Date.now() / 1000) - 60;
      const expiredSignature = createHmac('sha256', ctx.config.purchases.linkSecret)
        .update(`purchase-link:${id}:${version}:${past}`)
        .digest('base64url');
      expect((await openLink(ctx, `${id}.${version}.${past}.${expiredSignature}`)).status).toBe(400);
    });

    it('revocation kills the e-mailed link and every open access; the buyer’s «Salir» closes their own', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const mail = smtp.received.find((m) => m.parsed.subject?.includes(`venta N° ${sale.idVenta}`));
      const link = /\/mi-compra\?enlace=([\w.-]+)/.exec(mail?.parsed.text ?? '')?.[1] ?? '';
      const first = await opened(await openLink(ctx, link));
      const second = await opened(await openLink(ctx, link));

      const out = await call(ctx.app, {
        method: 'DELETE',
        url: '/api/purchases/mine/access',
        headers: { authorization: `Bearer ${first}` },
      });
      expect(out.status).toBe(204);
      expect((await mine(ctx, first)).status).toBe(404);
      expect((await mine(ctx, second)).status).toBe(200);

      const stranger = await call(ctx.app, {
        method: 'POST',
        url: `/api/admin/purchases/${sale.idVenta}/revoke-access`,
      });
      expect(stranger.status).toBe(404);
      const revoked = await call(ctx.app, {
        method: 'POST',
        url: `/api/admin/purchases/${sale.idVenta}/revoke-access`,
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` },
      });
      expect(revoked.status, revoked.text).toBe(200);
      expect((await mine(ctx, second)).status).toBe(404);
      expect((await openLink(ctx, link)).status).toBe(400);
      // With an API key (ADMIN_TOKEN's successor): the same revocation, one audit row as the key.
      const { apiKey, secret } = await testApiKey(ctx, ['admin'], 'revocar-accesos');
      const byKey = await call(ctx.app, {
        method: 'POST',
        url: `/api/admin/purchases/${sale.idVenta}/revoke-access`,
        headers: { authorization: `Bearer ${secret}` },
      });
      expect(byKey.status, byKey.text).toBe(200);
      const linkVersion = byKey.json<{ linkVersion: number }>().linkVersion;
      expect(linkVersion).toBe(revoked.json<{ linkVersion: number }>().linkVersion + 1);
      const rows = await ctx.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.targetId, String(sale.idVenta)), eq(auditEntries.action, 'sale.access_revoked')));
      expect(rows).toMatchObject([
        {
          actorApiKeyId: apiKey.id,
          actorLabel: 'api-key:revocar-accesos',
          before: { linkVersion: linkVersion - 1 },
          after: { linkVersion },
        },
      ]);
    });

    it('without a live token the purchase and its documents are the catalogue’s 404', async () => {
      for (const path of ['', '/comprobante.pdf', '/certificado.pdf']) {
        expect((await mine(ctx, 'x'.repeat(43), path)).status).toBe(404);
        expect((await call(ctx.app, `/api/purchases/mine${path}`)).status).toBe(404);
      }
    });

    it('an access token expires after 30 minutes', async () => {
      const sale = await paidSale(ctx);
      const code = await codeFor(ctx, String(sale.idVenta));
      const token = await opened(await checkCode(ctx, { number: String(sale.idVenta), ...camila, code }));
      await ctx.database.db.execute(
        sql`update purchase_access_tokens set expires_at = now() - interval '1 second' where sale_id = ${sale.idVenta}`,
      );
      expect((await mine(ctx, token)).status).toBe(404);
    });

    it('the receipt is a PDF with the seller, the plan, the destination country, the total with taxes and the payment reference', async () => {
      const sale = await paidSale(ctx, 3);
      const code = await codeFor(ctx, String(sale.idVenta));
      const token = await opened(await checkCode(ctx, { number: String(sale.idVenta), ...camila, code }));
      const response = await receipt(ctx, token);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const strings = pdfStrings(response.rawPayload);
      const text = strings.join('\n');
      // The row's label followed by the country named at checkout (support/checkout.ts: Spain), as the certificates.
      const country = strings.indexOf('País de destino');
      expect(country, text).toBeGreaterThanOrEqual(0);
      expect(strings[country + 1]).toBe('España');
      expect(text).toContain(receiptTotalText(sale.result.amountClp, null));
      // The plan the reference sale buys carries no IVA: its receipt never says «impuestos incluidos».
      expect(text).toContain('(no afecto a IVA)');
      expect(text).toContain(clpText(sale.result.amountClp));
      expect(text).toContain(`Venta N° ${sale.idVenta}`);
      expect(text).toContain('Comprobante de compra');
      expect(text).toMatch(/RUT/);
      expect(text).toContain('3 cuotas de');

      const certificate = await ctx.app.inject({
        method: 'GET',
        url: '/api/purchases/mine/certificado.pdf',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(certificate.statusCode).toBe(200);
      expect(certificate.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    });

    it('the receipt of a sale that names no destination country prints no «País de destino» row', async () => {
      const sale = await paidSale(ctx);
      // As a sale whose snapshot kept no country (null: none was named), not the quotation's fallback.
      await ctx.database.db.execute(
        sql`update sales set purchase = jsonb_set(purchase, '{trip,destinationCountry}', 'null'::jsonb) where id = ${sale.idVenta}`,
      );
      const code = await codeFor(ctx, String(sale.idVenta));
      const token = await opened(await checkCode(ctx, { number: String(sale.idVenta), ...camila, code }));
      const response = await receipt(ctx, token);
      expect(response.statusCode).toBe(200);
      const text = pdfStrings(response.rawPayload).join('\n');
      expect(text).toContain(`Venta N° ${sale.idVenta}`);
      expect(text).not.toContain('País de destino');
      expect(text).not.toContain('España');
    });
  },
  env,
);

describeOnEachDatabase(
  '«Mi compra»: rate limits',
  (ctx) => {
    it('asking for codes is limited per client (429 in the §8 body); another client is not', async () => {
      const { max } = defaultRateLimits.emailSend;
      for (let i = 0; i < max; i++) {
        expect((await requestCode(ctx, { number: String(100 + i), ...camila }, '203.0.113.50')).status).toBe(202);
      }
      const refused = await requestCode(ctx, { number: '999', ...camila }, '203.0.113.50');
      expect(refused.status).toBe(429);
      expect(refused.json()).toMatchObject({ status: 429, errors: [] });
      expect((await requestCode(ctx, { number: '999', ...camila }, '203.0.113.51')).status).toBe(202);
    });

    it('checking codes is limited per client', async () => {
      const { max } = defaultRateLimits.purchaseAccess;
      const statuses: number[] = [];
      for (let i = 0; i <= max; i++) {
        statuses.push((await checkCode(ctx, { number: '1', ...camila, code: '123456' })).status);
      }
      expect(statuses.slice(0, max).every((status) => status === 400)).toBe(true);
      expect(statuses[max]).toBe(429);
    });
  },
  { ...env, RATE_LIMIT_FACTOR: '1' },
);

/** The 403 a traveller's access gets for what only the buyer may do (§8 body). */
const buyerOnly = (instance: string) => ({
  status: 403,
  detail: buyerOnlyMessage,
  instance,
  errors: [],
  requestId: anyRequestId,
});

describeOnEachDatabase(
  '«Mi compra»: the buyer sees and manages the whole purchase; a traveller only her own trip',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('a traveller’s code goes to her own address and opens her own trip, certificate and verification only: no other traveller, no payment, no amount, no receipt', async () => {
      const sale = await paidSale(ctx, 3);
      await ctx.app.runJobs();
      const number = String(sale.idVenta);
      const code = await codeTo(ctx, number, diego, 'diego@example.com');
      const token = await opened(await checkCode(ctx, { number, ...diego, code }));

      const view = await mine(ctx, token);
      expect(view.status, view.text).toBe(200);
      expect(view.headers['cache-control']).toContain('no-store');
      const own = sale.result.certificates.find((c) => c.name === 'Diego')?.number;
      const others = sale.result.certificates.filter((c) => c.name !== 'Diego').map((c) => c.number);
      const purchase = view.json<Record<string, unknown> & { traveller: { verificationUrl: string | null } }>();
      expect(Object.keys(purchase).sort()).toStrictEqual(
        [
          'role',
          'idVenta',
          'status',
          'testPayment',
          'plan',
          'destination',
          'destinationCountry',
          'modality',
          'departureDate',
          'returnDate',
          'days',
          'traveller',
          'seller',
          'generalConditionsUrl',
          'generalConditionsPdfUrl',
        ].sort(),
      );
      expect(purchase).toMatchObject({
        role: 'traveller',
        idVenta: sale.idVenta,
        status: 'paid',
        traveller: { name: 'Diego Muñoz', document: 'AR******22', certificate: own, certificateVoided: false },
      });
      expect(purchase.traveller.verificationUrl).toMatch(/\/verificar\/[0-9A-Z]{10}$/);
      for (const hidden of ['Camila', 'Rosa', 'camila@', 'rosa@', '12.***', ...others]) {
        expect(view.text).not.toContain(hidden);
      }
      for (const payment of ['payment', 'amount', 'cardLastDigits', 'instalment', 'authorizationCode', 'withdrawal']) {
        expect(view.text).not.toContain(payment);
      }
      expect(view.text).not.toContain(String(sale.result.amountClp));

      // Her own certificate opens; another traveller's is not hers (404); the receipt and the whole PDF are the buyer's.
      const pdf = (path: string) =>
        ctx.app.inject({
          method: 'GET',
          url: `/api/purchases/mine${path}`,
          headers: { authorization: `Bearer ${token}` },
        });
      const mineOnly = await pdf(`/certificados/${own}`);
      expect(mineOnly.statusCode).toBe(200);
      expect(pdfStrings(mineOnly.rawPayload).join('\n')).not.toContain('Camila');
      expect((await pdf(`/certificados/${others[0]}`)).statusCode).toBe(404);
      for (const path of ['/comprobante.pdf', '/certificado.pdf']) {
        const refused = await mine(ctx, token, path);
        expect(refused.status, path).toBe(403);
        expect(refused.json()).toStrictEqual(buyerOnly(`/api/purchases/mine${path}`));
      }

      // Nothing to manage: withdrawing and changing dates are the buyer's (403, §8 body), and nothing changed.
      const body = { departureDate: '2099-01-01', returnDate: '2099-01-10' };
      for (const [url, payload] of [
        ['/api/purchases/mine/withdrawal', undefined],
        ['/api/purchases/mine/date-change/preview', body],
        ['/api/purchases/mine/date-change', body],
      ] as const) {
        const refused = await call(ctx.app, {
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${token}` },
          ...(payload ? { payload } : {}),
        });
        expect(refused.status, url).toBe(403);
        expect(refused.json()).toStrictEqual(buyerOnly(url));
      }
      const buyer = await opened(
        await checkCode(ctx, { number, ...camila, code: await codeTo(ctx, number, camila, 'camila@example.cl') }),
      );
      expect((await mine(ctx, buyer)).json()).toMatchObject({
        role: 'buyer',
        status: 'paid',
        withdrawal: { refund: null },
      });
    });

    it('the buyer (the payer’s document, the code sent to the sale’s e-mail) sees every traveller and the payment', async () => {
      const sale = await paidSale(ctx);
      const number = String(sale.idVenta);
      const token = await opened(
        await checkCode(ctx, { number, ...camila, code: await codeTo(ctx, number, camila, 'camila@example.cl') }),
      );
      const view = (await mine(ctx, token)).json<{ role: string; travellers: { name: string }[]; payment: object }>();
      expect(view.role).toBe('buyer');
      expect(view.travellers.map((t) => t.name)).toStrictEqual(['Camila Rojas', 'Diego Muñoz', 'Rosa Pérez']);
      expect(view.payment).toMatchObject({ gateway: 'Pasarela de prueba' });
      expect((await mine(ctx, token, '/comprobante.pdf')).status).toBe(200);
    });

    it('a code e-mailed to a traveller never opens the buyer’s view, typed with the payer’s document', async () => {
      const sale = await paidSale(ctx);
      const number = String(sale.idVenta);
      const code = await codeTo(ctx, number, rosa, 'rosa@example.cl');
      const escalated = await checkCode(ctx, { number, ...camila, code });
      expect(escalated.status).toBe(400);
      expect(escalated.json()).toMatchObject({ detail: invalidCodeMessage });
      const token = await opened(await checkCode(ctx, { number, ...rosa, code }));
      expect((await mine(ctx, token)).json()).toMatchObject({ role: 'traveller', traveller: { name: 'Rosa Pérez' } });
    });

    it('when the quote step named a contact with a RUT, that contact is the buyer: her code goes to her e-mail; the first traveller sees her own trip', async () => {
      const payer = { documentType: 'rut', document: '15.123.456-9' } as const;
      const quotationId = await readyToPay(ctx, { quotation: { email: 'Pagos@Empresa.cl', rut: '15123456-9' } });
      const payment = await startPayment(ctx, quotationId);
      expect(await followReturn(ctx, await decideOnSandbox(ctx, payment.redirectUrl, 'approve'))).toBe(
        successUrl(payment),
      );
      const number = String(payment.idVenta);
      const buyer = await opened(
        await checkCode(ctx, { number, ...payer, code: await codeTo(ctx, number, payer, 'pagos@empresa.cl') }),
      );
      expect((await mine(ctx, buyer)).json()).toMatchObject({ role: 'buyer' });
      const camilaToken = await opened(
        await checkCode(ctx, { number, ...camila, code: await codeTo(ctx, number, camila, 'camila@example.cl') }),
      );
      expect((await mine(ctx, camilaToken)).json()).toMatchObject({
        role: 'traveller',
        traveller: { name: 'Camila Rojas' },
      });
    });

    it('the browser that paid opens its purchase as the buyer with the sale’s token it holds; a wrong token or an unpaid sale does not', async () => {
      const sale = await paidSale(ctx);
      const openSale = (payload: Record<string, unknown>) =>
        call(ctx.app, { method: 'POST', url: '/api/purchases/access/sale', payload });
      const token = await opened(await openSale({ idVenta: sale.idVenta, token: sale.accessToken }));
      expect((await mine(ctx, token)).json()).toMatchObject({ role: 'buyer', idVenta: sale.idVenta });

      const unpaid = await startPayment(ctx, await readyToPay(ctx));
      for (const payload of [
        { idVenta: sale.idVenta, token: sale.accessToken.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')) },
        { idVenta: sale.idVenta + 1, token: sale.accessToken },
        { idVenta: unpaid.idVenta, token: unpaid.accessToken },
      ]) {
        const refused = await openSale(payload);
        expect(refused.status).toBe(400);
        expect(refused.json()).toMatchObject({ status: 400, detail: invalidLinkMessage });
      }
      // The paid sale's result also names its certificates only for that token (as before).
      expect((await paymentResult(ctx, sale)).certificates).toHaveLength(3);
      // An operator's revocation closes this way in too.
      const revoked = await call(ctx.app, {
        method: 'POST',
        url: `/api/admin/purchases/${sale.idVenta}/revoke-access`,
        headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` },
      });
      expect(revoked.status, revoked.text).toBe(200);
      expect((await mine(ctx, token)).status).toBe(404);
      expect((await openSale({ idVenta: sale.idVenta, token: sale.accessToken })).status).toBe(400);
    });
  },
  env,
);

describeOnEachDatabase(
  '«Mi compra» in production mode (answers serialized, not validated)',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('the buyer’s and a traveller’s purchase serialize with their own fields', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const number = String(sale.idVenta);
      const buyer = await opened(
        await checkCode(ctx, { number, ...camila, code: await codeTo(ctx, number, camila, 'camila@example.cl') }),
      );
      const traveller = await opened(
        await checkCode(ctx, { number, ...diego, code: await codeTo(ctx, number, diego, 'diego@example.com') }),
      );
      const buyerView = await mine(ctx, buyer);
      expect(buyerView.status, buyerView.text).toBe(200);
      expect(buyerView.json()).toMatchObject({
        role: 'buyer',
        idVenta: sale.idVenta,
        payment: {},
        travellers: [{}, {}, {}],
      });
      const travellerView = await mine(ctx, traveller);
      expect(travellerView.status, travellerView.text).toBe(200);
      expect(travellerView.json()).toMatchObject({ role: 'traveller', traveller: { name: 'Diego Muñoz' } });
      expect(travellerView.text).not.toContain('payment');
    });
  },
  productionModeEnv,
);

/** The day's counts of one holder of a sale ('buyer', or 'traveller:{seq}'). */
const limitsOf = async (ctx: TestContext, saleId: number, holder = 'buyer') =>
  (
    await ctx.database.db
      .select()
      .from(purchaseAccessLimits)
      .where(and(eq(purchaseAccessLimits.saleId, saleId), eq(purchaseAccessLimits.holder, holder)))
  )[0];
const capNotices = (saleId: number) =>
  smtp.received.filter((m) => m.parsed.subject === `Aviso de seguridad – compra N° ${saleId}`);
/** Lets the next request of the same question queue a job (one a minute otherwise). */
const forgetCodeRequests = (ctx: TestContext) =>
  ctx.database.db.update(jobs).set({ dedupeKey: null }).where(eq(jobs.kind, purchaseCodeEmailKind));

describeOnEachDatabase(
  '«Mi compra»: codes and wrong tries are capped per sale, holder and day',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('at most 5 codes a day per holder: then the same 202 and nothing sent; the buyer is told once; her own codes still come', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const number = String(sale.idVenta);
      const before = codeMails().length;
      const answers: Answer[] = [];
      for (let i = 0; i < 7; i++) {
        await forgetCodeRequests(ctx);
        answers.push(await requestCode(ctx, { number, ...diego }));
        await ctx.app.runJobs();
      }
      expect(answers.every((answer) => answer.status === 202 && answer.text === answers[0]?.text)).toBe(true);
      expect(
        codeMails()
          .slice(before)
          .map((mail) => mail.to),
      ).toStrictEqual(Array(5).fill(['diego@example.com']));
      expect((await limitsOf(ctx, sale.idVenta, 'traveller:2'))?.codesIssued).toBe(5);
      const notices = capNotices(sale.idVenta);
      expect(notices.map((mail) => mail.to)).toStrictEqual([['camila@example.cl']]);
      expect(notices[0]?.parsed.text).not.toMatch(/Diego|Rosa|AR30111222/);
      // A traveller who used up her codes (or whoever has her document) used up none of the buyer's.
      await forgetCodeRequests(ctx);
      await opened(await checkCode(ctx, { number, ...camila, code: await codeFor(ctx, number) }));
      expect((await limitsOf(ctx, sale.idVenta))?.codesIssued).toBe(1);
    });

    it('a refused code takes the same floor of time whether the sale is unknown, the document wrong or the code wrong', async () => {
      const sale = await paidSale(ctx);
      const number = String(sale.idVenta);
      await codeFor(ctx, number);
      const cases = {
        unknownSale: { number: '987654', ...camila, code: '123456' },
        wrongDocument: { number, documentType: 'rut', document: '15.123.456-9', code: '123456' },
        wrongCode: { number, ...camila, code: '000000' },
      };
      for (const [name, body] of Object.entries(cases)) {
        const started = performance.now();
        const answer = await checkCode(ctx, body);
        const took = performance.now() - started;
        expect(answer.status, name).toBe(400);
        expect(answer.json(), name).toMatchObject({ detail: invalidCodeMessage });
        // The floor hides the work's spread (one query for an unknown sale, a locked transaction for a known one).
        expect(took, name).toBeGreaterThanOrEqual(codeRefusalFloorMs - 1);
      }
    });

    it("a traveller's 10 wrong tries lock only her own codes: the buyer's right code still opens the sale", async () => {
      const sale = await paidSale(ctx);
      const number = String(sale.idVenta);
      for (let i = 0; i < 12; i++) {
        expect((await checkCode(ctx, { number, ...diego, code: String(i).padStart(6, '0') })).status).toBe(400);
      }
      expect((await limitsOf(ctx, sale.idVenta, 'traveller:2'))?.failedTries).toBe(10);
      await forgetCodeRequests(ctx);
      await opened(await checkCode(ctx, { number, ...camila, code: await codeFor(ctx, number) }));
    });

    it('after 10 wrong tries in a day no code opens the sale, not even the right one; the buyer is told once; the next day it opens', async () => {
      const sale = await paidSale(ctx);
      const number = String(sale.idVenta);
      const first = await codeFor(ctx, number);
      for (let i = 0; i < 12; i++) {
        const wrong = String((Number(first) + 1 + i) % 1_000_000).padStart(6, '0');
        expect((await checkCode(ctx, { number, ...camila, code: wrong })).status).toBe(400);
      }
      expect((await limitsOf(ctx, sale.idVenta))?.failedTries).toBe(10);
      await forgetCodeRequests(ctx);
      const fresh = await codeFor(ctx, number);
      const refused = await checkCode(ctx, { number, ...camila, code: fresh });
      expect(refused.status).toBe(400);
      expect(refused.json()).toMatchObject({ detail: invalidCodeMessage });
      await ctx.app.runJobs();
      expect(capNotices(sale.idVenta).map((mail) => mail.to)).toStrictEqual([['camila@example.cl']]);

      // The day's counts belong to yesterday now: a new code opens.
      await ctx.database.db
        .update(purchaseAccessLimits)
        .set({ day: sql`${purchaseAccessLimits.day} - 1` })
        .where(eq(purchaseAccessLimits.saleId, sale.idVenta));
      await forgetCodeRequests(ctx);
      await opened(await checkCode(ctx, { number, ...camila, code: await codeFor(ctx, number) }));
    });

    it('30 wrong guesses at once never count past the cap, eight rounds: 10 tries, then the right code is refused', async () => {
      const sale = await paidSale(ctx);
      const number = String(sale.idVenta);
      for (let round = 0; round < 8; round++) {
        await ctx.database.db.delete(purchaseAccessLimits).where(eq(purchaseAccessLimits.saleId, sale.idVenta));
        await forgetCodeRequests(ctx);
        const code = await codeFor(ctx, number);
        const guesses = await Promise.all(
          Array.from({ length: 30 }, (_, i) =>
            checkCode(ctx, {
              number,
              ...(i % 3 === 0 ? diego : camila),
              code: String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
            }),
          ),
        );
        expect(guesses.every((guess) => guess.status === 400)).toBe(true);
        expect((await limitsOf(ctx, sale.idVenta))?.failedTries, `round ${round}`).toBe(10);
        const [live] = await ctx.database.db
          .select({ attempts: purchaseAccessCodes.attempts })
          .from(purchaseAccessCodes)
          .where(and(eq(purchaseAccessCodes.saleId, sale.idVenta), eq(purchaseAccessCodes.holder, 'buyer')))
          .orderBy(sql`${purchaseAccessCodes.id} desc`)
          .limit(1);
        expect(live?.attempts).toBeLessThanOrEqual(5);
        expect((await checkCode(ctx, { number, ...camila, code })).status).toBe(400);
      }
    });
  },
  env,
);

describe('POST /purchases/access does the same work whether the sale is unknown, the document wrong or both match', () => {
  const sent: string[] = [];
  const ctx = {} as TestContext;

  beforeAll(async () => {
    const dump = await readFile(inject('seededPgliteDump'));
    ctx.database = await openPglite({ loadDataDir: new Blob([dump]), onQuery: (query) => sent.push(query) });
    // No background run: only the request's own statements are recorded.
    ctx.config = loadConfig({ NODE_ENV: 'test', RATE_LIMIT_FACTOR: '1000', WORKER: 'off', ...env });
    ctx.app = await buildApp({ config: ctx.config, db: ctx.database.db });
    await ctx.app.ready();
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.database?.close();
  });

  it('the same SQL statements, one job queued each, the same answer: the lookup and the e-mail run in the job', async () => {
    const sale = await paidSale(ctx);
    await requestCode(ctx, { number: '1', ...camila }); // warm caches (the company check)
    const cases = {
      unknownSale: { number: '987654', ...camila },
      wrongDocument: { number: String(sale.idVenta), ...rosa, document: '15.123.456-9' },
      match: { number: String(sale.idVenta), ...camila },
    };
    const jobsQueued = async () =>
      (
        await ctx.database.db
          .select({ count: sql<number>`count(*)::int` })
          .from(jobs)
          .where(eq(jobs.kind, purchaseCodeEmailKind))
      )[0]?.count ?? 0;
    const work: Record<string, { statements: string[]; jobs: number; answer: Answer }> = {};
    for (const [name, body] of Object.entries(cases)) {
      const queued = await jobsQueued();
      sent.length = 0;
      const answer = await requestCode(ctx, body);
      work[name] = { statements: [...sent], jobs: (await jobsQueued()) - queued, answer };
    }
    const { unknownSale, wrongDocument, match } = work;
    expect(match?.statements.length).toBeGreaterThan(0);
    expect(unknownSale?.statements).toStrictEqual(match?.statements);
    expect(wrongDocument?.statements).toStrictEqual(match?.statements);
    for (const one of Object.values(work)) {
      expect(one.jobs).toBe(1);
      expect(one.answer.status).toBe(202);
      expect(one.answer.text).toBe(match?.answer.text);
    }
  });
});
