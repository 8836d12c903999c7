import { DrizzleQueryError } from 'drizzle-orm';

/**
 * What of an unexpected error may reach the logs. Never its message: a failed query quotes its parameters (RUTs,
 * e-mails, phones) and an SMTP rejection quotes addresses.
 */
export type LoggableError = {
  /** The error's class name (`DrizzleQueryError`, `TypeError`…). */
  type: string;
  /** Its own code (a SQLSTATE, `ECONNREFUSED`, `EENVELOPE`, an SMTP response code…), when it has one. */
  code?: string | number;
  /** The code of its cause: a DrizzleQueryError carries the driver's SQLSTATE there. */
  causeCode?: string | number;
  /** The stack frames only (no message line), for errors that are not database errors. */
  stack?: string;
};

type ErrorLike = { name?: unknown; code?: unknown; cause?: unknown; stack?: unknown; severity?: unknown };

const asErrorLike = (value: unknown): ErrorLike | undefined =>
  typeof value === 'object' && value !== null ? (value as ErrorLike) : undefined;

/** A code is logged only when it looks like one: short, no spaces (never a message in disguise). */
function safeCode(value: unknown): string | number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^[\w.-]{1,32}$/.test(value)) return value;
  return undefined;
}

/** A query that failed, or the driver's error behind it (pg and PGlite both answer `DatabaseError` with a severity). */
export function isDatabaseError(error: unknown, depth = 0): boolean {
  if (error instanceof DrizzleQueryError) return true;
  const candidate = asErrorLike(error);
  if (!candidate) return false;
  if (candidate.name === 'DrizzleQueryError' || candidate.name === 'DatabaseError') return true;
  if (typeof candidate.severity === 'string' && typeof candidate.code === 'string') return true;
  return depth < 3 && candidate.cause !== undefined && isDatabaseError(candidate.cause, depth + 1);
}

/** The `at …` lines of a stack: its first lines are the message, which may quote personal data. */
function framesOnly(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line));
  return frames.length > 0 ? frames.join('\n') : undefined;
}

/** The safe fields of an error, for a log line: name, code, cause's code, and (not for the database) the frames. */
export function loggableError(error: unknown): LoggableError {
  const candidate = asErrorLike(error);
  // DrizzleQueryError keeps Error's name: its class says more.
  const className = error instanceof Error ? error.constructor.name : undefined;
  const ownName = candidate && typeof candidate.name === 'string' ? candidate.name : typeof error;
  const name = ownName === 'Error' && className ? className : ownName;
  const loggable: LoggableError = { type: /^[\w$.-]{1,64}$/.test(name) ? name : 'Error' };
  const code = safeCode(candidate?.code);
  if (code !== undefined) loggable.code = code;
  const causeCode = safeCode(asErrorLike(candidate?.cause)?.code);
  if (causeCode !== undefined) loggable.causeCode = causeCode;
  if (!isDatabaseError(error)) {
    const stack = framesOnly(candidate?.stack);
    if (stack) loggable.stack = stack;
  }
  return loggable;
}
