import { errorMessages } from '@travesia/domain/messages';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import {
  countEmails,
  givenConsents,
  paidSale,
  passengersBody,
  postPayment,
  putPassengers,
  readyToPay,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call, expectError, get } from './support/http.ts';
import { type FakeSmtp, startFakeSmtp } from './support/smtp.ts';
import { createQuotation } from './support/trips.ts';

/**
 * Logs must not carry personal data: a failed query's message quotes its parameters (RUTs, e-mails, phones), an
 * SMTP rejection quotes the addresses. These suites build the app with a logger writing to an array and read it.
 */

type LoggedApp = { app: FastifyInstance; lines: string[]; context: TestContext };

/** A second app on the suite's database and configuration, whose pino logger writes every line into `lines`. */
function useLoggedApp(ctx: TestContext): LoggedApp {
  const logged = { lines: [] as string[] } as LoggedApp;
  beforeAll(async () => {
    logged.app = await buildApp({
      config: ctx.config,
      db: ctx.database.db,
      logger: { level: 'trace', stream: { write: (line: string) => logged.lines.push(line) } },
    });
    await logged.app.ready();
    logged.context = { ...ctx, app: logged.app };
  });
  afterAll(async () => {
    await logged.app?.runJobs();
    await logged.app?.close();
  });
  return logged;
}

/** Everything personal the reference checkout sends: names, documents, e-mails, phones. */
const personalData = [
  ...travellers.flatMap((t) => [t.firstName, t.lastName, t.email, t.documentId, t.documentId.replace(/\D/g, '')]),
  '+56 9 1234 5678',
  '+56 2 2345 6789',
  'Pedro',
];

function expectNoPersonalData(lines: string[]) {
  expect(lines.length).toBeGreaterThan(0);
  const text = lines.join('\n');
  for (const value of personalData) expect(text, `the logs contain ${value}`).not.toContain(value);
}

const parsed = (lines: string[]) => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describeOnEachDatabase('logs: a database error while saving travellers', (ctx) => {
  const logged = useLoggedApp(ctx);

  beforeAll(async () => {
    // A real failure of the insert, whose DrizzleQueryError quotes every parameter (and PostgreSQL's detail the row).
    await ctx.database.db.execute(
      sql.raw(`ALTER TABLE travellers ADD CONSTRAINT logs_test_refuses CHECK (email <> '${travellers[0]?.email}')`),
    );
  });

  it('PUT passangers → 500 with the §8 body; the log line names the error and its codes, no RUT, e-mail or phone', async () => {
    const id = await createQuotation(logged.context);
    logged.lines.length = 0;
    const url = `/api/quotations/${id}/passangers`;
    expectError(await putPassengers(logged.context, id, passengersBody()), 500, errorMessages.internal, url);

    expectNoPersonalData(logged.lines);
    const failure = parsed(logged.lines).find((line) => line.msg === 'unhandled error');
    expect(failure?.error).toStrictEqual({ type: 'DrizzleQueryError', causeCode: '23514' });
    expect(JSON.stringify(logged.lines)).not.toMatch(/insert into|params|Failing row/i);
    expect((await get(ctx.app, url)).status).toBe(404); // nothing stored
  });
});

describeOnEachDatabase('logs: a whole purchase', (ctx) => {
  const logged = useLoggedApp(ctx);

  it('each request line names its route pattern, never the path: no quotation id, sale id or gateway token', async () => {
    logged.lines.length = 0;
    const sale = await paidSale(logged.context);
    expect((await get(logged.app, `/api/quotations/1/${sale.quotationId}`)).status).toBe(200);
    const token = new URL(sale.redirectUrl).pathname.split('/').pop() ?? '';
    expect(token).toMatch(/^sbx_/);

    const text = logged.lines.join('\n');
    expect(text, 'a quotation id in the logs').not.toContain(sale.quotationId);
    expect(text, 'a gateway token in the logs').not.toContain(token);
    expect(text, 'a sale id in a logged path').not.toContain(`payment-result/${sale.idVenta}`);
    expect(text).not.toMatch(/venta=|token_ws=/);
    const requests = parsed(logged.lines).filter((line) => line.msg === 'request');
    expect(requests.every((line) => line.path === undefined && typeof line.route === 'string')).toBe(true);
    expect(new Set(requests.map((line) => line.route))).toStrictEqual(
      new Set([
        '/api/quotations/:companyId',
        '/api/quotations/:quotationId/passangers',
        '/api/quotations/:quotationId/invoice-details',
        '/api/payments',
        '/api/payments/sandbox/:token',
        '/api/payments/return/:gatewayId',
        '/api/companies/:idTransaction/payment-result/:idVenta',
        '/api/quotations/:companyId/:quotationId',
      ]),
    );
  });
});

describeOnEachDatabase('logs: payment steps that fail in the database', (ctx) => {
  const logged = useLoggedApp(ctx);

  it('a gateway start whose insert fails → 502 §8; logged with codes only, not the SQL nor its parameters', async () => {
    const quotationId = await readyToPay(logged.context);
    // A real failure of the sandbox gateway's insert, whose DrizzleQueryError quotes its parameters (the quotation id).
    await ctx.database.db.execute(
      sql.raw('ALTER TABLE sandbox_transactions ADD CONSTRAINT logs_test_refuses CHECK (amount_clp < 0)'),
    );
    logged.lines.length = 0;
    const answer = await postPayment(logged.context, { quotationId, gatewayId: 'sandbox', consents: givenConsents });
    expectError(answer, 502, errorMessages.unexpected, '/api/payments');

    const text = logged.lines.join('\n');
    expect(text, 'an SQL parameter (the quotation id) in the logs').not.toContain(quotationId);
    expect(text).not.toMatch(/insert into|params:|sandbox_transactions|Failed query/i);
    const failure = parsed(logged.lines).find((line) => line.msg === 'gateway start failed');
    expect(failure?.error).toStrictEqual({ type: 'DrizzleQueryError', causeCode: '23514' });
  });

  it('a gateway return whose lookup fails → 303 /error; logged with codes only, not the SQL nor the token', async () => {
    const token = 'sbx_0123456789abcdef_must_not_be_logged';
    await ctx.database.db.execute(sql.raw('ALTER TABLE payments RENAME TO payments_away'));
    try {
      logged.lines.length = 0;
      const answer = await call(logged.app, { method: 'GET', url: `/api/payments/return/sandbox?token_ws=${token}` });
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toBe('/error?motivo=desconocido');
    } finally {
      await ctx.database.db.execute(sql.raw('ALTER TABLE payments_away RENAME TO payments'));
    }
    const text = logged.lines.join('\n');
    expect(text, 'an SQL parameter (the token) in the logs').not.toContain(token);
    expect(text).not.toMatch(/select|params:|Failed query|relation "/i);
    const failure = parsed(logged.lines).find((line) => line.msg === 'payment return not matched');
    expect(failure).toMatchObject({ gatewayId: 'sandbox', error: { type: 'DrizzleQueryError', causeCode: '42P01' } });
  });
});

const env: NodeJS.ProcessEnv = {};
let smtp: FakeSmtp;
useTemporaryDataDir(env);
beforeAll(async () => {
  smtp = await startFakeSmtp({ rejectRecipients: true });
  env.SMTP_URL = smtp.url;
});
afterAll(async () => {
  await smtp?.close();
});

describeOnEachDatabase(
  'logs: an SMTP server that rejects the recipients',
  (ctx) => {
    const logged = useLoggedApp(ctx);

    it('the failed certificate e-mail is logged with the SMTP response code and error code only, no address', async () => {
      const sale = await paidSale(logged.context);
      await logged.app.runJobs();
      expect(smtp.received).toHaveLength(0);
      expect(await countEmails(ctx, sale.idVenta)).toBe(1);

      expectNoPersonalData(logged.lines);
      const failure = parsed(logged.lines).find((line) => line.msg === 'job failed');
      expect(failure).toMatchObject({
        kind: 'certificate-email',
        saleId: sale.idVenta,
        attempt: 1,
        giveUp: false,
        responseCode: 550,
      });
      expect(failure?.code).toEqual(expect.any(String));
      expect(JSON.stringify(logged.lines)).not.toMatch(/rejected|User unknown/i);
    });
  },
  env,
);

describe('loggableError', () => {
  it('keeps the name, code and frames of an ordinary error, never its message', () => {
    const error = Object.assign(new TypeError('cannot read ana@example.cl'), { code: 'ERR_X' });
    const loggable = loggableError(error);
    expect(loggable).toMatchObject({ type: 'TypeError', code: 'ERR_X' });
    expect(loggable.stack).toMatch(/^\s+at /);
    expect(JSON.stringify(loggable)).not.toContain('ana@example.cl');
  });

  it('a database error keeps only its name and codes: no message, no parameters, no stack', () => {
    const cause = Object.assign(new Error('duplicate key (rut)=(12.345.678-5)'), {
      name: 'DatabaseError',
      code: '23505',
      severity: 'ERROR',
      detail: 'Key (rut)=(12.345.678-5) already exists.',
    });
    const error = Object.assign(new Error('Failed query: insert into "x" values ($1)\nparams: 12.345.678-5'), {
      cause,
    });
    expect(loggableError(error)).toStrictEqual({ type: 'Error', causeCode: '23505' });
    expect(loggableError(cause)).toStrictEqual({ type: 'DatabaseError', code: '23505' });
  });

  it('a code that reads like a message is left out', () => {
    expect(loggableError(Object.assign(new Error('x'), { code: 'rejected ana@example.cl' })).code).toBeUndefined();
  });
});
