import { errorMessages } from '@travesia/domain/messages';
import { type ProcessRequestBody, processRequest } from './processes.ts';

/**
 * What a client got from a server process while its database went away (database-outage.test.ts, scale-out.test.ts):
 * either a success or the spec §8 body of a server error — never a hang, a dropped connection, a 500, a stack trace
 * or SQL.
 */
export type Outcome = {
  step: string;
  status: number;
  ms: number;
  contentType: string;
  retryAfter: string | null;
  location: string | null;
  text: string;
};

/** Where a request left: either an answer, or the fetch failure (a hang, a dropped connection). */
export type Sent = { outcome: Outcome } | { failure: string };

const stackFrame = /\bat (?:async )?(?:[^\s()]+ \()?(?:file:|node:|\/)[^\s()]*:\d+:\d+\)?/;
const sqlText = /\bselect\b[^"]*"|\binsert into\b|\bupdate\b[^"]*"|\bfailed query\b|\brelation "|\bparams:/i;

/** Why an answer is neither a success nor a spec §8 server-error body (undefined: it is one of those). */
export function whatIsWrong(outcome: Outcome): string | undefined {
  if (outcome.status < 400) return undefined;
  if (outcome.status < 500) return 'a 4xx for valid input';
  if (!outcome.contentType.startsWith('application/json')) return `not JSON (${outcome.contentType})`;
  let body: unknown;
  try {
    body = JSON.parse(outcome.text);
  } catch {
    return 'unparseable JSON';
  }
  const fields = typeof body === 'object' && body !== null ? Object.keys(body).sort().join() : '';
  if (fields !== 'detail,errors,instance,requestId,status') return `not the §8 body (${fields})`;
  const { status, detail, errors } = body as { status: unknown; detail: unknown; errors: unknown };
  if (status !== outcome.status || !Array.isArray(errors)) return 'a malformed §8 body';
  // A database that went away is a 503 (a gateway that could not start, a 502): never an unclassified 500.
  if (outcome.status === 500) return 'a 500: a database failure not recognised as one';
  if (detail !== errorMessages.unexpected) return `not the catalogue's message (${String(detail)})`;
  if (stackFrame.test(outcome.text) || sqlText.test(outcome.text)) return 'a stack trace or SQL in the body';
  if (outcome.status === 503 && !/^\d+$/.test(outcome.retryAfter ?? '')) return 'a 503 without Retry-After';
  return undefined;
}

/** One HTTP request to `baseUrl` (a server process, or the balancer in front of several); never throws. */
export async function sendRequest(
  baseUrl: string,
  request: {
    step: string;
    method: string;
    path: string;
    body?: ProcessRequestBody;
    timeoutMs: number;
    headers?: Record<string, string>;
  },
): Promise<Sent> {
  const { step, method, path, body, timeoutMs } = request;
  const started = performance.now();
  try {
    const init = processRequest(method, body, timeoutMs);
    init.headers = { ...(init.headers as Record<string, string>), ...request.headers };
    const response = await fetch(new URL(path, baseUrl), init);
    const text = await response.text();
    return {
      outcome: {
        step,
        status: response.status,
        ms: performance.now() - started,
        contentType: response.headers.get('content-type') ?? '',
        retryAfter: response.headers.get('retry-after'),
        location: response.headers.get('location'),
        text,
      },
    };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { failure: `${method} ${step} after ${Math.round(performance.now() - started)} ms: ${reason}` };
  }
}
