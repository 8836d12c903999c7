import { describe, expect, it } from 'vitest';
import { contractApi, pageRequest } from '#app/test/fake-api.ts';
import {
  callApi,
  fieldError,
  operatorCookie,
  relayedCookies,
  retryAfterText,
  statusMessage,
  unreachableMessage,
} from './api.server.ts';

describe('operatorCookie', () => {
  it('keeps only the operator session cookie, never the storefront cookies', () => {
    expect(operatorCookie('travesia_quote=abc; travesia_operator=s1; other=2')).toBe('travesia_operator=s1');
    expect(operatorCookie('__Host-travesia_operator=s2')).toBe('__Host-travesia_operator=s2');
    expect(operatorCookie('travesia_quote=abc')).toBeUndefined();
    expect(operatorCookie(null)).toBeUndefined();
  });
});

describe('callApi', () => {
  it('calls /api/backoffice with the operator cookie, the user agent, and on a post the CSRF token and Origin', async () => {
    const { context, calls } = contractApi({ 'POST /operators': { status: 201, body: { ok: 1 } } });
    const request = pageRequest('/operadores', { method: 'POST', headers: { origin: 'http://localhost' } });
    const answer = await callApi(context, request, '/operators', { method: 'POST', csrfToken: 't0k', body: { a: 1 } });
    expect(answer).toMatchObject({ ok: true, status: 201, data: { ok: 1 } });
    const [call] = calls;
    expect(call?.headers.get('cookie')).toBe('travesia_operator=s3cr3t');
    expect(call?.headers.get('user-agent')).toBe('Prueba/1.0');
    expect(call?.headers.get('x-csrf-token')).toBe('t0k');
    expect(call?.headers.get('origin')).toBe('http://localhost');
    expect(call?.body).toEqual({ a: 1 });
  });

  it('gives the §8 body of a refusal', async () => {
    const body = {
      message: 'Datos inválidos',
      errors: [{ field: 'email', message: 'Correo inválido' }],
      requestId: 'r',
    };
    const { context } = contractApi({ 'GET /x': { status: 400, body } });
    const answer = await callApi(context, pageRequest('/'), '/x');
    expect(answer.ok).toBe(false);
    if (!answer.ok) {
      expect(answer.error.message).toBe('Datos inválidos');
      expect(fieldError(answer.error, 'email')).toBe('Correo inválido');
    }
  });

  it('reads a §8 body (English detail) as a Spanish sentence by its status, keeping the fields’ messages', async () => {
    const body = {
      status: 403,
      detail: 'Forbidden',
      instance: '/api/backoffice/operators/op_1',
      errors: [{ field: 'roles', code: 'invalid', message: 'Elige al menos un rol.' }],
    };
    const { context } = contractApi({ 'PATCH /operators/op_1': { status: 403, body } });
    const answer = await callApi(context, pageRequest('/'), '/operators/op_1', { method: 'PATCH', csrfToken: 'c' });
    expect(answer).toMatchObject({ ok: false, status: 403, error: { message: statusMessage(403) } });
    if (!answer.ok) expect(fieldError(answer.error, 'roles')).toBe('Elige al menos un rol.');
  });

  it('says a conflict by its field’s message (the e-mail taken, the last administrator), else by its status', async () => {
    const taken = {
      status: 409,
      detail: 'Ya existe un operador con ese correo.',
      instance: '/api/backoffice/operators',
      errors: [{ field: 'email', code: 'duplicate', message: 'Ya existe un operador con ese correo.' }],
    };
    const { context } = contractApi({
      'POST /operators': { status: 409, body: taken },
      'PATCH /operators/op_1': { status: 409, body: { status: 409, detail: 'Conflict', instance: '/x', errors: [] } },
    });
    const answer = await callApi(context, pageRequest('/'), '/operators', { method: 'POST', csrfToken: 'c' });
    expect(answer).toMatchObject({
      ok: false,
      status: 409,
      error: { message: 'Ya existe un operador con ese correo.' },
    });
    const bare = await callApi(context, pageRequest('/'), '/operators/op_1', { method: 'PATCH', csrfToken: 'c' });
    expect(bare).toMatchObject({ ok: false, status: 409, error: { message: statusMessage(409) } });
  });

  it('says the server could not be reached when the call fails', async () => {
    const context = { apiFetch: () => Promise.reject(new Error('down')) } as never;
    const answer = await callApi(context, pageRequest('/'), '/me');
    expect(answer).toMatchObject({ ok: false, status: 503, error: { message: unreachableMessage } });
  });
});

describe('answers passed on', () => {
  it('relays every Set-Cookie and reads Retry-After in words', () => {
    const headers = new Headers();
    headers.append('set-cookie', 'travesia_operator=a; Path=/; HttpOnly');
    headers.append('set-cookie', 'other=b');
    expect(relayedCookies(headers).getSetCookie()).toHaveLength(2);
    expect(retryAfterText(new Headers({ 'retry-after': '30' }))).toBe('Intenta de nuevo en 30 segundos.');
    expect(retryAfterText(new Headers({ 'retry-after': '600' }))).toBe('Intenta de nuevo en 10 minutos.');
    expect(retryAfterText(new Headers())).toBeUndefined();
  });
});
