import { describe, expect, it } from 'vitest';
import { auditFiltersOf, auditQuery } from '#app/features/audit.ts';
import type { ApiKey, AuditEntry } from '#app/lib/contract.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { AuditView, loader as auditLoader } from './auditoria.tsx';
import { type ApiKeysResult, ApiKeysView, action as apiKeysAction } from './claves-api.tsx';
import { SessionsView, action as sessionsAction, loader as sessionsLoader } from './sesiones.tsx';

const entries: AuditEntry[] = [
  {
    id: 'au_2',
    at: '2026-11-28T12:00:00.000Z',
    actor: { operatorId: 'op_1', apiKeyId: null, label: 'ana@travesia.cl' },
    action: 'operator.roles.changed',
    targetType: 'operator',
    targetId: 'op_2',
    ip: '203.0.113.9',
    before: { roles: ['support'] },
    after: { roles: ['finance'] },
  },
];

describe('audit trail (admin)', () => {
  it('passes the filters and the cursor to the API and links «Más» and the CSV with the same filters', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(),
      'GET /audit?actor=ana%40travesia.cl&from=2026-11-01&cursor=c1': {
        status: 200,
        body: { entries, nextCursor: 'c2' },
      },
    });
    const data = await auditLoader({
      request: pageRequest('/auditoria?actor=ana%40travesia.cl&action=&from=2026-11-01&cursor=c1'),
      context,
    } as never);
    expect(calls.at(-1)?.path).toBe('/audit?actor=ana%40travesia.cl&from=2026-11-01&cursor=c1');
    const html = renderPage(<AuditView {...data} />, '/auditoria');
    expect(html).toContain('href="/auditoria?actor=ana%40travesia.cl&amp;from=2026-11-01&amp;cursor=c2"');
    expect(html).toContain('href="/api/backoffice/audit.csv?actor=ana%40travesia.cl&amp;from=2026-11-01"');
    expect(html).toContain('operator.roles.changed');
    expect(html).toContain('ana@travesia.cl');
    expect(html).toContain('operator op_2');
    expect(html).toContain('{&quot;roles&quot;:[&quot;finance&quot;]}');
    expect(html).toContain('Volver al inicio');
  });

  it('has no «Más» on the last page and says when nothing matches', () => {
    const html = renderPage(<AuditView filters={{}} entries={[]} nextCursor={null} continued={false} />, '/auditoria');
    expect(html).not.toContain('>Más<');
    expect(html).toContain('No hay registros con estos filtros.');
  });

  it('reads only the known filters', () => {
    const filters = auditFiltersOf(new URLSearchParams('actor=a&evil=1&to=2026-11-30'));
    expect(filters).toEqual({ actor: 'a', to: '2026-11-30' });
    expect(auditQuery({})).toBe('');
  });
});

describe('API keys (admin)', () => {
  it('creates a key with roles and expiry and shows its secret once', async () => {
    const apiKey: ApiKey = { id: 'k1', name: 'refunds CLI', roles: ['finance'], expiresAt: '2027-01-31T23:59:59.000Z' };
    const { context, calls } = contractApi({
      'POST /api-keys': { status: 201, body: { apiKey, secret: 'tvk_secret' } },
    });
    const request = formPost('/claves-api', {
      intent: 'create',
      csrf: 'c',
      name: 'refunds CLI',
      roles: 'finance',
      expiresAt: '2027-01-31',
    });
    const answer = answerOf<ApiKeysResult>(await apiKeysAction({ request, context } as never));
    expect(calls[0]?.body).toEqual({ name: 'refunds CLI', roles: ['finance'], expiresAt: '2027-01-31T23:59:59.000Z' });
    const html = renderPage(<ApiKeysView apiKeys={[apiKey]} csrfToken="c" result={answer.data} />);
    expect(html).toContain('value="tvk_secret"');
    expect(html).toContain('Revocar<span class="sr-only"> la clave refunds CLI</span>');
    expect(html).toContain('Nunca');
  });
});

describe('own sessions', () => {
  it('lists them and ends another one with the CSRF token', async () => {
    const sessions = [
      {
        id: 's1',
        current: true,
        createdAt: '2026-11-28T10:00:00Z',
        lastSeenAt: '2026-11-28T10:05:00Z',
        ip: '127.0.0.1',
        userAgent: 'Firefox',
      },
      {
        id: 's2',
        current: false,
        createdAt: '2026-11-27T10:00:00Z',
        lastSeenAt: '2026-11-27T11:00:00Z',
        ip: '10.0.0.2',
        userAgent: 'Chrome',
      },
    ];
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['content']),
      'GET /sessions': { status: 200, body: { sessions } },
      'DELETE /sessions/s2': { status: 204 },
    });
    const data = await sessionsLoader({ request: pageRequest('/sesiones'), context } as never);
    const html = renderPage(<SessionsView {...data} csrfToken="c" />);
    expect(html).toContain('Esta sesión');
    expect(html.match(/Cerrar sesión/g)).toHaveLength(1);
    const result = await sessionsAction({ request: formPost('/sesiones', { id: 's2', csrf: 'c' }), context } as never);
    expect(result).toEqual({ ok: true, message: 'Sesión cerrada.' });
    expect(calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/sessions/s2' });
    expect(calls.at(-1)?.headers.get('x-csrf-token')).toBe('c');
  });
});
