import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { ruleMessages as r } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recaptchaTestKeys } from '#app/config.ts';
import { contactRequests, jobs } from '#app/db/schema.ts';
import { defaultRateLimits } from '#app/lib/http/rate-limit.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { anyRequestId, call, expectError } from './support/http.ts';
import { passingToken, useFakeSiteverify } from './support/siteverify.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';

const path = '/api/companies/1/contact-forms';
const valid = {
  fullName: 'Camila Rojas Soto',
  email: 'camila.rojas@example.cl',
  phone: '+56 9 1234 5678',
  idSubject: 3,
  detail: 'Necesito un certificado en inglés para el consulado.\nViajo el 12 de diciembre.',
};

const env: NodeJS.ProcessEnv = {};
const siteverify = useFakeSiteverify(env);
let smtp: FakeSmtp | undefined;
beforeAll(async () => {
  smtp = await startFakeSmtp();
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
});
const smtpMessages = () => smtp?.received ?? [];

const send = (ctx: TestContext, body: unknown, token: string | null, remoteAddress = '127.0.0.1') =>
  call(ctx.app, {
    method: 'POST',
    url: token === null ? path : `${path}?reCaptchaToken=${encodeURIComponent(token)}`,
    payload: body as Record<string, unknown>,
    remoteAddress,
  });

const storedRequests = (ctx: TestContext) => ctx.database.db.select().from(contactRequests);
const contactJobs = (ctx: TestContext) => ctx.database.db.select().from(jobs).where(eq(jobs.kind, 'contact-email'));

describeOnEachDatabase(
  'contact form: POST /companies/{companyId}/contact-forms?reCaptchaToken=',
  (ctx) => {
    it('the settings give the browser the public site key (Google’s test key by default), never the secret', async () => {
      const answer = await call(ctx.app, { method: 'GET', url: '/api/companies/1/contact-forms/settings' });
      expect(answer.status).toBe(200);
      expect(answer.json()).toStrictEqual({ reCaptchaSiteKey: recaptchaTestKeys.siteKey });
      expect(answer.text).not.toContain(recaptchaTestKeys.secretKey);
    });

    it('a valid form with a token Google accepts → 204; stored as sent; e-mailed to the contact address with the visitor as Reply-To', async () => {
      const token = passingToken('valid');
      const before = siteverify.current.requests.length;
      const answer = await send(ctx, valid, token, '203.0.113.20');
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');

      // Google was asked once, with our secret, the token and the visitor's address.
      expect(siteverify.current.requests.slice(before)).toStrictEqual([
        { secret: recaptchaTestKeys.secretKey, response: token, remoteip: '203.0.113.20' },
      ]);

      const [row] = (await storedRequests(ctx)).filter((request) => request.email === valid.email);
      expect(row).toMatchObject({
        companyId: 1,
        subjectId: 3,
        subjectLabel: 'Certificados',
        fullName: valid.fullName,
        phone: valid.phone,
        detail: valid.detail,
        recipient: 'contacto@travesia.cl',
      });
      const [job] = (await contactJobs(ctx)).filter((j) => (j.payload as { requestId: number }).requestId === row?.id);
      expect(job).toBeDefined();

      await ctx.app.runJobs();
      const mail = smtpMessages().find((m) => m.parsed.subject === `Solicitud de contacto N° ${row?.id}: Certificados`);
      expect(mail, 'the contact e-mail reached the SMTP server').toBeDefined();
      expect(mail?.to).toStrictEqual(['contacto@travesia.cl']);
      expect(mail?.parsed.replyTo?.value).toStrictEqual([{ name: valid.fullName, address: valid.email }]);
      const text = mail?.parsed.text ?? '';
      for (const part of [valid.fullName, valid.email, valid.phone, 'Certificados', 'Viajo el 12 de diciembre.']) {
        expect(text).toContain(part);
      }
      expect(mail?.parsed.html).toContain('Necesito un certificado en inglés para el consulado.');
      expect(mail?.parsed.messageId).toBe(`<contact-${job?.id}@travesia.cl>`);
      const [done] = await ctx.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.id, job?.id ?? 0));
      expect(done?.status).toBe('done');
    });

    it('HTML in the message reaches the e-mail as text, never as markup', async () => {
      const detail = '<script>alert(1)</script><img src=x onerror=alert(2)>';
      expect((await send(ctx, { ...valid, email: 'html@example.cl', detail }, passingToken())).status).toBe(204);
      await ctx.app.runJobs();
      const [row] = (await storedRequests(ctx)).filter((request) => request.email === 'html@example.cl');
      const mail = smtpMessages().find((m) => m.parsed.subject?.startsWith(`Solicitud de contacto N° ${row?.id}:`));
      expect(mail?.parsed.html).not.toContain('<script>');
      expect(mail?.parsed.html).not.toContain('<img');
      expect(mail?.parsed.text).toContain(detail);
    });

    const rules: [field: string, value: unknown, code: string, message: string][] = [
      ['fullName', '', 'required', 'Debe ingresar su Nombre y Apellido'],
      ['fullName', '   ', 'required', 'Debe ingresar su Nombre y Apellido'],
      ['fullName', undefined, 'required', 'Debe ingresar su Nombre y Apellido'],
      ['fullName', 'n'.repeat(101), 'too_long', r.tooLong(100)],
      ['email', '', 'required', 'Debe ingresar un email'],
      ['email', 'camila@', 'invalid_email', 'Email inválido'],
      ['email', `${'a'.repeat(40)}@example.cl`, 'too_long', r.emailTooLong],
      ['phone', '', 'required', 'Debe ingresar un teléfono'],
      ['phone', '1'.repeat(21), 'too_long', r.tooLong(20)],
      ['idSubject', undefined, 'required', 'Seleccione un asunto'],
      ['idSubject', 'tres', 'invalid_type', 'Seleccione un asunto'],
      ['detail', '', 'required', 'Debe ingresar una descripción'],
      ['detail', 'd'.repeat(1001), 'too_long', r.tooLong(1000)],
    ];
    it.each(rules)(
      '%s = %j → 400 %s «%s»; Google is not asked and nothing is stored',
      async (field, value, code, message) => {
        const body: Record<string, unknown> = { ...valid, email: `regla.${field}@example.cl`, [field]: value };
        if (value === undefined) delete body[field];
        if (field === 'email') body.email = value;
        const asked = siteverify.current.requests.length;
        const stored = (await storedRequests(ctx)).length;
        const answer = await send(ctx, body, passingToken());
        expect(answer.status).toBe(400);
        expect(answer.json()).toStrictEqual({
          status: 400,
          detail: errorMessages.invalidInputParameters,
          instance: path,
          errors: [{ field, code, message }],
          requestId: anyRequestId,
        });
        expect(siteverify.current.requests.length).toBe(asked);
        expect(await storedRequests(ctx)).toHaveLength(stored);
      },
    );

    it('accepts every field at its limit: 100, 50, 20 and 1000 characters', async () => {
      const atLimits = {
        fullName: 'n'.repeat(100),
        email: `${'l'.repeat(39)}@example.cl`,
        phone: '9'.repeat(20),
        idSubject: 1,
        detail: 'd'.repeat(1000),
      };
      expect((await send(ctx, atLimits, passingToken())).status).toBe(204);
    });

    it('every problem of the form is listed at once', async () => {
      const answer = await send(ctx, { fullName: '', email: 'x', phone: '', detail: '' }, passingToken());
      expect(answer.status).toBe(400);
      const fields = answer.json<{ errors: { field: string }[] }>().errors.map((e) => e.field);
      expect(fields.sort()).toStrictEqual(['detail', 'email', 'fullName', 'idSubject', 'phone']);
    });

    it('a subject the company does not have → 400 not_available «Seleccione un asunto», before Google is asked', async () => {
      const asked = siteverify.current.requests.length;
      const answer = await send(ctx, { ...valid, idSubject: 999 }, passingToken());
      expect(answer.json()).toStrictEqual({
        status: 400,
        detail: errorMessages.invalidInputParameters,
        instance: path,
        errors: [{ field: 'idSubject', code: 'not_available', message: 'Seleccione un asunto' }],
        requestId: anyRequestId,
      });
      expect(siteverify.current.requests.length).toBe(asked);
    });

    it.each([
      ['missing', null],
      ['empty', ''],
    ])('a %s token → 400 «The parameter …must be defined.» on reCaptchaToken; nothing stored', async (_case, token) => {
      const stored = (await storedRequests(ctx)).length;
      const answer = await send(ctx, { ...valid, email: 'sin.token@example.cl' }, token);
      const detail = parameterMustBeDefined('reCaptchaToken');
      expect(answer.json()).toStrictEqual({
        status: 400,
        detail,
        instance: path,
        errors: [{ field: 'reCaptchaToken', code: 'required', message: detail }],
        requestId: anyRequestId,
      });
      expect(await storedRequests(ctx)).toHaveLength(stored);
    });

    it.each([
      ['Google refuses', () => 'not-a-real-token'],
      ['already used', () => 'pass-used-once'],
    ])('a token %s → 400 captcha_failed on reCaptchaToken; nothing stored, nothing queued', async (_case, token) => {
      await send(ctx, { ...valid, email: 'primera.vez@example.cl' }, 'pass-used-once');
      const stored = (await storedRequests(ctx)).length;
      const queued = (await contactJobs(ctx)).length;
      const answer = await send(ctx, { ...valid, email: 'robot@example.cl' }, token());
      expect(answer.json()).toStrictEqual({
        status: 400,
        detail: errorMessages.invalidInputParameters,
        instance: path,
        errors: [{ field: 'reCaptchaToken', code: 'captcha_failed', message: r.reCaptchaFailed }],
        requestId: anyRequestId,
      });
      expect(await storedRequests(ctx)).toHaveLength(stored);
      expect(await contactJobs(ctx)).toHaveLength(queued);
    });

    it('siteverify failing (500) → 503 in the §8 body with Retry-After; nothing stored, nothing queued', async () => {
      const stored = (await storedRequests(ctx)).length;
      const queued = (await contactJobs(ctx)).length;
      siteverify.current.mode = 'error';
      try {
        const answer = await send(ctx, { ...valid, email: 'google.caido@example.cl' }, passingToken());
        expectError(answer, 503, errorMessages.unexpected, path);
        expect(answer.headers['retry-after']).toBe('5');
      } finally {
        siteverify.current.mode = 'ok';
      }
      expect(await storedRequests(ctx)).toHaveLength(stored);
      expect(await contactJobs(ctx)).toHaveLength(queued);
    });

    it('an unknown company → 404 Company not found', async () => {
      const answer = await call(ctx.app, {
        method: 'POST',
        url: `/api/companies/999/contact-forms?reCaptchaToken=${passingToken()}`,
        payload: valid,
      });
      expectError(answer, 404, errorMessages.companyNotFound, '/api/companies/999/contact-forms');
    });
  },
  env,
);

describeOnEachDatabase(
  'contact form when Google cannot be reached',
  (ctx) => {
    it('siteverify unreachable → 503 in the §8 body, never a 500; nothing stored', async () => {
      const answer = await send(ctx, valid, passingToken());
      expectError(answer, 503, errorMessages.unexpected, path);
      expect(await storedRequests(ctx)).toHaveLength(0);
      expect(await contactJobs(ctx)).toHaveLength(0);
    });
  },
  // Port 9 (discard) on loopback: nothing listens there, the connection is refused.
  { RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/recaptcha/api/siteverify' },
);

const limitedEnv: NodeJS.ProcessEnv = { RATE_LIMIT_FACTOR: '1' };
const limitedSiteverify = useFakeSiteverify(limitedEnv);

describeOnEachDatabase(
  'contact form rate limit (formSubmit)',
  (ctx) => {
    it('a client over the form limit gets 429 in the §8 body; Google is not asked and nothing more is stored', async () => {
      const { max } = defaultRateLimits.formSubmit;
      for (let i = 0; i < max; i++) {
        expect((await send(ctx, valid, passingToken(`limit${i}`), '198.51.100.40')).status).toBe(204);
      }
      const asked = limitedSiteverify.current.requests.length;
      const refused = await send(ctx, valid, passingToken('over'), '198.51.100.40');
      expectError(refused, 429, errorMessages.tooManyRequests, path);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(limitedSiteverify.current.requests.length).toBe(asked);
      expect(await storedRequests(ctx)).toHaveLength(max);
      // Another visitor is not held back by the first.
      expect((await send(ctx, valid, passingToken('other'), '198.51.100.41')).status).toBe(204);
    });
  },
  limitedEnv,
);
