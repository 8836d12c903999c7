import { join } from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { outboxEmails } from '#app/db/schema.ts';
import { createMailer, type Mailer } from '#app/integrations/mail/mailer.ts';
import { processOutbox } from '#app/modules/certificates/service.ts';
import { drainOutboxAfterAll, paidSale, travellers, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { type FakeSmtp, type ReceivedMail, startFakeSmtp } from './support/smtp.ts';

/**
 * The certificate e-mail is delivered AT LEAST ONCE: the outbox marks an e-mail sent only after the SMTP server
 * accepted it, so a process that dies in between sends it again once its lease expires. What keeps the duplicate
 * harmless is the Message-ID: every attempt of one queued e-mail carries the same `<outbox-{id}@{MAIL_FROM's
 * domain}>`, so a mail client shows one message; different e-mails (other sales, a resend on request) never share it.
 */

const env: NodeJS.ProcessEnv = {};
let smtp: FakeSmtp;
useTemporaryDataDir(env);
// The SMTP server must listen before the suites' beforeAll reads SMTP_URL.
beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
});

/** The messages the SMTP server accepted about one sale (sale ids are random: both database runs share the server). */
const mailsOfSale = (saleId: number) => smtp.received.filter((m) => m.parsed.subject?.includes(`venta N° ${saleId}`));

/** The Message-ID header exactly as it travelled (the raw message), not as a parser may normalise it. */
function messageIdHeader(mail: ReceivedMail): string | undefined {
  const head = mail.raw.toString('latin1').split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return /^Message-ID:\s*(.*?)\s*$/im.exec(unfolded)?.[1];
}

const expectedId = (emailId: number, domain = 'travesia.cl') => `<outbox-${emailId}@${domain}>`;

async function outboxRowsOfSale(ctx: TestContext, saleId: number) {
  return ctx.database.db
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.saleId, saleId))
    .orderBy(asc(outboxEmails.id));
}

async function outboxRow(ctx: TestContext, id: number) {
  const [row] = await ctx.database.db.select().from(outboxEmails).where(eq(outboxEmails.id, id));
  if (!row) throw new Error(`outbox e-mail ${id} not found`);
  return row;
}

/**
 * Queues one more certificate e-mail of a paid sale straight in the outbox (what the payment or auto-envio does),
 * without the nudge that would send it in the background: the test decides which run sends it. Due a second ago:
 * run_after defaults to the database's now() (microseconds) while the outbox compares it with the process's clock
 * (milliseconds), so on PostgreSQL a row queued this very millisecond is often not due yet for a run started at once.
 */
async function queueQuietly(ctx: TestContext, saleId: number, dedupeKey: string) {
  const [row] = await ctx.database.db
    .insert(outboxEmails)
    .values({ kind: 'certificate', saleId, dedupeKey, runAfter: sql`now() - interval '1 second'` })
    .returning({ id: outboxEmails.id });
  if (!row) throw new Error('not queued');
  return row.id;
}

/** A lease that ran out, as one left by a process that died does: run_after moved into the past. */
async function expireLease(ctx: TestContext, id: number) {
  await ctx.database.db
    .update(outboxEmails)
    .set({ runAfter: sql`now() - interval '1 second'` })
    .where(eq(outboxEmails.id, id));
}

/** A real nodemailer SMTP mailer on the loopback server, with the app's sender (MAIL_FROM) unless told otherwise. */
const smtpMailer = (ctx: TestContext, from = ctx.config.mail.from) =>
  createMailer({ smtpUrl: smtp.url, from, outboxDir: join(env.DATA_DIR ?? '', 'outbox') });

describeOnEachDatabase(
  'Certificate e-mail delivery: at least once, with a stable Message-ID',
  (ctx) => {
    drainOutboxAfterAll(ctx);

    it('the certificate e-mail of a paid sale reaches the SMTP server with Message-ID <outbox-{id}@travesia.cl> (the domain of MAIL_FROM)', async () => {
      expect(ctx.config.mail.from).toBe('Travesía <certificados@travesia.cl>');
      const sale = await paidSale(ctx);
      await ctx.app.flushOutbox();
      const rows = await outboxRowsOfSale(ctx, sale.idVenta);
      expect(rows.map((row) => [row.status, row.dedupeKey])).toStrictEqual([
        ['sent', `certificate:auto:${sale.idVenta}`],
      ]);
      const [row] = rows;
      const mails = mailsOfSale(sale.idVenta);
      expect(mails).toHaveLength(1);
      const [mail] = mails;
      if (!row || !mail) throw new Error('no e-mail');
      expect(messageIdHeader(mail)).toBe(expectedId(row.id));
      expect(mail.parsed.messageId).toBe(expectedId(row.id));
      expect(mail.to.sort()).toStrictEqual(travellers.map((t) => t.email).sort());
    });

    it('the Message-ID takes its domain from the sender: another MAIL_FROM, another domain', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.flushOutbox();
      const id = await queueQuietly(ctx, sale.idVenta, `other-sender:${sale.idVenta}`);
      const sent = await processOutbox(ctx.database.db, smtpMailer(ctx, 'Seguros Andes <envios@andes-seguros.cl>'));
      expect(sent).toBe(1);
      const mails = mailsOfSale(sale.idVenta);
      expect(mails).toHaveLength(2);
      expect(mails[1] && messageIdHeader(mails[1])).toBe(expectedId(id, 'andes-seguros.cl'));
      expect(mails[1]?.from).toBe('envios@andes-seguros.cl');
    });

    it('a process that dies after the SMTP server accepted the e-mail, before marking it sent: once the lease expires the next run sends it again, with the SAME Message-ID; the row ends sent', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.flushOutbox(); // the automatic e-mail is out of the way
      const before = mailsOfSale(sale.idVenta).length;
      const id = await queueQuietly(ctx, sale.idVenta, `crash-test:${sale.idVenta}`);

      // The real outbox run with the real SMTP mailer; right after the server accepts, the process "dies": the
      // send never returns, so the run neither marks the e-mail sent nor failed (it holds no transaction).
      const real = smtpMailer(ctx);
      let accepted: () => void = () => {};
      const acceptedBySmtp = new Promise<void>((resolve) => {
        accepted = resolve;
      });
      const dying: Mailer = {
        destination: real.destination,
        from: real.from,
        async send(email) {
          await real.send(email);
          accepted();
          return new Promise<never>(() => {});
        },
      };
      void processOutbox(ctx.database.db, dying);
      await acceptedBySmtp;

      const first = mailsOfSale(sale.idVenta).slice(before);
      expect(first).toHaveLength(1);
      const leased = await outboxRow(ctx, id);
      expect(leased).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
      expect(leased.runAfter.getTime()).toBeGreaterThan(Date.now());

      // While the dead run's lease lasts, no other run takes the e-mail.
      expect(await ctx.app.flushOutbox()).toBe(0);
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(1);

      // The lease expires: the next run (the app's own, as the worker's timer would start it) sends it again.
      await expireLease(ctx, id);
      expect(await ctx.app.flushOutbox()).toBe(1);
      const copies = mailsOfSale(sale.idVenta).slice(before);
      expect(copies).toHaveLength(2);
      const ids = copies.map(messageIdHeader);
      expect(ids).toStrictEqual([expectedId(id), expectedId(id)]);
      expect(copies.map((m) => m.parsed.messageId)).toStrictEqual([expectedId(id), expectedId(id)]);
      expect(copies[1]?.parsed.subject).toBe(copies[0]?.parsed.subject);
      expect(copies[1]?.to.sort()).toStrictEqual(copies[0]?.to.sort());

      const done = await outboxRow(ctx, id);
      expect(done).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
      expect(done.sentAt).toBeInstanceOf(Date);
      // Sent for good: further runs send nothing more.
      expect(await ctx.app.flushOutbox()).toBe(0);
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(2);
    });

    it('a send whose success never reaches the run (the SMTP reply is lost after the server accepted) is retried with the SAME Message-ID', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.flushOutbox();
      const before = mailsOfSale(sale.idVenta).length;
      const id = await queueQuietly(ctx, sale.idVenta, `lost-reply:${sale.idVenta}`);
      const real = smtpMailer(ctx);
      const lostReply: Mailer = {
        destination: real.destination,
        from: real.from,
        async send(email) {
          await real.send(email);
          throw Object.assign(new Error('Connection closed unexpectedly'), { code: 'ECONNECTION' });
        },
      };
      expect(await processOutbox(ctx.database.db, lostReply)).toBe(0);
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(1);
      const failed = await outboxRow(ctx, id);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
      expect(failed.runAfter.getTime()).toBeGreaterThan(Date.now());

      await expireLease(ctx, id);
      expect(await ctx.app.flushOutbox()).toBe(1);
      const copies = mailsOfSale(sale.idVenta).slice(before);
      expect(copies.map(messageIdHeader)).toStrictEqual([expectedId(id), expectedId(id)]);
      expect(await outboxRow(ctx, id)).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    });

    it('e-mails of different sales carry different Message-IDs, and a resend on request (auto-envio) is a new message with its own', async () => {
      const one = await paidSale(ctx);
      const two = await paidSale(ctx);
      await ctx.app.flushOutbox();
      const [mailOne] = mailsOfSale(one.idVenta);
      const [mailTwo] = mailsOfSale(two.idVenta);
      if (!mailOne || !mailTwo) throw new Error('no e-mail');
      const [rowOne] = await outboxRowsOfSale(ctx, one.idVenta);
      const [rowTwo] = await outboxRowsOfSale(ctx, two.idVenta);
      if (!rowOne || !rowTwo) throw new Error('no outbox row');
      expect(rowOne.id).not.toBe(rowTwo.id);
      expect(messageIdHeader(mailOne)).toBe(expectedId(rowOne.id));
      expect(messageIdHeader(mailTwo)).toBe(expectedId(rowTwo.id));
      expect(messageIdHeader(mailOne)).not.toBe(messageIdHeader(mailTwo));

      const resend = await call(ctx.app, {
        method: 'POST',
        url: `/api/quotations/${one.quotationId}/auto-envio`,
        payload: { type: 0, canal: 'WEB' },
      });
      expect(resend.status, resend.text).toBe(202);
      await ctx.app.flushOutbox();
      const [manual] = await ctx.database.db
        .select()
        .from(outboxEmails)
        .where(and(eq(outboxEmails.saleId, one.idVenta), sql`${outboxEmails.dedupeKey} like 'certificate:manual:%'`));
      if (!manual) throw new Error('the resend was not queued');
      const mails = mailsOfSale(one.idVenta);
      expect(mails).toHaveLength(2);
      expect(mails.map(messageIdHeader)).toStrictEqual([expectedId(rowOne.id), expectedId(manual.id)]);
      expect(manual.id).not.toBe(rowOne.id);
    });
  },
  env,
);
