import type { AppLoadContext } from 'react-router';
import type { Me, Role } from '#app/lib/contract.ts';

/** One call the console made to the API, as the API would receive it. */
export type RecordedCall = { method: string; path: string; headers: Headers; body: unknown };

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/**
 * A load context whose `apiFetch` answers from `answers` ("METHOD /path" → answer, the path after /api/backoffice,
 * query included), recording every call; anything else answers 404 like an API without the route. For tests only:
 * the product always gets the real API in-process (apps/api/src/backoffice-web.ts).
 */
export function contractApi(answers: Record<string, Answer | ((call: RecordedCall) => Answer)>) {
  const calls: RecordedCall[] = [];
  const apiFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api\/backoffice/, '') + url.search;
    const text = request.body ? await request.text() : '';
    // A JSON body parsed; a file (the uploads' octet-stream) kept as its text.
    const json = request.headers.get('content-type') === 'application/json';
    const call = {
      method: request.method,
      path,
      headers: request.headers,
      body: text && json ? JSON.parse(text) : text || undefined,
    };
    calls.push(call);
    const found = answers[`${request.method} ${path}`];
    const answer = typeof found === 'function' ? found(call) : found;
    if (!answer) {
      return Response.json({ message: 'No encontramos lo que buscas.', requestId: 'r1' }, { status: 404 });
    }
    const headers = new Headers(answer.headers);
    if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
    headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
  };
  const context = { apiFetch, cspNonce: 'nonce' } as AppLoadContext;
  return { context, calls };
}

/** GET /me's answer for an operator with `roles`. */
export function meAnswer(roles: Role[] = ['admin'], name = 'Ana Pérez'): { status: 200; body: Me } {
  return {
    status: 200,
    body: {
      operator: { id: 'op_1', email: 'ana@travesia.cl', name, roles, state: 'active' },
      csrfToken: 'csrf-123',
      session: { id: 'ses_1', createdAt: '2026-11-28T10:00:00.000Z', expiresAt: '2026-11-28T22:00:00.000Z' },
    },
  };
}

/** A browser's request to a console page, with the operator's cookie and a storefront cookie beside it. */
export function pageRequest(path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (!headers.has('cookie')) headers.set('cookie', 'travesia_operator=s3cr3t; travesia_quote=abc');
  headers.set('user-agent', 'Prueba/1.0');
  return new Request(`http://localhost/backoffice${path}`, { ...init, headers });
}

/** A form post to a console page, as a browser without scripts sends it. */
export function formPost(path: string, fields: Record<string, string | string[]>): Request {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return pageRequest(path, {
    method: 'POST',
    body,
    headers: { origin: 'http://localhost', 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** What a loader or action threw (a redirect, a 403): the Response, or the route error data React Router carries. */
export async function thrownBy(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (thrown) {
    return thrown;
  }
  throw new Error('expected a throw');
}

/** A loader's or action's answer, whether plain data or data(…) with a status and headers. */
export function answerOf<T>(result: unknown): { data: T; status: number; headers: Headers } {
  if (result && typeof result === 'object' && (result as { type?: string }).type === 'DataWithResponseInit') {
    const wrapped = result as { data: T; init: ResponseInit | null };
    return {
      data: wrapped.data,
      status: wrapped.init?.status ?? 200,
      headers: new Headers(wrapped.init?.headers),
    };
  }
  return { data: result as T, status: 200, headers: new Headers() };
}
