import { describe, expect, it } from 'vitest';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, type FailingJob, type JobsResult, JobsView, loader } from './trabajos.tsx';

const jobs: FailingJob[] = [
  {
    id: 41,
    kind: 'certificate-email',
    status: 'failed',
    attempts: 5,
    lastError: 'SMTP 421: servicio no disponible',
    createdAt: '2026-11-27T10:00:00.000Z',
    updatedAt: '2026-11-27T12:00:00.000Z',
    runAfter: '2026-11-27T12:00:00.000Z',
  },
  {
    id: 42,
    kind: 'refund-email',
    status: 'pending',
    attempts: 2,
    lastError: 'timeout',
    createdAt: '2026-11-28T10:00:00.000Z',
    updatedAt: '2026-11-28T10:01:00.000Z',
    runAfter: '2026-11-28T10:03:00.000Z',
  },
];

describe('«Trabajos con fallas» (admin)', () => {
  it('lists given-up and retrying jobs in words, «Reintentar» only for the given-up ones', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(), 'GET /jobs': { status: 200, body: { jobs } } });
    const data = await loader({ request: pageRequest('/trabajos'), context } as never);
    const html = renderPage(<JobsView {...data} csrfToken="c" />);
    expect(html).toContain('Certificados');
    expect(html).toContain('Correo de un reembolso');
    expect(html).toContain('SMTP 421: servicio no disponible');
    expect(html).toContain('Abandonado');
    expect(html).toContain('Reintentando');
    expect(html).toContain('Reintentar<span class="sr-only"> el trabajo 41</span>');
    expect(html).not.toContain('el trabajo 42');
    expect(renderPage(<JobsView jobs={[]} csrfToken="c" />)).toContain('No hay trabajos con fallas.');
  });

  it('retries with the CSRF token and says when another administrator already did', async () => {
    const { context, calls } = contractApi({
      'POST /jobs/41/retry': { status: 409, body: { message: 'Este trabajo ya no está fallido.' } },
    });
    const answer = answerOf<JobsResult>(
      await action({ request: formPost('/trabajos', { csrf: 'csrf-9', id: '41' }), context } as never),
    );
    expect(calls[0]?.headers.get('x-csrf-token')).toBe('csrf-9');
    expect(answer).toMatchObject({ status: 409, data: { ok: false, message: 'Este trabajo ya no está fallido.' } });
  });

  it('is for administrators only', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() => loader({ request: pageRequest('/trabajos'), context } as never));
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });
});
