import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { Database } from '#app/db/client.ts';
import { jobs } from '#app/db/schema.ts';
import { createMailer, type Mailer } from '#app/integrations/mail/mailer.ts';
import { certificateEmailJob, certificateEmailKind } from '#app/modules/certificates/service.ts';
import { createJobQueue, enqueue } from '#app/modules/jobs/service.ts';
import { drainJobsAfterAll, emailJobsOfSale, paidSale, travellers, useTemporaryDataDir } from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';
import { type ReceivedMail, useFakeSmtp } from './support/smtp.ts';

/**
 * The certificate e-mail is delivered AT LEAST ONCE: the job queue marks an e-mail job done only after the SMTP server
 * accepted it, so a process that dies in between sends it again once its lease expires. What keeps the duplicate
 * harmless is the Message-ID: every attempt of one queued e-mail carries the same `<outbox-{job id}@{MAIL_FROM's
 * domain}>`, so a mail client shows one message; different e-mails (other sales, a resend on request) never share it.
 */

const env: NodeJS.ProcessEnv = {};
useTemporaryDataDir(env);
const { mailsOfSale } = useFakeSmtp(env);

/** The Message-ID header exactly as it travelled (the raw message), not as a parser may normalise it. */
function messageIdHeader(mail: ReceivedMail): string | undefined {
  const head = mail.raw.toString('latin1').split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  return /^Message-ID:\s*(.*?)\s*$/im.exec(unfolded)?.[1];
}

const expectedId = (emailId: number, domain = 'travesia.cl') => `<outbox-${emailId}@${domain}>`;
/** The Message-ID of the e-mail one job sends to a traveller other than the buyer (their own certificate). */
const travellerId = (emailId: number, seq: number, domain = 'travesia.cl') => `<outbox-${emailId}-t${seq}@${domain}>`;
/** The buyer's e-mail of a job (the one with every certificate): its Message-ID is the job's own. */
const buyerMails = (mails: ReceivedMail[], emailId: number, domain?: string) =>
  mails.filter((mail) => messageIdHeader(mail) === expectedId(emailId, domain));

async function emailJob(ctx: TestContext, id: number) {
  const [row] = await ctx.database.db.select().from(jobs).where(eq(jobs.id, id));
  if (!row) throw new Error(`e-mail job ${id} not found`);
  return row;
}

/**
 * Queues one more certificate e-mail of a paid sale (what the payment or auto-envio does), without the nudge that
 * would send it in the background: the test decides which run sends it.
 */
async function queueQuietly(ctx: TestContext, saleId: number, dedupeKey: string) {
  expect(await enqueue(ctx.database.db, certificateEmailKind, { saleId }, dedupeKey)).toBe(true);
  const [row] = await emailJobsOfSale(ctx, saleId, dedupeKey);
  if (!row) throw new Error('not queued');
  return row.id;
}

/** A lease that ran out, as one left by a process that died does: run_after moved into the past. */
async function expireLease(ctx: TestContext, id: number) {
  await ctx.database.db.update(jobs).set({ runAfter: sql`now() - interval '1 second'` }).where(eq(jobs.id, id));
}

/** One run of the job queue with the certificate e-mail sent through `mailer` (as a worker with it would run). */
function runJobsWith(db: Database, mailer: Mailer) {
  const queue = createJobQueue(db);
  queue.register(certificateEmailKind, certificateEmailJob(db, mailer, 'http://localhost:3000'));
  return queue.run();
}

/** A real nodemailer SMTP mailer on the loopback server, with the app's sender (MAIL_FROM) unless told otherwise. */
const smtpMailer = (ctx: TestContext, from = ctx.config.mail.from) =>
  createMailer({ smtpUrl: env.SMTP_URL, from, outboxDir: join(env.DATA_DIR ?? '', 'outbox') });

describeOnEachDatabase(
  'Certificate e-mail delivery: at least once, with a stable Message-ID',
  (ctx) => {
    drainJobsAfterAll(ctx);

    it('the certificate e-mails of a paid sale reach the SMTP server: the buyer gets every certificate with Message-ID <outbox-{id}@travesia.cl> (the domain of MAIL_FROM), each other traveller their own, addressed to them alone', async () => {
      expect(ctx.config.mail.from).toBe('Travesía <certificados@travesia.cl>');
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const rows = await emailJobsOfSale(ctx, sale.idVenta);
      expect(rows.map((row) => [row.status, row.dedupeKey])).toStrictEqual([
        ['done', `certificate:auto:${sale.idVenta}`],
      ]);
      const [row] = rows;
      const mails = mailsOfSale(sale.idVenta);
      // The buyer (no quotation e-mail: the first traveller) and one e-mail to each of the two others.
      expect(mails).toHaveLength(travellers.length);
      if (!row) throw new Error('no e-mail job');
      const [mail] = buyerMails(mails, row.id);
      if (!mail) throw new Error('no buyer e-mail');
      expect(mail.parsed.messageId).toBe(expectedId(row.id));
      expect(mail.to).toStrictEqual([travellers[0]?.email]);
      expect(mail.parsed.attachments.map((a) => a.filename)).toHaveLength(travellers.length);
      for (const [index, traveller] of travellers.entries()) {
        if (index === 0) continue;
        const own = mails.filter((m) => messageIdHeader(m) === travellerId(row.id, index + 1));
        expect(own.map((m) => m.to)).toStrictEqual([[traveller.email]]);
        expect(own[0]?.parsed.attachments).toHaveLength(1);
        // Never another traveller's address on To or Cc.
        expect(own[0]?.parsed.cc).toBeUndefined();
      }
    });

    it('the Message-ID takes its domain from the sender: another MAIL_FROM, another domain', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
      const id = await queueQuietly(ctx, sale.idVenta, `other-sender:${sale.idVenta}`);
      const sent = await runJobsWith(ctx.database.db, smtpMailer(ctx, 'Seguros Andes <envios@andes-seguros.cl>'));
      expect(sent).toBe(1);
      const mails = mailsOfSale(sale.idVenta).slice(travellers.length);
      expect(mails.map(messageIdHeader)).toStrictEqual([
        expectedId(id, 'andes-seguros.cl'),
        travellerId(id, 2, 'andes-seguros.cl'),
        travellerId(id, 3, 'andes-seguros.cl'),
      ]);
      expect(mails[0]?.from).toBe('envios@andes-seguros.cl');
    });

    it('a process that dies after the SMTP server accepted the e-mail, before marking it done: once the lease expires the next run sends it again, with the SAME Message-ID; the job ends done', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs(); // the automatic e-mail is out of the way
      const before = mailsOfSale(sale.idVenta).length;
      const id = await queueQuietly(ctx, sale.idVenta, `crash-test:${sale.idVenta}`);

      // A real job run with the real SMTP mailer; right after the server accepts, the process "dies": the send
      // never returns, so the run neither marks the job done nor failed (it holds no transaction).
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
        close: () => real.close(),
      };
      void runJobsWith(ctx.database.db, dying);
      await acceptedBySmtp;

      const first = mailsOfSale(sale.idVenta).slice(before);
      expect(first).toHaveLength(1);
      const leased = await emailJob(ctx, id);
      expect(leased).toMatchObject({ status: 'pending', attempts: 1 });
      expect(leased.runAfter.getTime()).toBeGreaterThan(Date.now());

      // While the dead run's lease lasts, no other run takes the e-mail.
      expect(await ctx.app.runJobs()).toBe(0);
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(1);

      // The lease expires: the next run (the app's own, as the worker's timer would start it) sends it again.
      await expireLease(ctx, id);
      expect(await ctx.app.runJobs()).toBe(1);
      // The retried run sends the whole job again: the buyer's e-mail (same Message-ID) and each traveller's.
      const sentAfter = mailsOfSale(sale.idVenta).slice(before);
      expect(sentAfter.map(messageIdHeader)).toStrictEqual([
        expectedId(id),
        expectedId(id),
        travellerId(id, 2),
        travellerId(id, 3),
      ]);
      const copies = buyerMails(sentAfter, id);
      expect(copies).toHaveLength(2);
      expect(copies.map((m) => m.parsed.messageId)).toStrictEqual([expectedId(id), expectedId(id)]);
      expect(copies[1]?.parsed.subject).toBe(copies[0]?.parsed.subject);
      expect(copies[1]?.to.sort()).toStrictEqual(copies[0]?.to.sort());

      expect(await emailJob(ctx, id)).toMatchObject({ status: 'done', attempts: 2, lastError: null });
      // Sent for good: further runs send nothing more.
      expect(await ctx.app.runJobs()).toBe(0);
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(4);
    });

    it('a send whose success never reaches the run (the SMTP reply is lost after the server accepted) is retried with the SAME Message-ID', async () => {
      const sale = await paidSale(ctx);
      await ctx.app.runJobs();
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
        close: () => real.close(),
      };
      expect(await runJobsWith(ctx.database.db, lostReply)).toBe(0);
      expect(mailsOfSale(sale.idVenta).slice(before)).toHaveLength(1);
      const failed = await emailJob(ctx, id);
      expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
      expect(failed.runAfter.getTime()).toBeGreaterThan(Date.now());

      await expireLease(ctx, id);
      expect(await ctx.app.runJobs()).toBe(1);
      const copies = buyerMails(mailsOfSale(sale.idVenta).slice(before), id);
      expect(copies.map(messageIdHeader)).toStrictEqual([expectedId(id), expectedId(id)]);
      expect(await emailJob(ctx, id)).toMatchObject({ status: 'done', attempts: 2, lastError: null });
    });

    it('e-mails of different sales carry different Message-IDs, and a resend on request (auto-envio) is a new message with its own', async () => {
      const one = await paidSale(ctx);
      const two = await paidSale(ctx);
      await ctx.app.runJobs();
      const [mailOne] = mailsOfSale(one.idVenta);
      const [mailTwo] = mailsOfSale(two.idVenta); // the first of each sale is the buyer's
      if (!mailOne || !mailTwo) throw new Error('no e-mail');
      const [rowOne] = await emailJobsOfSale(ctx, one.idVenta);
      const [rowTwo] = await emailJobsOfSale(ctx, two.idVenta);
      if (!rowOne || !rowTwo) throw new Error('no e-mail job');
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
      await ctx.app.runJobs();
      const manual = (await emailJobsOfSale(ctx, one.idVenta)).find((row) =>
        row.dedupeKey?.startsWith('certificate:manual:'),
      );
      if (!manual) throw new Error('the resend was not queued');
      const mails = mailsOfSale(one.idVenta);
      expect(mails).toHaveLength(2 * travellers.length);
      expect(mails.map(messageIdHeader)).toStrictEqual([
        expectedId(rowOne.id),
        travellerId(rowOne.id, 2),
        travellerId(rowOne.id, 3),
        expectedId(manual.id),
        travellerId(manual.id, 2),
        travellerId(manual.id, 3),
      ]);
      expect(manual.id).not.toBe(rowOne.id);
    });
  },
  env,
);
