import { errorMessages } from '@travesia/domain/messages';
import { ruleMessages } from '@travesia/domain/rules';
import { eq, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { subscriptions } from '#app/db/schema.ts';
import {
  confirmationPath,
  listSubscribers,
  unsubscribePath,
  unsubscribeToken,
} from '#app/modules/subscriptions/service.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectBadRequest, expectError } from './support/http.ts';
import { useFakeSmtp } from './support/smtp.ts';

const env: NodeJS.ProcessEnv = { PUBLIC_URL: 'https://tienda.example.cl' };
const { mailsTo } = useFakeSmtp(env);

const url = '/api/companies/1/subscriptions';

const subscribe = (ctx: TestContext, payload: unknown, path = url) =>
  call(ctx.app, { method: 'POST', url: path, payload: payload as Record<string, unknown> });

const rowsFor = (ctx: TestContext, email: string) =>
  ctx.database.db
    .select({ companyId: subscriptions.companyId, email: subscriptions.email })
    .from(subscriptions)
    .where(eq(subscriptions.email, email));

describeOnEachDatabase(
  'newsletter subscriptions',
  (ctx) => {
    it('a valid e-mail → 204 with no body, and the address is stored for the company', async () => {
      const answer = await subscribe(ctx, { email: 'viajero@example.cl' });
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      expect(await rowsFor(ctx, 'viajero@example.cl')).toStrictEqual([{ companyId: 1, email: 'viajero@example.cl' }]);
    });

    it('stores the address lower-cased', async () => {
      expect((await subscribe(ctx, { email: 'Camila.Rojas@Example.CL' })).status).toBe(204);
      expect(await rowsFor(ctx, 'camila.rojas@example.cl')).toStrictEqual([
        { companyId: 1, email: 'camila.rojas@example.cl' },
      ]);
      expect(await rowsFor(ctx, 'Camila.Rojas@Example.CL')).toStrictEqual([]);
    });

    it('subscribing Ana@Example.cl then ana@example.cl answers 204 twice and stores one row', async () => {
      expect((await subscribe(ctx, { email: 'Ana@Example.cl' })).status).toBe(204);
      const again = await subscribe(ctx, { email: 'ana@example.cl' });
      expect(again.status).toBe(204);
      expect(again.text).toBe('');
      expect(await rowsFor(ctx, 'ana@example.cl')).toStrictEqual([{ companyId: 1, email: 'ana@example.cl' }]);
    });

    it('trims surrounding spaces before storing', async () => {
      expect((await subscribe(ctx, { email: '  espacios@example.cl ' })).status).toBe(204);
      expect(await rowsFor(ctx, 'espacios@example.cl')).toHaveLength(1);
    });

    it('accepts an address of exactly 50 characters', async () => {
      const email = `${'b'.repeat(39)}@example.cl`;
      expect(email).toHaveLength(50);
      expect((await subscribe(ctx, { email })).status).toBe(204);
      expect(await rowsFor(ctx, email)).toHaveLength(1);
    });

    it('an address over 50 characters → 400 too_long, nothing stored', async () => {
      const email = `${'c'.repeat(40)}@example.cl`;
      expect(email).toHaveLength(51);
      const errors = expectBadRequest(await subscribe(ctx, { email }), errorMessages.invalidInputParameters, url);
      expect(errors).toStrictEqual([{ field: 'email', code: 'too_long', message: ruleMessages.emailTooLong }]);
      expect(await rowsFor(ctx, email)).toStrictEqual([]);
    });

    it.each(['not-an-email', 'ana@', '@example.cl', 'ana example@example.cl'])(
      'a malformed e-mail (%s) → 400 Invalid input parameters with Formato de Email incorrecto',
      async (email) => {
        const errors = expectBadRequest(await subscribe(ctx, { email }), 'Invalid input parameters', url);
        expect(errors).toStrictEqual([
          { field: 'email', code: 'invalid_email', message: 'Formato de Email incorrecto' },
        ]);
        expect(await rowsFor(ctx, email.toLowerCase())).toStrictEqual([]);
      },
    );

    it('an e-mail that is not a string → 400 Formato de Email incorrecto', async () => {
      const errors = expectBadRequest(await subscribe(ctx, { email: 42 }), errorMessages.invalidInputParameters, url);
      expect(errors).toStrictEqual([{ field: 'email', code: 'invalid_type', message: ruleMessages.invalidEmail }]);
    });

    it.each([{}, { email: '' }, { email: '   ' }, { email: null }])(
      'a missing or blank e-mail (%j) → 400 Campo Obligatorio',
      async (payload) => {
        const errors = expectBadRequest(await subscribe(ctx, payload), errorMessages.invalidInputParameters, url);
        expect(errors).toStrictEqual([{ field: 'email', code: 'required', message: ruleMessages.required }]);
      },
    );

    it('no body at all → 400 with the error body, not 500', async () => {
      const answer = await call(ctx.app, { method: 'POST', url });
      expectBadRequest(answer, errorMessages.invalidInputParameters, url);
    });

    it('an empty body declared as JSON → 400 with the error body', async () => {
      const answer = await call(ctx.app, {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      expectBadRequest(answer, errorMessages.invalidInputParameters, url);
    });

    it('malformed JSON → 400 with the error body, not 500', async () => {
      const answer = await call(ctx.app, {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '{"email": "ana@example.cl"',
      });
      expectBadRequest(answer, errorMessages.invalidInputParameters, url);
    });

    it('a JSON array instead of an object → 400 with the error body', async () => {
      const answer = await call(ctx.app, {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: '["ana@example.cl"]',
      });
      expectBadRequest(answer, errorMessages.invalidInputParameters, url);
    });

    it('an unknown company → 404 Company not found, and nothing is stored', async () => {
      const path = '/api/companies/999/subscriptions';
      expectError(await subscribe(ctx, { email: 'nadie@example.cl' }, path), 404, errorMessages.companyNotFound, path);
      expect(await rowsFor(ctx, 'nadie@example.cl')).toStrictEqual([]);
    });

    it('a company id beyond the integer column → 404 Company not found, not 500', async () => {
      const path = '/api/companies/2147483648/subscriptions';
      expectError(await subscribe(ctx, { email: 'grande@example.cl' }, path), 404, errorMessages.companyNotFound, path);
      expect(await rowsFor(ctx, 'grande@example.cl')).toStrictEqual([]);
    });

    it('a non-numeric company id → 404 Company not found, and nothing is stored', async () => {
      const path = '/api/companies/abc/subscriptions';
      expectError(await subscribe(ctx, { email: 'abc@example.cl' }, path), 404, errorMessages.companyNotFound, path);
      expect(await rowsFor(ctx, 'abc@example.cl')).toStrictEqual([]);
    });
  },
  env,
);

const confirmUrl = '/api/companies/1/subscriptions/confirmation';
const unsubscribeUrl = '/api/companies/1/subscriptions/unsubscribe';
const confirmWith = (ctx: TestContext, token: unknown, path = confirmUrl) =>
  call(ctx.app, { method: 'POST', url: path, payload: { token } as Record<string, unknown> });

const stateOf = async (ctx: TestContext, email: string) => {
  const [row] = await ctx.database.db.select().from(subscriptions).where(eq(subscriptions.email, email));
  return row;
};

/** The token of the link in the e-mails sent to `email` (the last one), checked to be a link to the store's page. */
function linkTokenOf(email: string): string {
  const mail = mailsTo(email).at(-1);
  const text = mail?.parsed.text ?? '';
  const link = /https:\/\/tienda\.example\.cl\S+/.exec(text)?.[0] ?? '';
  const url = new URL(link);
  expect(url.pathname).toBe(confirmationPath);
  return url.searchParams.get('token') ?? '';
}

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

describeOnEachDatabase(
  'newsletter double opt-in',
  (ctx) => {
    it('a new address is stored pending and e-mailed a link; only once it is opened is it a subscriber', async () => {
      const email = `pendiente.${unique()}@example.cl`;
      expect((await subscribe(ctx, { email })).status).toBe(204);
      expect((await stateOf(ctx, email))?.confirmedAt).toBeNull();
      expect(await listSubscribers(ctx.database.db, 1)).not.toContain(email);

      await ctx.app.runJobs();
      const mails = mailsTo(email);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.parsed.subject).toMatch(/^Confirma tu suscripción/);
      const token = linkTokenOf(email);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const confirmed = await confirmWith(ctx, token);
      expect(confirmed.status, confirmed.text).toBe(204);
      expect((await stateOf(ctx, email))?.confirmedAt).toBeInstanceOf(Date);
      expect(await listSubscribers(ctx.database.db, 1)).toContain(email);
      // Opening the link again still answers «confirmed».
      expect((await confirmWith(ctx, token)).status).toBe(204);
      // A confirmed address that subscribes again gets no e-mail, and stays confirmed.
      expect((await subscribe(ctx, { email })).status).toBe(204);
      await ctx.app.runJobs();
      expect(mailsTo(email)).toHaveLength(1);
      expect((await stateOf(ctx, email))?.confirmedAt).toBeInstanceOf(Date);
    });

    it('subscribing a pending address again sends at most one e-mail an hour, with the same live link', async () => {
      const email = `repetido.${unique()}@example.cl`;
      for (let i = 0; i < 4; i++)
        expect((await subscribe(ctx, { email: i % 2 ? email.toUpperCase() : email })).status).toBe(204);
      await ctx.app.runJobs();
      expect(mailsTo(email)).toHaveLength(1);
      const first = linkTokenOf(email);

      // An hour later, one more request sends one more e-mail (the link sent before still works).
      await ctx.database.db
        .update(subscriptions)
        .set({ confirmationSentAt: sql`now() - interval '61 minutes'` })
        .where(eq(subscriptions.email, email));
      expect((await subscribe(ctx, { email })).status).toBe(204);
      expect((await subscribe(ctx, { email })).status).toBe(204);
      await ctx.app.runJobs();
      expect(mailsTo(email)).toHaveLength(2);
      expect(linkTokenOf(email)).toBe(first);
      expect((await confirmWith(ctx, first)).status).toBe(204);
    });

    it('an unknown or expired token is 404 in the §8 body, and confirms nothing', async () => {
      expectError(await confirmWith(ctx, 'x'.repeat(43)), 404, errorMessages.resourceNotFound, confirmUrl);
      const email = `vencido.${unique()}@example.cl`;
      expect((await subscribe(ctx, { email })).status).toBe(204);
      await ctx.app.runJobs();
      const token = linkTokenOf(email);
      await ctx.database.db
        .update(subscriptions)
        .set({ confirmationExpiresAt: sql`now() - interval '1 second'` })
        .where(eq(subscriptions.email, email));
      expectError(await confirmWith(ctx, token), 404, errorMessages.resourceNotFound, confirmUrl);
      expect((await stateOf(ctx, email))?.confirmedAt).toBeNull();
      // Another company's page cannot confirm it either.
      const other = '/api/companies/999/subscriptions/confirmation';
      expectError(await confirmWith(ctx, token, other), 404, errorMessages.companyNotFound, other);
      // Subscribing again after it expired e-mails a new link (once the hour is over), which works.
      await ctx.database.db
        .update(subscriptions)
        .set({ confirmationSentAt: sql`now() - interval '2 hours'` })
        .where(eq(subscriptions.email, email));
      expect((await subscribe(ctx, { email })).status).toBe(204);
      await ctx.app.runJobs();
      const renewed = linkTokenOf(email);
      expect(renewed).not.toBe(token);
      expect((await confirmWith(ctx, renewed)).status).toBe(204);
    });

    it('every e-mail carries a one-click unsubscribe (RFC 8058) whose signed link removes the address, once', async () => {
      const email = `baja.${unique()}@example.cl`;
      expect((await subscribe(ctx, { email })).status).toBe(204);
      await ctx.app.runJobs();
      const mail = mailsTo(email).at(-1);
      // The header fields as sent (mailparser folds List-* fields into one structured value).
      const head = (mail?.raw.toString('utf8') ?? '').split(/\r?\n\r?\n/)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? '';
      const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'im').exec(head)?.[1]?.trim() ?? '';
      const listUnsubscribe = field('List-Unsubscribe');
      expect(field('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
      const link = new URL(/^<(https:\/\/[^>]+)>$/.exec(listUnsubscribe)?.[1] ?? 'about:blank');
      // Absolute to PUBLIC_URL, the storefront's page; the same link is in the text for people.
      expect(link.origin).toBe('https://tienda.example.cl');
      expect(link.pathname).toBe(unsubscribePath);
      expect(mail?.parsed.text).toContain(link.href);
      const token = link.searchParams.get('token') ?? '';
      expect(token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);

      const leave = (value: string) =>
        call(ctx.app, { method: 'POST', url: unsubscribeUrl, payload: { token: value } });
      // Another id with this signature, or this id with another, is not a link the store made: 404, nothing removed.
      const [id, mac] = token.split('.');
      for (const forged of [
        `${Number(id) + 1}.${mac}`,
        `${id}.${'A'.repeat(43)}`,
        unsubscribeToken('other-secret', Number(id)),
      ]) {
        expectError(await leave(forged), 404, errorMessages.resourceNotFound, unsubscribeUrl);
      }
      expect(await stateOf(ctx, email)).toBeDefined();
      const left = await leave(token);
      expect(left.status, left.text).toBe(204);
      expect(await stateOf(ctx, email)).toBeUndefined();
      // A second click (or a mail client's retry) answers the same, and nothing else changes.
      expect((await leave(token)).status).toBe(204);
      expect(await listSubscribers(ctx.database.db, 1)).not.toContain(email);
    });

    it('a token that is missing, blank or too long → 400 naming token', async () => {
      for (const token of [undefined, '', 'y'.repeat(101)]) {
        const errors = expectBadRequest(
          await confirmWith(ctx, token),
          errorMessages.invalidInputParameters,
          confirmUrl,
        );
        expect(errors.map((error) => error.field)).toStrictEqual(['token']);
      }
    });
  },
  env,
);
