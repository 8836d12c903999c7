import { describe, expect, it } from 'vitest';
import type { PersonalDataFindings, PersonalDataRequest } from '#app/features/privacy.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, loader, type PrivacyResult, PrivacyView } from './datos-personales.tsx';

const findings: PersonalDataFindings = {
  summary: {
    sales: { count: 1, ids: [123456] },
    quotations: { count: 0, ids: [] },
    claims: { count: 1, ids: [5] },
    contactRequests: { count: 1, ids: [9] },
    subscriptions: { count: 1, ids: [3] },
  },
  sales: [{ id: 123456, status: 'paid', createdAt: '2026-11-20T10:00:00.000Z', href: '/backoffice/ventas/123456' }],
  claims: [{ id: 5, number: 'R-ABCD1234', status: 'pagada', closed: true }],
  contactRequests: [{ id: 9, subject: 'Ventas', createdAt: '2026-11-20T10:00:00.000Z' }],
  subscriptions: [{ id: 3, email: 'camila@example.cl', confirmedAt: null }],
};

const open: PersonalDataRequest = {
  id: 4,
  subject: '12.345.678-5',
  kind: 'erasure',
  state: 'open',
  openedBy: 'ana@travesia.cl',
  handledBy: null,
  answer: null,
  createdAt: '2026-11-27T12:00:00.000Z',
  answeredAt: null,
};

describe('personal data (admin, support)', () => {
  it('refuses finance and content with a 403 page; support and admin may use it', async () => {
    for (const role of ['finance', 'content'] as const) {
      const { context } = contractApi({ 'GET /me': meAnswer([role]) });
      const thrown = await thrownBy(() => loader({ request: pageRequest('/datos-personales'), context } as never));
      expect(thrown).toMatchObject({ init: { status: 403 } });
    }
    for (const role of ['support', 'admin'] as const) {
      const { context, calls } = contractApi({
        'GET /me': meAnswer([role]),
        'GET /privacy/requests': { status: 200, body: { requests: [open] } },
      });
      const data = await loader({ request: pageRequest('/datos-personales'), context } as never);
      expect(data).toMatchObject({ q: '', findings: null, requests: [open] });
      expect(calls.some((call) => call.path.startsWith('/privacy/search'))).toBe(false);
    }
  });

  it('searches the URL’s person and shows the findings by source, the downloads and the anonymisation form', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /privacy/requests': { status: 200, body: { requests: [open] } },
      'GET /privacy/search?q=camila%40example.cl': { status: 200, body: findings },
    });
    const data = await loader({ request: pageRequest('/datos-personales?q=camila%40example.cl'), context } as never);
    expect(calls.map((call) => call.path)).toContain('/privacy/search?q=camila%40example.cl');
    const html = renderPage(<PrivacyView {...data} csrfToken="csrf-1" />);
    expect(html).toContain('href="/backoffice/ventas/123456"');
    expect(html).toContain('R-ABCD1234');
    expect(html).toContain('for="correo-contact-9"');
    expect(html).toContain('Corregir<span class="sr-only"> la suscripción 3</span>');
    expect(html).toContain('cerrado (se puede anonimizar)');
    expect(html).toContain('href="/api/backoffice/privacy/export?q=camila%40example.cl&amp;format=json"');
    expect(html).toContain('Descargar PDF');
    expect(html).toContain('Anonimizar lo que no debemos conservar');
    expect(html).toContain('id="confirmar-anonimizar"');
    expect(html).toContain('name="csrf" value="csrf-1"');
    // The open request can be answered from its row.
    expect(html).toContain('for="respuesta-4"');
    expect(html).toContain('Supresión');
  });

  it('shows an empty register and an API failure in words', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /privacy/requests': { status: 200, body: { requests: [] } },
    });
    const broken = await loader({ request: pageRequest('/datos-personales?q=x%40y.cl'), context } as never);
    expect(broken.error).toBeTruthy();
    const html = renderPage(<PrivacyView {...broken} csrfToken="c" />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Aún no hay solicitudes registradas.');
  });

  it('anonymises only with the confirmation, registers and answers requests with the CSRF token', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['support']),
      'POST /privacy/erase': { status: 200, body: { answer: 'Anonimizamos 1 solicitud(es) de contacto…' } },
      'POST /privacy/requests': { status: 201, body: { ...open, id: 11 } },
      'POST /privacy/requests/4/answer': { status: 200, body: { ...open, state: 'answered' } },
      'POST /privacy/rectify': { status: 200, body: { source: 'contact', id: 9, email: 'nuevo@example.cl' } },
    });
    const post = (fields: Record<string, string>) =>
      action({ request: formPost('/datos-personales', { csrf: 'csrf-9', ...fields }), context } as never);
    const unconfirmed = answerOf<PrivacyResult>(await post({ intent: 'erase', subject: 'camila@example.cl' }));
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.data.errors?.confirm).toBe('Marca la confirmación para anonimizar.');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    const erased = answerOf<PrivacyResult>(
      await post({ intent: 'erase', subject: 'camila@example.cl', confirm: 'si', requestId: '4' }),
    );
    expect(erased.data).toMatchObject({ ok: true, message: expect.stringContaining('Anonimizamos') });
    const opened = answerOf<PrivacyResult>(await post({ intent: 'open', subject: '12.345.678-5', kind: 'access' }));
    expect(opened.data.message).toBe('Solicitud 11 registrada.');
    const answered = answerOf<PrivacyResult>(await post({ intent: 'answer', id: '4', answer: 'Enviada por correo.' }));
    expect(answered.data.message).toBe('Solicitud 4 respondida.');
    const rectified = answerOf<PrivacyResult>(
      await post({ intent: 'rectify', source: 'contact', id: '9', fullName: '', email: 'nuevo@example.cl' }),
    );
    expect(rectified.data.message).toBe('Solicitud de contacto 9 corregida.');
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.path, call.body])).toEqual([
      ['/privacy/erase', { subject: 'camila@example.cl', confirm: true, requestId: 4 }],
      ['/privacy/requests', { subject: '12.345.678-5', kind: 'access' }],
      ['/privacy/requests/4/answer', { answer: 'Enviada por correo.' }],
      ['/privacy/rectify', { source: 'contact', id: 9, email: 'nuevo@example.cl' }],
    ]);
    expect(posts.every((call) => call.headers.get('x-csrf-token') === 'csrf-9')).toBe(true);
  });
});
