import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs, purchaseAccessCodes } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/rate-limit.ts';
import { receiptTotalText } from '#app/modules/purchases/receipt-pdf.ts';
import { invalidCodeMessage, invalidLinkMessage, purchaseCodeEmailKind } from '#app/modules/purchases/service.ts';
import { clpText, drainJobsAfterAll, paidSale, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { type Answer, call } from './support/http.ts';
import { pdfStrings } from './support/pdf-text.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';

/**
 * «Mi compra» without an account (issue #12, Access): a one-time code e-mailed to an address the sale holds, or the
 * signed link of the purchase e-mail, opens one paid sale for a short while; nothing tells a stranger whether a sale
 * or document exists.
 */

const env: NodeJS.ProcessEnv = { ADMIN_TOKEN: 'a'.repeat(40) };
useTemporaryDataDir(env);
let smtp: FakeSmtp;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
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

const codeJobs = (ctx: TestContext) =>
  ctx.database.db.select({ count: sql<number>`count(*)::int` }).from(jobs).where(eq(jobs.kind, purchaseCodeEmailKind));

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

      const before = (await codeJobs(ctx))[0]?.count;
      // Rosa's RUT is on the sale, but not on Camila's certificate: nothing is sent.
      const other = await requestCode(ctx, { number, documentType: 'rut', document: '7.654.321-6' });
      expect(other.status).toBe(202);
      expect((await codeJobs(ctx))[0]?.count).toBe(before);
    });

    it('nothing tells an unknown sale, certificate or document from a known one: same 202, no e-mail, the same 400 for any code', async () => {
      const sale = await paidSale(ctx);
      const before = (await codeJobs(ctx))[0]?.count;
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
      expect((await codeJobs(ctx))[0]?.count).toBe((before ?? 0) + 1);

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
      expect(text).toContain(receiptTotalText(sale.result.amountClp));
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
