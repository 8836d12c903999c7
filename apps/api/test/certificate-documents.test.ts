import { expect, it } from 'vitest';
import { freshHolders, type Holders, paidSaleOf, searchCertificates, unitedKingdom } from './support/certificates.ts';
import { drainJobsAfterAll, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, get } from './support/http.ts';
import { pdfStrings } from './support/pdf-text.ts';
import { useFakeSmtp } from './support/smtp.ts';

/**
 * Issue #12, «Each traveller's own documents»: one certificate PDF per traveller (only their data), e-mailed to their
 * own address, the buyer getting all; passport as a document type; the destination country and the assistance
 * numbers on the certificate; the general conditions as a printable PDF.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
const { mailsOfSale, mailsTo } = useFakeSmtp(env);

const names = ['Camila Rojas', 'Diego Muñoz', 'Rosa Pérez'];
const pdfText = (pdf: Uint8Array) => pdfStrings(pdf).join('\n');

type Listed = { certificate: string; name: string };

async function listOf(ctx: TestContext, sale: { idVenta: number; accessToken: string }): Promise<Listed[]> {
  const answer = await get(ctx.app, `/api/certificates/b2c/${sale.idVenta}/certificados?token=${sale.accessToken}`);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<Listed[]>();
}

const ownPdf = (ctx: TestContext, saleId: number, number: string, token?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/api/certificates/b2c/${saleId}/certificados/${encodeURIComponent(number)}${token ? `?token=${token}` : ''}`,
  });

/** Holds every traveller's data but the one named: their name, document and e-mail. */
function expectOnly(text: string, index: number, holders: Holders) {
  const documents = [holders.rut.dotsAndDash, holders.passport, '7.654.321-6'];
  names.forEach((name, other) => {
    if (other === index) {
      expect(text).toContain(name);
      expect(text).toContain(documents[other]);
    } else {
      expect(text).not.toContain(name);
      expect(text).not.toContain(documents[other]);
    }
  });
}

describeOnEachDatabase(
  "Each traveller's own certificate, passport, destination country, assistance numbers, general conditions PDF",
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('each traveller has a PDF of their own (only their data), downloaded by sale + certificate number with the sale’s token; the whole-sale PDF still holds everyone', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      const listed = await listOf(ctx, sale);
      expect(listed.map((item) => item.name)).toStrictEqual(names);
      for (const [index, item] of listed.entries()) {
        const response = await ownPdf(ctx, sale.idVenta, item.certificate, sale.accessToken);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('application/pdf');
        expect(response.headers['content-disposition']).toBe(
          `attachment; filename="certificado-${item.certificate}.pdf"`,
        );
        expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        const text = pdfText(response.rawPayload);
        expect(text).toContain(item.certificate);
        expectOnly(text, index, holders);
      }
      // The existing whole-sale download (spec §7) keeps every traveller.
      const whole = await ctx.app.inject({
        method: 'GET',
        url: `/api/certificates/b2c/${sale.idVenta}/certificado.pdf?token=${sale.accessToken}`,
      });
      expect(whole.statusCode).toBe(200);
      for (const name of names) expect(pdfText(whole.rawPayload)).toContain(name);
    });

    it('without the sale’s proof, with another sale’s token, or with a number of another sale: the catalogue 404', async () => {
      const one = await paidSaleOf(ctx, freshHolders());
      const two = await paidSaleOf(ctx, freshHolders());
      const [first] = await listOf(ctx, one);
      const [firstOfTwo] = await listOf(ctx, two);
      if (!first || !firstOfTwo) throw new Error('no certificates');
      expect((await ownPdf(ctx, one.idVenta, first.certificate)).statusCode).toBe(404);
      expect((await ownPdf(ctx, one.idVenta, first.certificate, 'x'.repeat(43))).statusCode).toBe(404);
      expect((await ownPdf(ctx, one.idVenta, first.certificate, two.accessToken)).statusCode).toBe(404);
      expect((await ownPdf(ctx, one.idVenta, firstOfTwo.certificate, one.accessToken)).statusCode).toBe(404);
      expect((await get(ctx.app, `/api/certificates/b2c/${one.idVenta}/certificados`)).status).toBe(404);
    });

    it('the buyer gets one e-mail with every traveller’s PDF; each other traveller one with their own PDF only, to their address alone', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders);
      await ctx.app.runJobs();
      const mails = mailsOfSale(sale.idVenta);
      expect(mails).toHaveLength(3);
      // No quotation e-mail in these tests: the buyer is the first traveller.
      const [buyer, ...others] = mails;
      expect(buyer?.to).toStrictEqual([holders.emails[0]]);
      expect(buyer?.parsed.attachments).toHaveLength(3);
      expect(buyer?.parsed.text).toContain('/api/legal/condiciones-generales.pdf');
      for (const [index, attachment] of (buyer?.parsed.attachments ?? []).entries()) {
        expectOnly(pdfText(attachment.content), index, holders);
      }
      for (const [offset, mail] of others.entries()) {
        const index = offset + 1;
        // The SMTP envelope and the headers: that traveller alone, nobody on Cc.
        expect(mail.to).toStrictEqual([holders.emails[index]]);
        expect(mail.parsed.cc).toBeUndefined();
        expect(mail.parsed.attachments).toHaveLength(1);
        expectOnly(pdfText(mail.parsed.attachments[0]?.content ?? Buffer.alloc(0)), index, holders);
        for (const [other, address] of holders.emails.entries()) {
          if (other !== index) expect(mail.raw.toString('latin1')).not.toContain(address);
        }
      }
    });

    it('passport: saved as type 3, printed «Pasaporte» (and «Passport» on a Schengen statement), found by the search, and opens «Mi compra»', async () => {
      const holders = freshHolders();
      const sale = await paidSaleOf(ctx, holders, { passportType: true });
      const passengers = await get(ctx.app, `/api/quotations/${sale.quotationId}/passangers`);
      expect(passengers.json<{ passangers: { document: { type: number } }[] }>().passangers[1]?.document.type).toBe(3);
      const [, diego] = await listOf(ctx, sale);
      const pdf = await ownPdf(ctx, sale.idVenta, diego?.certificate ?? '', sale.accessToken);
      const text = pdfText(pdf.rawPayload);
      expect(text).toContain(`Pasaporte ${holders.passport}`);
      expect(text).toContain(`Passport ${holders.passport}`); // Spain: the Schengen statement

      const found = await searchCertificates(ctx, holders.passport);
      expect(found.status, found.text).toBe(200);
      expect(found.json<{ certificate: string }[]>().map((card) => card.certificate)).toStrictEqual([
        diego?.certificate,
      ]);

      const asked = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/access',
        payload: { number: String(sale.idVenta), documentType: 'passport', document: holders.passport },
      });
      expect(asked.status, asked.text).toBe(202);
      await ctx.app.runJobs();
      const codeMail = mailsTo(holders.emails[1] ?? '')
        .filter((m) => m.parsed.subject?.includes('código'))
        .at(-1);
      const code = /\b(\d{6})\b/.exec(codeMail?.parsed.text ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      const opened = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/access/code',
        payload: { number: String(sale.idVenta), documentType: 'passport', document: holders.passport, code },
      });
      expect(opened.status, opened.text).toBe(200);
      const token = opened.json<{ token: string }>().token;
      const view = await call(ctx.app, {
        method: 'GET',
        url: '/api/purchases/mine',
        headers: { authorization: `Bearer ${token}` },
      });
      // The passport holder is a traveller, not the payer: «Mi compra» opens her own trip (docs/my-purchase.md).
      const { role, traveller } = view.json<{
        role: string;
        traveller: { documentType: string; certificate: string };
      }>();
      expect(role).toBe('traveller');
      expect(traveller).toMatchObject({ documentType: 'Pasaporte', certificate: diego?.certificate });
      // «Mi compra» downloads her own certificate under her own token.
      const own = await ctx.app.inject({
        method: 'GET',
        url: `/api/purchases/mine/certificados/${traveller.certificate}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(own.statusCode, own.body).toBe(200);
      expectOnly(pdfText(own.rawPayload), 1, holders);
      const stranger = await ctx.app.inject({
        method: 'GET',
        url: `/api/purchases/mine/certificados/${traveller.certificate}`,
        headers: { authorization: 'Bearer nope' },
      });
      expect(stranger.statusCode).toBe(404);
    });

    it('a passport number with whitespace or under 5 characters is refused like a DNI', async () => {
      const holders = freshHolders();
      for (const id of ['PX 123', 'P12']) {
        const sale = paidSaleOf(ctx, { ...holders, passport: id }, { passportType: true, pay: false });
        await expect(sale).rejects.toThrow();
      }
    });

    it('the certificate prints the destination country named at checkout and the assistance numbers the activation steps point at', async () => {
      const sale = await paidSaleOf(ctx, freshHolders(), { country: unitedKingdom });
      const [first] = await listOf(ctx, sale);
      const text = pdfText((await ownPdf(ctx, sale.idVenta, first?.certificate ?? '', sale.accessToken)).rawPayload);
      expect(text).toContain('País de destino');
      expect(text).toContain('Reino Unido');
      expect(text).toContain('Central de asistencia desde el extranjero');
      expect(text).toContain('+1 (786) 347 2210');
      expect(text).toContain('WhatsApp de asistencia');
      expect(text).toContain('+56 9 4000 2000');
      expect(text.replace(/\n/g, ' ')).toContain('Antes de recibir atención, comunícate con la central de asistencia');
    });

    it('the general conditions are a real PDF of the terms page, cacheable with an ETag (304 when unchanged)', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/legal/condiciones-generales.pdf' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(response.rawPayload);
      expect(text).toContain('Términos y condiciones');
      expect(text).toContain('1. Objeto');
      const etag = String(response.headers.etag ?? '');
      expect(etag).toMatch(/^W\/"/);
      expect(response.headers['cache-control']).toBe('public, max-age=60');
      const again = await ctx.app.inject({ method: 'GET', url: '/api/legal/condiciones-generales.pdf' });
      expect(again.headers.etag).toBe(etag);
      const cached = await ctx.app.inject({
        method: 'GET',
        url: '/api/legal/condiciones-generales.pdf',
        headers: { 'if-none-match': etag },
      });
      expect(cached.statusCode).toBe(304);
    });
  },
  env,
);
