/**
 * Whether a failure means "the database cannot serve right now" (gone, unreachable, frozen, shutting down) rather
 * than a fault of this request: those answer 503 with Retry-After, and the pool replaces the lost connections.
 */
export type UnavailableReason =
  | 'unreachable'
  | 'connection-lost'
  | 'connect-timeout'
  | 'query-timeout'
  | 'statement-timeout'
  | 'shutting-down'
  | 'too-many-connections';

/** node-postgres and pg-pool say these in fixed words (no data in them), with no code. */
const driverMessages: Record<string, UnavailableReason> = {
  'Connection terminated unexpectedly': 'connection-lost',
  'Connection terminated': 'connection-lost',
  'Client has encountered a connection error and is not queryable': 'connection-lost',
  'Client was closed and is not queryable': 'connection-lost',
  'Connection terminated due to connection timeout': 'connect-timeout',
  'timeout exceeded when trying to connect': 'connect-timeout',
  'Query read timeout': 'query-timeout',
};

/** Socket errors of Node (on connect or mid-query). */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server that cannot serve now (class 08: connection exception). */
function sqlStateReason(code: string): UnavailableReason | undefined {
  if (code.startsWith('08')) return 'connection-lost';
  if (code === '57014') return 'statement-timeout'; // query_canceled: statement_timeout (or an operator's cancel)
  if (code === '25P03') return 'connection-lost'; // idle_in_transaction_session_timeout closed the session
  if (code === '57P01' || code === '57P02' || code === '57P03') return 'shutting-down';
  if (code === '53300') return 'too-many-connections';
  return undefined;
}

type ErrorLike = { message?: unknown; code?: unknown; cause?: unknown };

/** The reason, when `error` (or its cause: drizzle wraps the driver's error) says the database is unavailable. */
export function databaseUnavailable(error: unknown): UnavailableReason | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { message, code, cause } = current as ErrorLike;
    if (typeof code === 'string') {
      if (socketCodes.has(code)) return 'unreachable';
      const reason = /^[0-9A-Z]{5}$/.test(code) ? sqlStateReason(code) : undefined;
      if (reason) return reason;
    }
    if (typeof message === 'string' && Object.hasOwn(driverMessages, message)) return driverMessages[message];
    current = cause;
  }
  return undefined;
}
