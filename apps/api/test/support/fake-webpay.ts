import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Webpay Plus REST v1.2 double on loopback (chile-facts): create `POST /transactions`, commit
 * `PUT /transactions/{token}`, status `GET /transactions/{token}`, refund `POST /transactions/{token}/refunds`, authenticated by the Tbk-Api-Key-Id and
 * Tbk-Api-Key-Secret headers. It records every call and lets each test choose what commit and status answer.
 */

export const webpayBasePath = '/rswebpaytransaction/api/webpay/v1.2';
/** Transbank's public integration credentials (IntegrationCommerceCodes.WEBPAY_PLUS, IntegrationApiKeys.WEBPAY). */
export const integrationCommerceCode = '597055555532';
export const integrationApiKey = '579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C';

export type WebpayCall = {
  method: string;
  path: string;
  kind: 'create' | 'commit' | 'status' | 'refund' | 'other';
  token: string | null;
  headers: IncomingMessage['headers'];
  body: unknown;
  /** The HTTP status the double answered. */
  answered: number;
};

export type CreatedTransaction = {
  token: string;
  buy_order: string;
  session_id: string;
  amount: number;
  return_url: string;
};

export type Answer = { status: number; body: unknown };
/** How commit or status answers, per transaction; called once per call, with how many calls came before. */
export type Responder = (transaction: CreatedTransaction, previousCalls: number) => Answer;

/** The commit/status body of an approved payment, as Webpay answers it. */
export function authorizedBody(transaction: CreatedTransaction, overrides: Record<string, unknown> = {}) {
  const now = new Date();
  return {
    vci: 'TSY',
    amount: transaction.amount,
    status: 'AUTHORIZED',
    buy_order: transaction.buy_order,
    session_id: transaction.session_id,
    card_detail: { card_number: '6623' },
    accounting_date: `${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`,
    transaction_date: now.toISOString(),
    authorization_code: '1213',
    payment_type_code: 'VN',
    response_code: 0,
    installments_number: 0,
    balance: 0,
    ...overrides,
  };
}

/** A payment the issuer rejected: response_code -1, status FAILED. */
export const failedBody = (transaction: CreatedTransaction) =>
  authorizedBody(transaction, { status: 'FAILED', response_code: -1, vci: 'TSN', authorization_code: '000000' });

/** A transaction aborted by the payer, as status answers it before any commit. */
export const initializedBody = (transaction: CreatedTransaction) => ({
  vci: null,
  amount: transaction.amount,
  status: 'INITIALIZED',
  buy_order: transaction.buy_order,
  session_id: transaction.session_id,
  accounting_date: null,
  transaction_date: new Date().toISOString(),
  installments_number: 0,
});

const maxBodyBytes = 16 * 1024;

export type FakeWebpay = {
  /** http://127.0.0.1:port — what WEBPAY_ENVIRONMENT is set to. */
  readonly url: string;
  /** Where create sends the browser (Webpay's payment form). */
  readonly formUrl: string;
  readonly calls: WebpayCall[];
  readonly transactions: Map<string, CreatedTransaction>;
  /** What commit answers (by default: authorized for the amount created). */
  onCommit: Responder;
  /** What status answers (by default: INITIALIZED, as for a payment never committed). */
  onStatus: Responder;
  /** What a refund answers (by default: REVERSED, as a full refund on the day). */
  onRefund: Responder;
  callsFor(token: string, kind?: WebpayCall['kind']): WebpayCall[];
  /**
   * What the double holds of a transaction: the amount it answered AUTHORIZED (commit or status) minus what its
   * refunds answered as given back (REVERSED or NULLIFIED). A refund above that balance is refused (422), as Webpay
   * refuses it, before onRefund is asked.
   */
  held(token: string): number;
  /** How long every answer waits after its call is recorded (a slow gateway: a call in flight for a while). */
  delayMs: number;
  /** Back to the default answers (calls and transactions are kept: tests tell theirs apart by token). */
  reset(): void;
  close(): Promise<void>;
};

const defaultCommit: Responder = (transaction) => ({ status: 200, body: authorizedBody(transaction) });
const defaultStatus: Responder = (transaction) => ({ status: 200, body: initializedBody(transaction) });
const defaultRefund: Responder = () => ({ status: 200, body: { type: 'REVERSED' } });

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new Error('body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown) {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Starts the double on 127.0.0.1 at a free port; it expects the given credentials (the integration ones by default). */
export async function startFakeWebpay(
  credentials: { commerceCode: string; apiKey: string } = {
    commerceCode: integrationCommerceCode,
    apiKey: integrationApiKey,
  },
): Promise<FakeWebpay> {
  const calls: WebpayCall[] = [];
  const transactions = new Map<string, CreatedTransaction>();
  const counts = new Map<string, number>();
  const captured = new Map<string, number>();
  const refunded = new Map<string, number>();
  let url = '';

  const fake: FakeWebpay = {
    get url() {
      return url;
    },
    get formUrl() {
      return `${url}/webpayserver/initTransaction`;
    },
    calls,
    transactions,
    onCommit: defaultCommit,
    onStatus: defaultStatus,
    onRefund: defaultRefund,
    callsFor: (token, kind) => calls.filter((c) => c.token === token && (kind === undefined || c.kind === kind)),
    held: (token) => (captured.get(token) ?? 0) - (refunded.get(token) ?? 0),
    delayMs: 0,
    reset() {
      fake.delayMs = 0;
      fake.onCommit = defaultCommit;
      fake.onStatus = defaultStatus;
      fake.onRefund = defaultRefund;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };

  type Handled = { kind: WebpayCall['kind']; token: string | null; received: unknown; answer: Answer };

  const handle = async (request: IncomingMessage): Promise<Handled> => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const raw = await readBody(request);
    let received: unknown = null;
    try {
      received = raw ? JSON.parse(raw) : null;
    } catch {
      return {
        kind: 'other',
        token: null,
        received: raw,
        answer: { status: 400, body: { error_message: 'Bad JSON' } },
      };
    }
    const authorized =
      request.headers['tbk-api-key-id'] === credentials.commerceCode &&
      request.headers['tbk-api-key-secret'] === credentials.apiKey;
    const refuse = (status: number, message: string): Answer => ({ status, body: { error_message: message } });

    if (request.method === 'POST' && path === `${webpayBasePath}/transactions`) {
      if (!authorized) return { kind: 'create', token: null, received, answer: refuse(401, 'Not Authorized') };
      const input = (received ?? {}) as Partial<CreatedTransaction>;
      const valid =
        typeof input.buy_order === 'string' &&
        input.buy_order.length <= 26 &&
        typeof input.session_id === 'string' &&
        input.session_id.length <= 61 &&
        typeof input.amount === 'number' &&
        Number.isInteger(input.amount) &&
        input.amount > 0 &&
        typeof input.return_url === 'string' &&
        input.return_url.length <= 255;
      if (!valid) return { kind: 'create', token: null, received, answer: refuse(422, 'Invalid create request') };
      const token = randomBytes(32).toString('hex'); // 64 characters, like Webpay's
      transactions.set(token, {
        token,
        buy_order: input.buy_order as string,
        session_id: input.session_id as string,
        amount: input.amount as number,
        return_url: input.return_url as string,
      });
      return { kind: 'create', token, received, answer: { status: 200, body: { token, url: fake.formUrl } } };
    }

    const match = path.startsWith(`${webpayBasePath}/transactions/`)
      ? path.slice(`${webpayBasePath}/transactions/`.length)
      : null;
    const refundOf = match?.endsWith('/refunds') ? match.slice(0, -'/refunds'.length) : null;
    const token = refundOf ?? (match && !match.includes('/') ? match : null);
    const kind: WebpayCall['kind'] =
      refundOf && request.method === 'POST'
        ? 'refund'
        : token && !refundOf && request.method === 'PUT'
          ? 'commit'
          : token && !refundOf && request.method === 'GET'
            ? 'status'
            : 'other';
    if (kind === 'other') return { kind, token, received, answer: refuse(404, 'Not found') };
    if (!authorized) return { kind, token, received, answer: refuse(401, 'Not Authorized') };
    const transaction = token ? transactions.get(token) : undefined;
    if (!transaction) return { kind, token, received, answer: refuse(422, 'Invalid value for parameter: token') };
    const key = `${kind}:${token}`;
    const previous = counts.get(key) ?? 0;
    counts.set(key, previous + 1);
    const asked = Number((received as { amount?: unknown } | null)?.amount);
    if (kind === 'refund' && captured.has(transaction.token) && !(asked > 0 && asked <= fake.held(transaction.token))) {
      return { kind, token, received, answer: refuse(422, 'Invalid value for parameter: amount') };
    }
    const answer = (kind === 'commit' ? fake.onCommit : kind === 'refund' ? fake.onRefund : fake.onStatus)(
      transaction,
      previous,
    );
    const body = (answer.body ?? {}) as { status?: unknown; response_code?: unknown; amount?: unknown; type?: unknown };
    if (
      kind !== 'refund' &&
      answer.status === 200 &&
      body.status === 'AUTHORIZED' &&
      body.response_code === 0 &&
      !captured.has(transaction.token)
    ) {
      captured.set(transaction.token, Number(body.amount));
    }
    if (kind === 'refund' && answer.status === 200 && (body.type === 'REVERSED' || body.type === 'NULLIFIED')) {
      refunded.set(transaction.token, (refunded.get(transaction.token) ?? 0) + asked);
    }
    return { kind, token, received, answer };
  };

  const server: Server = createServer((request, response) => {
    handle(request)
      .then(async ({ kind, token, received, answer }) => {
        calls.push({
          method: request.method ?? '',
          path: (request.url ?? '/').split('?')[0] ?? '/',
          kind,
          token,
          headers: request.headers,
          body: received,
          answered: answer.status,
        });
        if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
        send(response, answer.status, answer.body);
      })
      .catch(() => {
        if (!response.headersSent) send(response, 400, { error_message: 'Bad request' });
      });
  });
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  server.maxConnections = 100;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
