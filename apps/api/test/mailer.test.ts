import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMailer, smtpTimeouts } from '#app/integrations/mail/mailer.ts';

describe('the SMTP mailer', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('gives nodemailer bounded waits: 30 s to connect, 30 s for the greeting, 60 s on a silent socket', () => {
    const createTransport = vi.spyOn(nodemailer, 'createTransport');
    const mailer = createMailer({ smtpUrl: 'smtp://mail.example.cl:2525', from: 'a@example.cl', outboxDir: '/tmp/x' });
    expect(mailer.destination).toBe('smtp://mail.example.cl:2525');
    expect(smtpTimeouts).toStrictEqual({ connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });
    expect(createTransport).toHaveBeenCalledWith({ url: 'smtp://mail.example.cl:2525', ...smtpTimeouts });
    const transport = createTransport.mock.results[0]?.value as { options: Record<string, unknown> };
    expect(transport.options).toMatchObject({ host: 'mail.example.cl', port: 2525, ...smtpTimeouts });
  });
});
