import type { AppLoadContext } from 'react-router';
import type { ApiError, ErrorBody } from './contract.ts';

declare module 'react-router' {
  interface AppLoadContext {
    /** Given by the API process that serves the console (apps/api/src/backoffice-web.ts): reaches the API in-process. */
    apiFetch?: typeof fetch;
    /** This page's Content-Security-Policy nonce, for the inline scripts React Router writes (entry.server.tsx). */
    cspNonce?: string;
  }
}

/**
 * The operator's session cookie: `__Host-` in production (Secure), the plain name on http://localhost
 * (notes/backoffice-contract.md).
 */
export const operatorCookieNames = ['__Host-travesia_operator', 'travesia_operator'] as const;

/**
 * The operator's session cookie out of the browser's Cookie header, alone: whatever else the browser sends to this
 * origin (the storefront's cookies) never reaches the API from a console page.
 */
export function operatorCookie(header: string | null): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => operatorCookieNames.some((name) => part.startsWith(`${name}=`)));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

export type ApiAnswer<T> =
  | { ok: true; status: number; data: T; headers: Headers }
  | { ok: false; status: number; error: ApiError; headers: Headers };

export const unreachableMessage = 'No pudimos comunicarnos con el servidor. Intenta de nuevo en un momento.';

/** What a refusal means in Spanish, by its status, when the API gives no Spanish `message` (§8's detail is English). */
export function statusMessage(status: number): string {
  if (status === 400 || status === 422) return 'Revisa los datos marcados.';
  if (status === 401) return 'Tu sesión no es válida o venció. Ingresa de nuevo.';
  if (status === 403)
    return 'No se pudo hacer: tu rol no lo permite o el formulario venció. Recarga la página e intenta de nuevo.';
  if (status === 404) return 'No encontramos lo que buscas.';
  if (status === 409)
    return 'Alguien cambió esto al mismo tiempo. Recarga la página y revisa antes de intentar de nuevo.';
  if (status === 429) return 'Demasiados intentos.';
  if (status >= 500) return unreachableMessage;
  return 'La solicitud no se pudo completar.';
}

/**
 * A refused save of a version-checked form («Códigos de descuento», «Adicionales»): each field's message by the API's
 * field name, and what another operator's save changed (the 409's `stale` errors, one line a field); the sentence is
 * `staleMessage` then, else the API's.
 */
export function refusedSave(error: ApiError, staleMessage: string) {
  const errors: Record<string, string> = {};
  const changes: string[] = [];
  for (const item of error.errors) {
    if (item.code === 'stale') changes.push(item.message);
    else if (item.field) errors[item.field] = item.message;
  }
  return { message: changes.length > 0 ? staleMessage : error.message, errors, changes };
}

/** A refusal's body as the console shows it. */
export function apiErrorOf(status: number, body: unknown): ApiError {
  const given = (body && typeof body === 'object' ? body : {}) as ErrorBody;
  const errors = Array.isArray(given.errors)
    ? given.errors.filter((item) => item && typeof item.message === 'string')
    : [];
  // A conflict names its field (the e-mail taken, the last administrator, a stale version): its sentence says more
  // than the status's.
  const conflict = status === 409 ? errors[0]?.message : undefined;
  const message =
    typeof given.message === 'string' && given.message.trim() ? given.message : (conflict ?? statusMessage(status));
  return { message, errors };
}

type CallOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** The CSRF token the form carried (from GET /me): every state-changing call sends it as X-CSRF-Token. */
  csrfToken?: string;
  /** A file sent as the body itself (the console's uploads: a plan's image or conditions), instead of JSON. */
  file?: Blob;
};

/**
 * Calls the console's API (/api/backoffice + `path`) for the page being rendered: in-process through the load
 * context's `apiFetch` (served by the API process), or over HTTP to API_ORIGIN under `npm run dev`. The browser's
 * operator cookie, User-Agent and Origin go along, so the API sees the operator, lists the session's device and
 * checks the Origin of a form's post as if the browser had called it.
 */
export async function callApi<T>(
  context: AppLoadContext,
  request: Request,
  path: string,
  { method = 'GET', body, csrfToken, file }: CallOptions = {},
): Promise<ApiAnswer<T>> {
  const headers = new Headers({ accept: 'application/json' });
  const cookie = operatorCookie(request.headers.get('cookie'));
  if (cookie) headers.set('cookie', cookie);
  const userAgent = request.headers.get('user-agent');
  if (userAgent) headers.set('user-agent', userAgent);
  if (method !== 'GET') {
    const origin = request.headers.get('origin');
    if (origin) headers.set('origin', origin);
    if (csrfToken) headers.set('x-csrf-token', csrfToken);
  }
  if (body !== undefined) headers.set('content-type', 'application/json');
  if (file) headers.set('content-type', 'application/octet-stream');
  const apiFetch = context.apiFetch ?? fetch;
  const base = context.apiFetch ? 'http://localhost' : (process.env.API_ORIGIN ?? 'http://localhost:3000');
  let response: Response;
  try {
    response = await apiFetch(`${base}/api/backoffice${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(file ? { body: file } : {}),
    });
  } catch {
    return { ok: false, status: 503, error: apiErrorOf(503, undefined), headers: new Headers() };
  }
  const text = response.status === 204 ? '' : await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return { ok: true, status: response.status, data: parsed as T, headers: response.headers };
  const error = apiErrorOf(response.status, parsed);
  return { ok: false, status: response.status, error, headers: response.headers };
}

/** The Set-Cookie headers of an API answer, to pass on to the browser (the session cookie, its clearing). */
export function relayedCookies(headers: Headers): Headers {
  const relayed = new Headers();
  for (const cookie of headers.getSetCookie()) relayed.append('set-cookie', cookie);
  return relayed;
}

/** The message of one field of a §8 body, if the API named it. */
export function fieldError(error: ApiError | undefined, field: string): string | undefined {
  return error?.errors.find((item) => item.field === field)?.message;
}

/** How long to wait before trying again, in Spanish, from a 429's Retry-After (seconds). */
export function retryAfterText(headers: Headers): string | undefined {
  const seconds = Number(headers.get('retry-after'));
  if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
  const minutes = Math.ceil(seconds / 60);
  return seconds < 60 ? `Intenta de nuevo en ${seconds} segundos.` : `Intenta de nuevo en ${minutes} minutos.`;
}
