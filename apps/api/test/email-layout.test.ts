import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { contactRequests, operators } from '#app/db/schema.ts';
import { demoPhones } from '#app/db/seed/demo-company.ts';
import type { Mailer, OutgoingEmail } from '#app/integrations/mail/mailer.ts';
import { contactReplyEmailJob } from '#app/modules/contact/service.ts';
import { lockoutEmailJob } from '#app/modules/operators/service.ts';
import { accessCapEmailJob, signedLinkToken } from '#app/modules/purchases/service.ts';
import { paidSale, travellers, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { claimBody, coveredSale } from './support/refund-claims.ts';
import { passingToken, useFakeSiteverify } from './support/siteverify.ts';
import type { ReceivedMail } from './support/smtp.ts';
import { useFakeSmtp } from './support/smtp.ts';

/**
 * Every e-mail in the store's layout (issue 27 §4, docs/email.md), as the jobs send them through SMTP: links absolute
 * to PUBLIC_URL, no image that would have to load from elsewhere, a text part, the emergency numbers in each
 * traveller's certificate e-mail, the plan's tax wording. Each HTML part is written to test-results/emails/ for the
 * browser check (e2e/email-layout.spec.ts: 375 and 800 px, nothing wider than the screen, axe).
 */
const publicUrl = 'https://tienda.example.cl';
// The local tax-document adapter: each paid sale's boleta is issued and e-mailed, as in a demo store.
const env: NodeJS.ProcessEnv = { PUBLIC_URL: publicUrl, TAX_DOCUMENTS_PROVIDER: 'local' };
useTemporaryDataDir(env);
useFakeSiteverify(env);
const smtp = useFakeSmtp(env);
const outDir = join(import.meta.dirname, '../../../test-results/emails');

/** The href and src of every tag of an HTML part. */
const attributes = (html: string, name: 'href' | 'src') =>
  [...html.matchAll(new RegExp(`\\s${name}="([^"]*)"`, 'g'))].map((match) => (match[1] ?? '').replace(/&amp;/g, '&'));

/** What every e-mail must be, whatever it says. Answers its HTML. */
async function expectStoreLayout(received: ReceivedMail | Sent | undefined, name: string) {
  if (!received) throw new Error(`no ${name} e-mail`);
  const mail = 'parsed' in received ? received : { parsed: { html: received.html, text: received.text } };
  const html = String(mail.parsed.html || '');
  // The one layout: the store's name as the logo, its teal band, the phone viewport rules, the dark scheme.
  expect(html).toContain('class="tv-band"');
  expect(html).toContain('#0b5563');
  expect(html).toContain('@media only screen and (max-width: 620px)');
  expect(html).toContain('prefers-color-scheme: dark');
  expect(html).toContain('<html dir="ltr" lang="es-CL">');
  // No image at all: nothing that a client blocks or that fails to load.
  expect(html).not.toMatch(/<img\b/i);
  expect(html).not.toMatch(/url\(\s*['"]?http/i);
  // Every link is absolute to PUBLIC_URL.
  for (const href of attributes(html, 'href')) expect(href.startsWith(`${publicUrl}/`), href).toBe(true);
  // A text part with words, not left to the client to derive.
  expect((mail.parsed.text ?? '').trim().length).toBeGreaterThan(40);
  expect(mail.parsed.text).not.toContain('<p');
  await mkdir(outDir, { recursive: true });
  await writeFile(join(outDir, `${name}.html`), html);
  return html;
}

type Sent = OutgoingEmail;

/** A mailer that keeps what the jobs hand it: the jobs run here are the worker's own (their payload as queued). */
function keepingMailer() {
  const sent: Sent[] = [];
  const mailer: Mailer = {
    destination: 'memory',
    from: 'Travesía <no-reply@travesia.cl>',
    async send(email) {
      sent.push(email);
      return { messageId: `<${sent.length}@travesia.cl>` };
    },
    async close() {},
  };
  return { mailer, sent };
}

const contactBody = {
  fullName: 'Camila Rojas Soto',
  email: 'camila.diseno@example.cl',
  phone: '+56 9 1234 5678',
  idSubject: 3,
  detail: 'Necesito un certificado en inglés para el consulado.\nViajo el 12 de diciembre.',
};

describeOnEachDatabase(
  'e-mails in the store layout',
  (ctx: TestContext) => {
    it('the purchase and certificate e-mails: emergency numbers, activation, tax wording, «Mi compra» button', async () => {
      const sale = await paidSale(ctx, 3);
      await ctx.app.runJobs();
      const mails = smtp.mailsOfSale(sale.idVenta);
      expect(mails).toHaveLength(travellers.length);
      const [buyer, traveller] = mails;
      const html = await expectStoreLayout(buyer, 'certificados-comprador');
      await expectStoreLayout(traveller, 'certificado-pasajero');
      for (const each of mails) {
        for (const body of [each.parsed.text ?? '', String(each.parsed.html)]) {
          expect(body).toMatch(/Desde Chile: \+56/);
          expect(body).toContain(`Desde el extranjero: ${demoPhones.abroad}`);
          expect(body).toContain(`WhatsApp: ${demoPhones.whatsappEmergency}`);
          expect(body).toContain('Cómo activar tu asistencia:');
          expect(body).not.toContain('impuestos incluidos');
        }
      }
      // The plan carries no IVA: its total says so, in both parts.
      expect(buyer?.parsed.text).toMatch(/Total pagado: \$[\d.]+ \(USD [\d.,]+\), no afecto a IVA\./);
      expect(html).toMatch(/Total pagado: \$[\d.]+ \(USD [\d.,]+\), no afecto a IVA\./);
      // «Mi compra» is the buyer's button; the general conditions a link; both on the store.
      const hrefs = attributes(html, 'href');
      expect(hrefs.some((href) => href.startsWith(`${publicUrl}/mi-compra`))).toBe(true);
      expect(hrefs).toContain(`${publicUrl}/api/legal/condiciones-generales.pdf`);
      expect(html).toMatch(/class="tv-button"[^>]*>[\s\S]*Ir a Mi compra/);
    });

    it('the «Mi compra» code, the withdrawal, the newsletter confirmation and the contact e-mails', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      // The code e-mail.
      const asked = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/access',
        payload: { number: String(sale.idVenta), documentType: 'rut', document: '12345678-5' },
      });
      expect(asked.status, asked.text).toBe(202);
      await ctx.app.runJobs();
      const code = smtp
        .received()
        .filter((m) => m.parsed.subject?.startsWith('Tu código para ver tu compra'))
        .at(-1);
      const codeHtml = await expectStoreLayout(code, 'codigo-mi-compra');
      expect(codeHtml).toMatch(/letter-spacing:6px[^>]*>\d{6}</);

      // The withdrawal e-mails: the buyer's, with the amounts, and a traveller's.
      const link = await signedLinkToken(ctx.database.db, ctx.config.purchases, sale.idVenta);
      const opened = await call(ctx.app, { method: 'POST', url: '/api/purchases/access/link', payload: { link } });
      const { token } = opened.json<{ token: string }>();
      const withdrawn = await call(ctx.app, {
        method: 'POST',
        url: '/api/purchases/mine/withdrawal',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(withdrawn.status, withdrawn.text).toBeLessThan(300);
      await ctx.app.runJobs();
      const retracto = smtp.mailsOfSale(sale.idVenta).length;
      expect(retracto).toBeGreaterThan(0);
      const buyerWithdrawal = smtp
        .received()
        .find((m) => m.parsed.subject?.startsWith(`Recibimos tu retracto – compra N° ${sale.idVenta}`));
      const withdrawalHtml = await expectStoreLayout(buyerWithdrawal, 'retracto-comprador');
      expect(withdrawalHtml).toContain('Neto pagado');
      expect(withdrawalHtml).not.toContain('impuestos incluidos');
      const travellerWithdrawal = smtp
        .received()
        .find((m) => /Tu certificado \S+ fue anulado/.test(m.parsed.subject ?? ''));
      await expectStoreLayout(travellerWithdrawal, 'retracto-pasajero');

      // The newsletter confirmation: the button and the one-click unsubscribe link, both on the store.
      const email = `diseno.${sale.idVenta}@example.cl`;
      const subscribed = await call(ctx.app, {
        method: 'POST',
        url: '/api/companies/1/subscriptions',
        payload: { email },
      });
      expect(subscribed.status, subscribed.text).toBe(204);
      await ctx.app.runJobs();
      const newsletterHtml = await expectStoreLayout(smtp.mailsTo(email).at(-1), 'confirmar-suscripcion');
      expect(attributes(newsletterHtml, 'href').map((href) => new URL(href).pathname)).toStrictEqual([
        '/suscripcion/confirmar',
        '/suscripcion/baja',
      ]);

      // The contact form's e-mail to the company: the visitor's words quoted, escaped, in a table.
      const contact = await call(ctx.app, {
        method: 'POST',
        url: `/api/companies/1/contact-forms?reCaptchaToken=${encodeURIComponent(passingToken())}`,
        payload: { ...contactBody, detail: `${contactBody.detail}\n<img src="http://evil.example/x.png">` },
      });
      expect(contact.status, contact.text).toBe(204);
      await ctx.app.runJobs();
      const contactMail = smtp.received().find((m) => m.parsed.replyTo?.text.includes(contactBody.email));
      const contactHtml = await expectStoreLayout(contactMail, 'contacto');
      expect(contactHtml).toContain(
        'Necesito un certificado en inglés para el consulado.<br/>Viajo el 12 de diciembre.',
      );
      expect(contactHtml).toContain('&lt;img src=');
    });

    it('the tax document, the access cap, the contact reply and the operator lockout e-mails', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      await ctx.app.runJobs();
      const boleta = smtp.received().find((m) => m.parsed.subject?.endsWith(`· compra N° ${sale.idVenta}`));
      const boletaHtml = await expectStoreLayout(boleta, 'documento-tributario');
      expect(boletaHtml).toContain('class="tv-notice"');
      expect(boletaHtml).toContain('SIN VALOR TRIBUTARIO');

      const { mailer, sent } = keepingMailer();
      const job = { id: 1, attempt: 1 };
      await accessCapEmailJob(ctx.database.db, mailer).run({ saleId: sale.idVenta, day: '2026-11-29' }, job);
      await expectStoreLayout(sent.at(-1), 'aviso-codigos');
      expect(sent.at(-1)?.subject).toBe(`Aviso de seguridad – compra N° ${sale.idVenta}`);

      const contact = await call(ctx.app, {
        method: 'POST',
        url: `/api/companies/1/contact-forms?reCaptchaToken=${encodeURIComponent(passingToken())}`,
        payload: { ...contactBody, email: `respuesta.${sale.idVenta}@example.cl` },
      });
      expect(contact.status, contact.text).toBe(204);
      const [request] = await ctx.database.db
        .update(contactRequests)
        .set({ state: 'answered', reply: 'Hola Camila, te enviamos el certificado en inglés.\nSaludos.' })
        .where(eq(contactRequests.email, `respuesta.${sale.idVenta}@example.cl`))
        .returning();
      if (!request) throw new Error('no contact request');
      await contactReplyEmailJob(ctx.database.db, mailer).run({ requestId: request.id }, job);
      const replyHtml = await expectStoreLayout(sent.at(-1), 'respuesta-contacto');
      expect(replyHtml).toContain('te enviamos el certificado en inglés.<br/>Saludos.');
      expect(replyHtml).toContain('<blockquote');

      const [operator] = await ctx.database.db
        .insert(operators)
        .values({
          id: randomUUID(),
          email: `bloqueo.${sale.idVenta}@travesia.cl`,
          name: 'Operadora',
          roles: ['sales'],
          state: 'active',
        })
        .returning();
      if (!operator) throw new Error('no operator');
      await lockoutEmailJob(ctx.database.db, mailer).run(
        { operatorId: operator.id, at: new Date().toISOString() },
        job,
      );
      await expectStoreLayout(sent.at(-1), 'bloqueo-consola');
      expect(sent.at(-1)?.subject).toBe('Aviso de seguridad: cuenta de la consola bloqueada');
    });

    it('the refund claim e-mails: the holder’s with the tracking page as a link, and the company’s', async () => {
      const sale = await coveredSale(ctx);
      const holder = `reembolso.${sale.saleId}@example.cl`;
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
      const answer = await call(ctx.app, {
        method: 'POST',
        url: '/api/companies/1/refunds',
        payload: claimBody(sale.certificates[0] ?? '', {
          email: holder,
          documentos: [{ nombre: 'boleta.pdf', contenido: pdf.toString('base64') }],
        }),
      });
      expect(answer.status, answer.text).toBe(204);
      const number = String(answer.headers['x-refund-number']);
      await ctx.app.runJobs();
      const html = await expectStoreLayout(smtp.mailsTo(holder).at(-1), 'reembolso-titular');
      expect(attributes(html, 'href')).toContain(
        `${publicUrl}/reembolsos/seguimiento?numero=${encodeURIComponent(number)}`,
      );
      const company = smtp.mailsAbout(`Nueva solicitud de reembolso ${number}`).at(-1);
      expect(company).toBeDefined();
      await expectStoreLayout(company, 'reembolso-empresa');
    });
  },
  env,
);
