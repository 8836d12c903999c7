import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessages } from '@travesia/domain/messages';
import { type AddressObject, type ParsedMail, simpleParser } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import { expect, it, vi } from 'vitest';
import { demoPhones } from '#app/db/seed/demo-company.ts';
import type { Mailer } from '#app/integrations/mail/mailer.ts';
import { certificateEmailJob, certificateEmailKind, manualEmailDedupeKey } from '#app/modules/certificates/service.ts';
import { createJobQueue, enqueue, maxJobsPerRun } from '#app/modules/jobs/service.ts';
import {
  countEmails,
  drainJobsAfterAll,
  emailJobsOfSale,
  paidSale,
  paymentResult,
  readyToPay,
  startPayment,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectBadRequest, expectError, get } from './support/http.ts';
import { pdfText } from './support/pdf-text.ts';
import { useFakeSmtp } from './support/smtp.ts';

const unknownQuotation = '7d8f3a52-1c4b-4e8a-9f0e-2b6c1d3e4f50';
const fullNames = travellers.map((t) => `${t.firstName} ${t.lastName}`);
const emails = travellers.map((t) => t.email);

const linkUrl = (saleId: number | string, token?: string) =>
  `/api/certificates/b2c/${saleId}${token === undefined ? '' : `?token=${token}`}`;

const autoEnvio = (ctx: TestContext, quotationId: string, body: unknown) =>
  call(ctx.app, {
    method: 'POST',
    url: `/api/quotations/${quotationId}/auto-envio`,
    payload: body as Record<string, unknown>,
  });

/** The PDF behind a paid sale's link, downloaded as the browser would. */
async function downloadCertificate(ctx: TestContext, sale: { idVenta: number; accessToken: string }) {
  const link = await get(ctx.app, linkUrl(sale.idVenta, sale.accessToken));
  expect(link.status, link.text).toBe(200);
  const { message } = link.json<{ message: string }>();
  const response = await ctx.app.inject({ method: 'GET', url: message });
  return { link: message, response, pdf: response.rawPayload };
}

const addresses = (field: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(field) ? field : field ? [field] : []).flatMap((a) => a.value.map((v) => v.address));

/**
 * What the buyer's certificate e-mail must be: to the buyer alone (the quotation has no e-mail: the first traveller),
 * about the sale, with each traveller's own PDF attached (certificado-{number}.pdf).
 */
function expectCertificateEmail(mail: ParsedMail, saleId: number) {
  expect(addresses(mail.to)).toStrictEqual([emails[0]]);
  expect(mail.subject).toContain(`venta N° ${saleId}`);
  expect(mail.attachments).toHaveLength(emails.length);
  for (const attachment of mail.attachments) {
    expect(attachment.filename).toMatch(/^certificado-TRV-\d{4}-\d{9,}-\d\.pdf$/);
    expect(attachment.contentType).toBe('application/pdf');
    expect(attachment.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  }
  for (const name of fullNames) expect(mail.text).toContain(name);
}

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
const { mailsOfSale } = useFakeSmtp(env);

describeOnEachDatabase(
  'Certificates',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('the b2c link exists only for a paid sale: unknown or pending sale → 404', async () => {
      expectError(await get(ctx.app, linkUrl(987654321)), 404, errorMessages.resourceNotFound, linkUrl(987654321));
      const quotationId = await readyToPay(ctx);
      const pending = await startPayment(ctx, quotationId);
      expectError(
        await get(ctx.app, linkUrl(pending.idVenta, pending.accessToken)),
        404,
        errorMessages.resourceNotFound,
        linkUrl(pending.idVenta),
      );
      const pdfUrl = `${linkUrl(pending.idVenta)}/certificado.pdf`;
      expectError(await get(ctx.app, pdfUrl), 404, errorMessages.resourceNotFound, pdfUrl);
      expect((await get(ctx.app, linkUrl('abc'))).status).toBe(400);
    });

    it('a paid sale’s link answers { message } with the URL of certificado.pdf', async () => {
      const sale = await paidSale(ctx);
      const link = await get(ctx.app, linkUrl(sale.idVenta, sale.accessToken));
      expect(link.status).toBe(200);
      expect(link.json()).toStrictEqual({
        message: `/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${sale.accessToken}`,
      });
    });

    it('the sale id printed on every certificate opens nothing alone: no token, a wrong one or another sale’s → 404', async () => {
      const sale = await paidSale(ctx);
      const other = await paidSale(ctx);
      const wrong = sale.accessToken.replace(/^./, (c) => (c === '0' ? '1' : '0'));
      for (const token of [undefined, '', wrong, other.accessToken, sale.accessToken.slice(0, 32)]) {
        const link = await get(ctx.app, linkUrl(sale.idVenta, token));
        expectError(link, 404, errorMessages.resourceNotFound, linkUrl(sale.idVenta));
        const pdfPath = `${linkUrl(sale.idVenta)}/certificado.pdf`;
        const pdf = await get(ctx.app, token === undefined ? pdfPath : `${pdfPath}?token=${token}`);
        expectError(pdf, 404, errorMessages.resourceNotFound, pdfPath);
      }
      // Without the token the payment result tells the outcome, not who travels nor the quotation behind it.
      const bare = await paymentResult(ctx, { idVenta: sale.idVenta, idTransaction: sale.idTransaction });
      expect(bare).toMatchObject({ resultTransaction: 'AUTHORIZED', quotationId: null, certificates: [] });
      expect(bare.authorizationCode).toBeNull();
      expect(JSON.stringify(bare)).not.toMatch(/Camila|Rojas|@example/);
      // With it, everything the success page shows.
      expect((await paymentResult(ctx, sale)).certificates).toHaveLength(travellers.length);
      expect((await downloadCertificate(ctx, sale)).response.statusCode).toBe(200);
    });

    it('the link serves a PDF attachment certificado.pdf that pdf-lib loads, naming every traveller and certificate', async () => {
      const sale = await paidSale(ctx);
      const { response, pdf } = await downloadCertificate(ctx, sale);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toBe('attachment; filename="certificado.pdf"');
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const document = await PDFDocument.load(pdf);
      expect(document.getPageCount()).toBeGreaterThanOrEqual(1);

      const text = pdfText(pdf);
      expect(sale.result.certificates).toHaveLength(travellers.length);
      for (const name of fullNames) expect(text).toContain(name);
      for (const certificate of sale.result.certificates) expect(text).toContain(certificate.number);
      expect(text).toContain(`Venta N° ${sale.idVenta}`);
    });

    it('after payment the buyer gets one e-mail with every traveller’s own PDF and each other traveller one with theirs, only once however often the outbox runs', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const mails = mailsOfSale(sale.idVenta);
      expect(mails).toHaveLength(emails.length);
      const [mail, ...others] = mails;
      if (!mail) throw new Error('no e-mail');
      expectCertificateEmail(mail.parsed, sale.idVenta);
      expect(mail.to).toStrictEqual([emails[0]]);
      for (const [index, certificate] of sale.result.certificates.entries()) {
        const attached = mail.parsed.attachments[index]?.content ?? Buffer.alloc(0);
        expect((await PDFDocument.load(attached)).getPageCount()).toBeGreaterThanOrEqual(1);
        expect(pdfText(attached)).toContain(certificate.number);
      }
      // Every other traveller: their address alone, their certificate alone.
      expect(others.map((other) => other.to)).toStrictEqual(emails.slice(1).map((email) => [email]));
      for (const other of others) expect(other.parsed.attachments).toHaveLength(1);
      // Every e-mail, the buyer's and each traveller's own, says how to get help: the numbers from Chile, from
      // abroad and by WhatsApp, then how to activate the assistance, in the certificate's words.
      for (const each of mails) {
        const text = each.parsed.text ?? '';
        expect(text).toMatch(/- Desde Chile: \+56/);
        expect(text).toContain(`- Desde el extranjero: ${demoPhones.abroad}`);
        expect(text).toContain(`- WhatsApp: ${demoPhones.whatsappEmergency}`);
        expect(text).toContain('Cómo activar tu asistencia:\n1. Antes de recibir atención, comunícate con la central');
        expect(each.parsed.html).toContain(`WhatsApp: ${demoPhones.whatsappEmergency}`);
      }

      expect(await ctx.app.runJobs()).toBe(0);
      await ctx.app.runJobs();
      expect(mailsOfSale(sale.idVenta)).toHaveLength(emails.length);
      const rows = await emailJobsOfSale(ctx, sale.idVenta);
      expect(rows.map((r) => [r.status, r.dedupeKey])).toStrictEqual([['done', `certificate:auto:${sale.idVenta}`]]);
    });

    it('auto-envio {type: 0, canal: WEB} → 202 and the certificate e-mail goes out once more', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      expect(mailsOfSale(sale.idVenta)).toHaveLength(emails.length);
      const answer = await autoEnvio(ctx, sale.quotationId, { type: 0, canal: 'WEB' });
      expect(answer.status, answer.text).toBe(202);
      await ctx.app.runJobs();
      const mails = mailsOfSale(sale.idVenta);
      expect(mails).toHaveLength(2 * emails.length);
      expectCertificateEmail(mails[emails.length]?.parsed as ParsedMail, sale.idVenta);
    });

    it('auto-envio again within 10 minutes → 202 but nothing new is queued; the next window sends once more', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      // The presses happen 10 minutes ago (in the past: PGlite's own clock follows Date.now), the last one now.
      const earlier = Date.now() - 10 * 60 * 1000;
      const clock = vi.spyOn(Date, 'now').mockReturnValue(earlier);
      try {
        for (let press = 0; press < 5; press += 1) {
          const answer = await autoEnvio(ctx, sale.quotationId, { type: 0, canal: 'WEB' });
          expect(answer.status, answer.text).toBe(202);
        }
        await ctx.app.runJobs();
      } finally {
        clock.mockRestore();
      }
      const manualKey = manualEmailDedupeKey(sale.idVenta, earlier);
      expect(manualKey).toBe(`certificate:manual:${sale.idVenta}:${Math.floor(earlier / 600_000)}`);
      expect(await countEmails(ctx, sale.idVenta)).toBe(2); // the automatic one and one manual
      expect(await countEmails(ctx, sale.idVenta, manualKey)).toBe(1);
      expect(mailsOfSale(sale.idVenta)).toHaveLength(2 * emails.length);

      const later = await autoEnvio(ctx, sale.quotationId, { type: 0, canal: 'WEB' });
      expect(later.status, later.text).toBe(202);
      expect(await countEmails(ctx, sale.idVenta)).toBe(3);
      await ctx.app.runJobs();
      expect(mailsOfSale(sale.idVenta)).toHaveLength(3 * emails.length);
    });

    it('auto-envio for a quotation without a paid sale, or unknown → 404; nothing is queued', async () => {
      const quotationId = await readyToPay(ctx);
      const url = `/api/quotations/${quotationId}/auto-envio`;
      expectError(
        await autoEnvio(ctx, quotationId, { type: 0, canal: 'WEB' }),
        404,
        errorMessages.resourceNotFound,
        url,
      );
      const pending = await startPayment(ctx, quotationId);
      expectError(
        await autoEnvio(ctx, quotationId, { type: 0, canal: 'WEB' }),
        404,
        errorMessages.resourceNotFound,
        url,
      );
      expect(await emailJobsOfSale(ctx, pending.idVenta)).toEqual([]);
      expectError(
        await autoEnvio(ctx, unknownQuotation, { type: 0, canal: 'WEB' }),
        404,
        errorMessages.resourceNotFound,
        `/api/quotations/${unknownQuotation}/auto-envio`,
      );
    });

    it('auto-envio with another type or canal → 400 Invalid inputs supplied', async () => {
      const sale = await paidSale(ctx);
      const url = `/api/quotations/${sale.quotationId}/auto-envio`;
      const typeErrors = expectBadRequest(
        await autoEnvio(ctx, sale.quotationId, { type: 1, canal: 'WEB' }),
        errorMessages.invalidInputs,
        url,
      );
      expect(typeErrors.map((e) => e.field)).toStrictEqual(['type']);
      const canalErrors = expectBadRequest(
        await autoEnvio(ctx, sale.quotationId, { type: 0, canal: 'APP' }),
        errorMessages.invalidInputs,
        url,
      );
      expect(canalErrors.map((e) => e.field)).toStrictEqual(['canal']);
      expectBadRequest(
        await autoEnvio(ctx, 'not-a-uuid', { type: 0, canal: 'WEB' }),
        errorMessages.invalidInputs,
        '/api/quotations/not-a-uuid/auto-envio',
      );
      expect(await emailJobsOfSale(ctx, sale.idVenta)).toHaveLength(1); // the automatic one only
    });
  },
  env,
);

const catcherEnv: NodeJS.ProcessEnv = {};
useTemporaryDataDir(catcherEnv);

describeOnEachDatabase(
  'Certificate e-mails without SMTP_URL',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('the local catcher writes the e-mail as an .eml file under DATA_DIR/outbox, with the PDF attached', async () => {
      expect(ctx.config.mail.smtpUrl).toBeUndefined();
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const outbox = join(catcherEnv.DATA_DIR ?? '', 'outbox');
      expect(ctx.app.mailer.destination).toBe(outbox);
      const files = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
      const parsed = await Promise.all(files.map(async (name) => simpleParser(await readFile(join(outbox, name)))));
      const ofSale = parsed.filter((mail) => mail.subject?.includes(`venta N° ${sale.idVenta}`));
      // The buyer's e-mail and one to each other traveller.
      expect(ofSale).toHaveLength(emails.length);
      const buyer = ofSale.find((mail) => addresses(mail.to)[0] === emails[0]);
      expectCertificateEmail(buyer as ParsedMail, sale.idVenta);
      expect(addresses(buyer?.from)).toStrictEqual(['certificados@travesia.cl']);
    });

    it('the queue leases one e-mail at a time, just before sending it, and sends at most 20 per run', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const db = ctx.database.db;
      for (let n = 0; n < maxJobsPerRun + 2; n += 1) {
        await enqueue(db, certificateEmailKind, { saleId: sale.idVenta }, `lease-test:${n}`);
      }
      const leasedWhileSending: number[] = [];
      const slowMailer: Mailer = {
        destination: 'test',
        from: 'Travesía <certificados@travesia.cl>',
        async send() {
          const rows = await emailJobsOfSale(ctx, sale.idVenta);
          leasedWhileSending.push(rows.filter((row) => row.status === 'pending' && row.attempts > 0).length);
          return { messageId: `<${leasedWhileSending.length}@test>` };
        },
        close: async () => {},
      };
      const queue = createJobQueue(db);
      queue.register(certificateEmailKind, certificateEmailJob(db, slowMailer, 'http://localhost:3000'));
      expect(await queue.run()).toBe(maxJobsPerRun);
      // Each job sends the buyer's e-mail and one per other traveller, all under that one lease.
      expect(leasedWhileSending).toStrictEqual(Array.from({ length: maxJobsPerRun * emails.length }, () => 1));
      const rows = await emailJobsOfSale(ctx, sale.idVenta);
      expect(rows.filter((row) => row.status === 'pending' && row.attempts === 0)).toHaveLength(2);
      expect(await queue.run()).toBe(2);
    });
  },
  catcherEnv,
);
