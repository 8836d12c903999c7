import { expect, it } from 'vitest';
import {
  asOperator,
  enrolledOperator,
  invite,
  type Operator,
  secondFactorStep,
  signInStep,
  strongPassword,
  TestClock,
  totpCode,
} from './support/backoffice.ts';
import { describeOnEachDatabase, type TestContext } from './support/harness.ts';
import { call } from './support/http.ts';

/**
 * Two operators acting on one item at once (issue 24): on PostgreSQL the requests really run in parallel on the
 * pool, so exactly one wins each race; on PGlite they take turns and the same holds. Many rounds each.
 */

const clock = new TestClock();
const rounds = 8;

const challengeFor = async (ctx: TestContext, operator: Operator, address: string) => {
  const answer = await signInStep(ctx, operator.email, strongPassword, address);
  expect(answer.status, answer.text).toBe(200);
  return answer.json<{ challenge: string }>().challenge;
};

describeOnEachDatabase(
  'Operator console: races',
  (ctx) => {
    it("two administrators changing one operator's roles at the same version: one wins, the other gets 409 stale", async () => {
      const first = await enrolledOperator(ctx, 'a1@travesia.cl', ['admin'], clock);
      const second = await enrolledOperator(ctx, 'a2@travesia.cl', ['admin'], clock);
      const target = await invite(ctx, 'objetivo@travesia.cl', ['support'], clock);
      for (let round = 0; round < rounds; round++) {
        const read = await asOperator(ctx, first, 'GET', '/api/backoffice/operators');
        const current = read
          .json<{ operators: { id: string; version: number }[] }>()
          .operators.find((o) => o.id === target.id);
        const version = current?.version as number;
        const answers = await Promise.all([
          asOperator(ctx, first, 'PATCH', `/api/backoffice/operators/${target.id}`, { roles: ['finance'], version }),
          asOperator(ctx, second, 'PATCH', `/api/backoffice/operators/${target.id}`, { roles: ['content'], version }),
        ]);
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses, answers.map((a) => a.text).join('\n')).toStrictEqual([200, 409]);
        const loser = answers.find((answer) => answer.status === 409);
        expect(loser?.json()).toMatchObject({ errors: [{ field: 'version', code: 'stale' }] });
        const winner = answers
          .find((answer) => answer.status === 200)
          ?.json<{ operator: { roles: string[]; version: number } }>();
        expect(winner?.operator.version).toBe(version + 1);
        const audit = await asOperator(ctx, first, 'GET', `/api/backoffice/audit?action=operator.update`);
        const rows = audit.json<{ entries: { targetId: string }[] }>().entries.filter((e) => e.targetId === target.id);
        expect(rows).toHaveLength(round + 1);
      }
    });

    it('one recovery code used on two challenges at once signs in exactly once', async () => {
      const operator = await enrolledOperator(ctx, 'codigos@travesia.cl', ['support'], clock);
      for (let round = 0; round < rounds; round++) {
        const code = operator.recoveryCodes[round] as string;
        const [one, two] = await Promise.all([
          challengeFor(ctx, operator, `10.8.${round}.1`),
          challengeFor(ctx, operator, `10.8.${round}.2`),
        ]);
        const answers = await Promise.all([
          secondFactorStep(ctx, one, code, `10.8.${round}.1`),
          secondFactorStep(ctx, two, code, `10.8.${round}.2`),
        ]);
        expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 401]);
        // The loser's failure counts toward the lockout: clear it by moving past the window now and then.
        clock.advance(16 * 60_000);
      }
    });

    it('one enrolment link completed twice at once enrols once', async () => {
      for (let round = 0; round < rounds / 2; round++) {
        const email = `doble${round}@travesia.cl`;
        const { token } = await invite(ctx, email, ['support'], clock);
        const page = await call(ctx.app, { method: 'GET', url: `/api/backoffice/enrolment/${token}` });
        const { secret } = page.json<{ totp: { secret: string } }>().totp;
        const body = { name: 'Doble', password: strongPassword, totpCode: totpCode(secret, clock) };
        const answers = await Promise.all(
          [1, 2].map(() => call(ctx.app, { method: 'POST', url: `/api/backoffice/enrolment/${token}`, payload: body })),
        );
        expect(answers.map((answer) => answer.status).sort()).toStrictEqual([200, 404]);
      }
    });
  },
  {},
  { now: clock.now },
);
