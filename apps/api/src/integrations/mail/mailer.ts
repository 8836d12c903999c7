import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import { loggableError } from '#app/lib/loggable-error.ts';
import { signalMail } from '#app/observability/signals.ts';

export type OutgoingEmail = {
  /** A stable Message-ID (`<…@domain>`) when the same e-mail may be handed over more than once. */
  messageId?: string;
  to: string[];
  /** Where replies go, when not to the sender (a visitor's message: the visitor). */
  replyTo?: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: Uint8Array; contentType: string }[];
  /** Extra header fields (List-Unsubscribe…). */
  headers?: Record<string, string>;
};

/** `<{kind}-{job id}@{sender's domain}>`: the same on every attempt of one queued e-mail, unique across e-mails. */
export function jobMessageId(kind: string, jobId: number, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'travesia.cl';
  return `<${kind}-${jobId}@${domain}>`;
}

/** What of a failed send may be logged: the SMTP response code and the error codes, never the server's text (it quotes addresses). */
export function mailFailureFields(error: unknown): Record<string, string | number | undefined> {
  const { code, causeCode } = loggableError(error);
  const responseCode = (error as { responseCode?: unknown } | null)?.responseCode;
  return { responseCode: typeof responseCode === 'number' ? responseCode : undefined, code, causeCode };
}

/** Text made safe for an e-mail's HTML part. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface Mailer {
  /** Where messages go, for logs and the README: an SMTP server, or the local catcher's folder. */
  readonly destination: string;
  /** The sender address of every message. */
  readonly from: string;
  send(email: OutgoingEmail): Promise<{ messageId: string }>;
  /** Ends the SMTP connections kept open (QUIT); a send after it opens them again. */
  close(): Promise<void>;
}

/** Milliseconds nodemailer waits to connect, for the server's greeting, and on a silent socket. */
export const smtpTimeouts = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;

/** The SMTP connections one process keeps (its jobs send one at a time) and the messages each carries before it is renewed. */
export const smtpPool = { maxConnections: 2, maxMessages: 100 } as const;

type Nodemailer = typeof import('nodemailer')['default'];

/**
 * The transport, made on the first e-mail: nodemailer is loaded then, not at start-up (a web process whose worker
 * runs elsewhere never loads it; issue #10's memory).
 */
function onFirstUse(make: (nodemailer: Nodemailer) => Transporter): {
  transport: () => Promise<Transporter>;
  close: () => Promise<void>;
} {
  let transport: Promise<Transporter> | undefined;
  return {
    transport() {
      transport ??= import('nodemailer').then((module) => make(module.default));
      return transport;
    },
    async close() {
      const made = transport;
      transport = undefined;
      (await made?.catch(() => undefined))?.close();
    },
  };
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Without it, the local catcher: the same nodemailer message,
 * written as an .eml file under DATA_DIR/outbox, which any mail client opens.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; outboxDir: string }): Mailer {
  const mailer = createTransportMailer(options);
  return {
    ...mailer,
    // Each send, sent or failed, is counted by the metrics (observability/signals.ts).
    async send(email) {
      try {
        const sent = await mailer.send(email);
        signalMail({ ok: true });
        return sent;
      } catch (error) {
        signalMail({ ok: false });
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}

function createTransportMailer(options: { smtpUrl: string | undefined; from: string; outboxDir: string }): Mailer {
  const toMessage = (email: OutgoingEmail) => ({
    ...(email.messageId ? { messageId: email.messageId } : {}),
    from: options.from,
    to: email.to,
    ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    subject: email.subject,
    ...(email.headers ? { headers: email.headers } : {}),
    text: email.text,
    html: email.html,
    attachments: email.attachments.map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.content),
      contentType: a.contentType,
    })),
  });

  if (options.smtpUrl) {
    // Bounded waits: a server that never greets or stalls mid-message fails the attempt (it is retried later)
    // instead of holding the outbox run, and the e-mail's lease, for as long as the socket stays open.
    // Pooled: the messages of a run share their connections instead of paying a connection, TLS handshake,
    // greeting and login each (a burst of sales is a burst of certificate e-mails; servers also delay their greeting
    // to catch early talkers: smtp-server by 100 ms). A connection the server dropped is replaced on the next send;
    // one idle for socketTimeout is closed.
    const smtpUrl = options.smtpUrl;
    const { transport, close } = onFirstUse((nodemailer) =>
      nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: smtpPool.maxConnections,
        maxMessages: smtpPool.maxMessages,
        connectionTimeout: smtpTimeouts.connectionTimeout,
        greetingTimeout: smtpTimeouts.greetingTimeout,
        socketTimeout: smtpTimeouts.socketTimeout,
      }),
    );
    const url = new URL(options.smtpUrl);
    return {
      destination: `smtp://${url.hostname}:${url.port || (url.protocol === 'smtps:' ? 465 : 587)}`,
      from: options.from,
      async send(email) {
        const info = await (await transport()).sendMail(toMessage(email));
        return { messageId: info.messageId };
      },
      close,
    };
  }

  const { transport, close } = onFirstUse((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    destination: options.outboxDir,
    from: options.from,
    async send(email) {
      const info = await (await transport()).sendMail(toMessage(email));
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^\w.-]/g, '')}.eml`;
      await writeFile(join(options.outboxDir, name), info.message as Buffer);
      return { messageId: info.messageId };
    },
    close,
  };
}
