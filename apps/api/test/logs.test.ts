import { errorMessages } from '@travesia/domain/messages';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#app/app.ts';
import { loggableError } from '#app/lib/loggable-error.ts';
import {
  countEmails,
  paidSale,
  passengersBody,
  putPassengers,
  travellers,
  useTemporaryDataDir,
} from './support/checkout.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { expectError, get } from './support/http.ts';
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
    await logged.app?.flushOutbox();
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
      await logged.app.flushOutbox();
      expect(smtp.received).toHaveLength(0);
      expect(await countEmails(ctx, sale.idVenta)).toBe(1);

      expectNoPersonalData(logged.lines);
      const failure = parsed(logged.lines).find((line) => line.msg === 'certificate e-mail failed');
      expect(failure).toMatchObject({ saleId: sale.idVenta, attempt: 1, giveUp: false, responseCode: 550 });
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
