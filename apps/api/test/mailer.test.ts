import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMailer, smtpPool, smtpTimeouts } from '#app/integrations/mail/mailer.ts';
import { startFakeSmtp } from './support/smtp.ts';

describe('the SMTP mailer', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives nodemailer bounded waits: 30 s to connect, 30 s for the greeting, 60 s on a silent socket', async () => {
    const makeTransport = nodemailer.createTransport.bind(nodemailer);
    const createTransport = vi.spyOn(nodemailer, 'createTransport').mockImplementation((options) => {
      const transport = makeTransport(options as never);
      // Nothing leaves: the message is handed over and that is all.
      vi.spyOn(transport, 'sendMail').mockResolvedValue({ messageId: '<test@example.cl>' } as never);
      return transport as never;
    });
    const mailer = createMailer({ smtpUrl: 'smtp://mail.example.cl:2525', from: 'a@example.cl', outboxDir: '/tmp/x' });
    expect(mailer.destination).toBe('smtp://mail.example.cl:2525');
    // The transport (and nodemailer) come with the first e-mail, not with the mailer.
    expect(createTransport).not.toHaveBeenCalled();
    const email = { to: ['b@example.cl'], subject: 'Hola', text: 'Hola', html: '<p>Hola</p>', attachments: [] };
    expect(await mailer.send(email)).toStrictEqual({ messageId: '<test@example.cl>' });
    await mailer.send(email);
    expect(smtpTimeouts).toStrictEqual({ connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    expect(createTransport).toHaveBeenCalledTimes(1);
    expect(createTransport).toHaveBeenCalledWith({
      url: 'smtp://mail.example.cl:2525',
      pool: true,
      ...smtpPool,
      ...smtpTimeouts,
    });
    const transport = createTransport.mock.results[0]?.value as { options: Record<string, unknown> };
    expect(transport.options).toMatchObject({ host: 'mail.example.cl', port: 2525, ...smtpTimeouts });
    await mailer.close();
  });

  it('sends one message after another over one kept connection, replaces a connection the server dropped, and QUITs on close', async () => {
    const server = await startFakeSmtp();
    const mailer = createMailer({ smtpUrl: server.url, from: 'a@example.cl', outboxDir: '/tmp/x' });
    const email = (n: number) => ({
      to: ['b@example.cl'],
      subject: `Mensaje ${n}`,
      text: 'Hola',
      html: '<p>Hola</p>',
      attachments: [],
    });
    try {
      for (let n = 1; n <= 5; n += 1) await mailer.send(email(n));
      expect(server.received.map((mail) => mail.parsed.subject)).toStrictEqual(
        [1, 2, 3, 4, 5].map((n) => `Mensaje ${n}`),
      );
      expect(server.connections()).toBe(1);
      // The server ends every session (as one restarting does): the next e-mail goes out on a new connection.
      server.dropSessions();
      await expect.poll(() => server.openSessions()).toBe(0);
      await mailer.send(email(6));
      expect(server.received).toHaveLength(6);
      expect(server.connections()).toBe(2);
      await mailer.close();
      await expect.poll(() => server.openSessions()).toBe(0);
    } finally {
      await mailer.close();
      await server.close();
    }
  });
});
