import { describe, expect, it } from 'vitest';
import { groupedSecret, recoveryCodesFile } from '#app/features/enrolment.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, EnrolmentForm, type EnrolmentPage, type EnrolmentResult, loader, RecoveryCodes } from './enrolar.tsx';

const qrSvg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>';
const enrolment = {
  email: 'nuevo@travesia.cl',
  roles: ['support', 'finance'],
  totp: { secret: 'JBSWY3DPEHPK3PXPJBSWY3DP', otpauthUrl: 'otpauth://totp/Travesia:nuevo?secret=JBSW', qrSvg },
};
const codes = Array.from({ length: 10 }, (_, index) => `code-${index}-abcd`);

describe('enrolment', () => {
  it('shows the QR as an image and the secret in text', async () => {
    const { context } = contractApi({ 'GET /enrolment/tok_1': { status: 200, body: enrolment } });
    const page = answerOf<EnrolmentPage>(
      await loader({ request: pageRequest('/enrolar/tok_1'), context, params: { token: 'tok_1' } } as never),
    ).data;
    expect(page.state).toBe('ready');
    if (page.state !== 'ready') return;
    expect(page.qrImage).toBe(`data:image/svg+xml;base64,${Buffer.from(qrSvg).toString('base64')}`);
    const html = renderPage(<EnrolmentForm page={page} result={undefined} busy={false} />);
    expect(html).toContain('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    expect(html).toContain('alt="Código QR');
    expect(html).toContain('Atención, Finanzas');
    expect(html).toContain('autoComplete="new-password"');
    expect(html).toContain('Al menos 12 caracteres');
  });

  it('answers 404 for a link that is unknown, used or expired', async () => {
    const { context } = contractApi({});
    const answer = answerOf<EnrolmentPage>(
      await loader({ request: pageRequest('/enrolar/x'), context, params: { token: 'x' } } as never),
    );
    expect(answer.status).toBe(404);
    expect(answer.data).toEqual({ state: 'invalid' });
  });

  it('gives the 10 recovery codes once, with the session cookie', async () => {
    const { context, calls } = contractApi({
      'POST /enrolment/tok_1': {
        status: 200,
        body: { recoveryCodes: codes, operator: meAnswer().body.operator, csrfToken: 'c' },
        headers: { 'set-cookie': 'travesia_operator=s; Path=/; HttpOnly' },
      },
    });
    const request = formPost('/enrolar/tok_1', { name: 'Ana', password: 'una frase bien larga', totpCode: '123 456' });
    const answer = answerOf<EnrolmentResult>(await action({ request, context, params: { token: 'tok_1' } } as never));
    expect(calls[0]?.body).toEqual({ name: 'Ana', password: 'una frase bien larga', totpCode: '123456' });
    expect(answer.headers.get('set-cookie')).toContain('travesia_operator=s');
    expect(answer.data).toEqual({ state: 'done', email: 'ana@travesia.cl', recoveryCodes: codes });
    const html = renderPage(<RecoveryCodes email="ana@travesia.cl" codes={codes} />);
    for (const code of codes) expect(html).toContain(code);
    expect(html).toContain('download="codigos-recuperacion-travesia.txt"');
    expect(html).toContain('Descargar');
  });

  it('shows the strength estimator’s verdict on the password field', async () => {
    const { context } = contractApi({
      'POST /enrolment/tok_1': {
        status: 400,
        body: {
          message: 'Datos inválidos',
          errors: [
            { field: 'password', message: 'Esta contraseña es fácil de adivinar: agrega palabras poco comunes.' },
          ],
        },
      },
    });
    const request = formPost('/enrolar/tok_1', { name: 'Ana', password: 'password1234', totpCode: '123456' });
    const answer = answerOf<EnrolmentResult>(await action({ request, context, params: { token: 'tok_1' } } as never));
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({
      state: 'error',
      errors: { password: 'Esta contraseña es fácil de adivinar: agrega palabras poco comunes.' },
    });
  });

  it('checks the fields before calling the API', async () => {
    const { context, calls } = contractApi({});
    const request = formPost('/enrolar/tok_1', { name: '', password: 'corta', totpCode: '12' });
    const answer = answerOf<EnrolmentResult>(await action({ request, context, params: { token: 'tok_1' } } as never));
    expect(answer.data).toMatchObject({
      state: 'error',
      errors: { name: expect.any(String), password: expect.any(String), totpCode: expect.any(String) },
    });
    expect(calls).toHaveLength(0);
  });

  it('writes the codes file and groups the secret', () => {
    expect(recoveryCodesFile('a@b.cl', ['x', 'y']).split('\n')).toContain('y');
    expect(groupedSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
  });
});
