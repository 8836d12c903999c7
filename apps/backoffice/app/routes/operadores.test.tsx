import { describe, expect, it } from 'vitest';
import type { ListedOperator } from '#app/lib/contract.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, loader, type OperatorsResult, OperatorsView } from './operadores.tsx';

const operators: ListedOperator[] = [
  { id: 'op_1', email: 'ana@travesia.cl', name: 'Ana Pérez', roles: ['admin'], state: 'active' },
  { id: 'op_2', email: 'luis@travesia.cl', name: null, roles: ['support', 'finance'], state: 'invited' },
  { id: 'op_3', email: 'eva@travesia.cl', name: 'Eva', roles: ['content'], state: 'deactivated' },
];

describe('operators (admin)', () => {
  it('refuses a role other than admin with a 403 page', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() => loader({ request: pageRequest('/operadores'), context } as never));
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('lists the operators with their state and roles, each action labelled for whom', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(), 'GET /operators': { status: 200, body: { operators } } });
    const data = await loader({ request: pageRequest('/operadores'), context } as never);
    const html = renderPage(<OperatorsView {...data} csrfToken="csrf-123" selfId="op_1" />);
    expect(html).toContain('Invitado');
    expect(html).toContain('Desactivado');
    expect(html).toContain('Reactivar<span class="sr-only"> a Eva</span>');
    expect(html).toContain('Desactivar<span class="sr-only"> a luis@travesia.cl</span>');
    // No one deactivates themselves from here.
    expect(html).not.toContain('Desactivar<span class="sr-only"> a Ana Pérez</span>');
    expect(html).toContain('name="csrf" value="csrf-123"');
  });

  it('invites with the CSRF token and shows the one-time link', async () => {
    const { context, calls } = contractApi({
      'POST /operators': {
        status: 201,
        body: { operator: operators[1], enrolmentUrl: 'http://localhost:3000/backoffice/enrolar/tok_9' },
      },
    });
    const request = formPost('/operadores', {
      intent: 'invite',
      csrf: 'csrf-123',
      email: 'luis@travesia.cl',
      roles: ['support', 'finance', 'bogus'],
    });
    const answer = answerOf<OperatorsResult>(await action({ request, context } as never));
    expect(calls[0]?.headers.get('x-csrf-token')).toBe('csrf-123');
    expect(calls[0]?.body).toEqual({ email: 'luis@travesia.cl', roles: ['support', 'finance'] });
    expect(answer.data).toMatchObject({ ok: true, enrolmentUrl: 'http://localhost:3000/backoffice/enrolar/tok_9' });
    const html = renderPage(<OperatorsView operators={[]} csrfToken="c" selfId="op_1" result={answer.data} />);
    expect(html).toContain('value="http://localhost:3000/backoffice/enrolar/tok_9"');
    expect(html).toContain('Se muestra solo esta vez');
  });

  it('changes roles, deactivates and resets factors through the contract’s calls', async () => {
    const { context, calls } = contractApi({
      'PATCH /operators/op_2': { status: 200, body: { operator: operators[1] } },
      'POST /operators/op_2/reset-factors': { status: 200, body: { enrolmentUrl: 'http://x/backoffice/enrolar/t2' } },
    });
    await action({
      request: formPost('/operadores', { intent: 'roles', id: 'op_2', csrf: 'c', roles: ['finance'] }),
      context,
    } as never);
    await action({
      request: formPost('/operadores', { intent: 'deactivate', id: 'op_2', csrf: 'c' }),
      context,
    } as never);
    const reset = answerOf<OperatorsResult>(
      await action({ request: formPost('/operadores', { intent: 'reset', id: 'op_2', csrf: 'c' }), context } as never),
    );
    expect(calls.map((call) => [call.method, call.path, call.body])).toEqual([
      ['PATCH', '/operators/op_2', { roles: ['finance'] }],
      ['PATCH', '/operators/op_2', { state: 'deactivated' }],
      ['POST', '/operators/op_2/reset-factors', undefined],
    ]);
    expect(reset.data.enrolmentUrl).toBe('http://x/backoffice/enrolar/t2');
  });

  it('says in words why an invitation was not made', async () => {
    const { context, calls } = contractApi({});
    const answer = answerOf<OperatorsResult>(
      await action({ request: formPost('/operadores', { intent: 'invite', csrf: 'c', email: '' }), context } as never),
    );
    expect(answer.status).toBe(400);
    expect(answer.data.errors).toEqual({ email: 'Escribe el correo de la persona.', roles: 'Elige al menos un rol.' });
    expect(calls).toHaveLength(0);
  });
});
