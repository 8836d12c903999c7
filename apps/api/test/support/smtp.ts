import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

export type ReceivedMail = { from: string; to: string[]; raw: Buffer; parsed: ParsedMail };

export type FakeSmtp = {
  /** smtp://127.0.0.1:port — what SMTP_URL is set to. */
  readonly url: string;
  readonly received: ReceivedMail[];
  /** How many connections clients opened so far. */
  connections(): number;
  /** How many sessions are open now. */
  openSessions(): number;
  /** Ends every open session from the server's side (421, then the socket closes), as a server restarting does. */
  dropSessions(): void;
  close(): Promise<void>;
};

const maxMessageBytes = 5 * 1024 * 1024;

/**
 * A real SMTP server (the smtp-server package) on loopback: no TLS, no authentication needed; with
 * `rejectRecipients` it refuses every recipient (550, quoting the address). Every message it
 * accepts is parsed (mailparser) before the server answers 250, so a message the mailer sent is already here.
 */
export async function startFakeSmtp(options: { rejectRecipients?: boolean } = {}): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // smtp-server looks the client's address up in reverse DNS on every connection: ~100 ms each here, where no DNS
    // answers, which made every e-mail a test sends cost that much (nodemailer opens one connection per message).
    disableReverseLookup: true,
    size: maxMessageBytes,
    maxClients: 20,
    // As real servers do, a rejection quotes the address it refuses.
    onRcptTo(address, _session, callback) {
      if (!options.rejectRecipients) return callback();
      const error = Object.assign(new Error(`<${address.address}>: Recipient address rejected: User unknown`), {
        responseCode: 550,
      });
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections: () => connections,
    openSessions: () => server.connections.size,
    dropSessions() {
      for (const connection of server.connections) connection.close();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A fake SMTP server for a whole test file, listening before the suites' beforeAll reads `env.SMTP_URL` (call it at
 * the top of the file, before describeOnEachDatabase) and closed after them. Both database runs share it.
 */
export function useFakeSmtp(env: NodeJS.ProcessEnv) {
  let server: FakeSmtp | undefined;
  beforeAll(async () => {
    server = await startFakeSmtp();
    env.SMTP_URL = server.url;
  });
  afterAll(async () => {
    await server?.close();
  });
  const started = () => {
    if (!server) throw new Error('the fake SMTP server is not listening yet');
    return server;
  };
  return {
    /** The messages it accepted about one sale (sale ids are random, so runs sharing the server never mix). */
    mailsOfSale: (saleId: number) => started().received.filter((m) => m.parsed.subject?.includes(`venta N° ${saleId}`)),
    /** The messages it accepted for one address. */
    mailsTo: (address: string) => started().received.filter((m) => m.to.includes(address)),
    /** The messages whose subject names this (a refund request's number). */
    mailsAbout: (text: string) => started().received.filter((m) => m.parsed.subject?.includes(text)),
    /** Every message it accepted. */
    received: () => started().received,
  };
}
