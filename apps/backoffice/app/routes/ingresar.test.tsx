import { describe, expect, it } from 'vitest';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, loader, SignInForms, type SignInState, wrongCode, wrongCredentials } from './ingresar.tsx';

describe('sign-in, step 1 (e-mail and password)', () => {
  it('asks for the code once the API accepts the password', async () => {
    const { context, calls } = contractApi({
      'POST /sign-in': { status: 200, body: { step: 'second-factor', challenge: 'ch_1' } },
    });
    const request = formPost('/ingresar', {
      intent: 'password',
      email: 'ana@travesia.cl',
      password: 'una frase larga',
    });
    const answer = answerOf<SignInState>(await action({ request, context } as never));
    expect(answer.data).toEqual({ step: 'code', email: 'ana@travesia.cl', challenge: 'ch_1' });
    expect(calls[0]?.body).toEqual({ email: 'ana@travesia.cl', password: 'una frase larga' });
  });

  it('says in words what is missing, without calling the API', async () => {
    const { context, calls } = contractApi({});
    const answer = answerOf<SignInState>(
      await action({
        request: formPost('/ingresar', { intent: 'password', email: '', password: '' }),
        context,
      } as never),
    );
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({ errors: { email: 'Escribe tu correo.', password: 'Escribe tu contraseña.' } });
    expect(calls).toHaveLength(0);
  });

  it('shows the API refusal and, when throttled, when to try again', async () => {
    const { context } = contractApi({
      'POST /sign-in': {
        status: 429,
        body: { message: 'Demasiados intentos.' },
        headers: { 'retry-after': '120' },
      },
    });
    const request = formPost('/ingresar', { intent: 'password', email: 'ana@travesia.cl', password: 'x' });
    const answer = answerOf<SignInState>(await action({ request, context } as never));
    expect(answer.status).toBe(429);
    expect(answer.data).toMatchObject({
      step: 'password',
      message: 'Demasiados intentos. Intenta de nuevo en 2 minutos.',
    });
    const html = renderPage(<SignInForms state={answer.data} volver="/" busy={false} />, '/ingresar');
    expect(html).toContain('role="alert"');
    expect(html).toContain('value="ana@travesia.cl"');
  });
});

describe('sign-in, a wrong password', () => {
  it('gets the one answer in Spanish, whatever the §8 body says in English', async () => {
    const { context } = contractApi({
      'POST /sign-in': {
        status: 401,
        body: { status: 401, detail: 'Unauthorized', instance: '/api/backoffice/sign-in', errors: [] },
      },
    });
    const request = formPost('/ingresar', { intent: 'password', email: 'nadie@travesia.cl', password: 'x' });
    const answer = answerOf<SignInState>(await action({ request, context } as never));
    expect(answer.status).toBe(401);
    expect(answer.data).toMatchObject({ step: 'password', email: 'nadie@travesia.cl', message: wrongCredentials });
  });
});

describe('sign-in, step 2 (the code)', () => {
  it('opens the session: the cookie passes to the browser and the page asked for follows', async () => {
    const { context, calls } = contractApi({
      'POST /sign-in/second-factor': {
        status: 200,
        body: { operator: meAnswer().body.operator, csrfToken: 'c' },
        headers: { 'set-cookie': 'travesia_operator=new; Path=/; HttpOnly; SameSite=Strict' },
      },
    });
    const request = formPost('/ingresar', { intent: 'code', challenge: 'ch_1', code: '123 456', volver: '/auditoria' });
    const thrown = await thrownBy(() => action({ request, context } as never));
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.headers.get('location')).toBe('/auditoria');
    expect(response.headers.get('set-cookie')).toContain('travesia_operator=new');
    expect(calls[0]?.body).toEqual({ challenge: 'ch_1', code: '123456' });
  });

  it('keeps the challenge and says why a code was refused', async () => {
    const { context } = contractApi({
      'POST /sign-in/second-factor': {
        status: 401,
        body: { status: 401, detail: 'Unauthorized', instance: '/api/backoffice/sign-in/second-factor', errors: [] },
      },
    });
    const request = formPost('/ingresar', { intent: 'code', challenge: 'ch_1', code: '000000', email: 'a@b.cl' });
    const answer = answerOf<SignInState>(await action({ request, context } as never));
    expect(answer.status).toBe(401);
    expect(answer.data).toMatchObject({ step: 'code', challenge: 'ch_1', message: wrongCode });
    const html = renderPage(<SignInForms state={answer.data} volver="/" busy={false} />, '/ingresar');
    expect(html).toContain('Paso 2 de 2');
    expect(html).toContain('name="challenge" value="ch_1"');
    expect(html).toContain('autoComplete="one-time-code"');
  });

  it('sends a signed-in operator on to the console', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer() });
    const thrown = await thrownBy(() =>
      loader({ request: pageRequest('/ingresar?volver=%2Fsesiones'), context } as never),
    );
    expect((thrown as Response).headers.get('location')).toBe('/sesiones');
  });
});
