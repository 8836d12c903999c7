import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { consoleApi, reportingRefusals } from './cli-client.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { ApiError } from './errors.ts';
import { printable } from './lib/security/terminal-text.ts';
import { countActiveWithRole } from './modules/operators/repository.ts';
import {
  consoleOrigin,
  enrolmentUrl,
  inviteOperator,
  operatorDeps,
  type Role,
  roleList,
} from './modules/operators/service.ts';
import { openCliDatabase } from './startup.ts';

/** An id no operator has: `countActiveWithRole` then counts every active administrator. */
const noOperator = '00000000-0000-0000-0000-000000000000';

const usage = `Usage:
  npm run operators -- invite --email x@y.cl --role admin [--role finance …] [--name "…"]

Invites an operator to the console and prints a one-time enrolment link (valid 24 hours): the operator opens it,
scans the TOTP secret, chooses a password and keeps the 10 recovery codes. Roles: ${roleList.join(', ')} (--role a,b
works too).
- With TRAVESIA_API_KEY (an API key with role admin, made in «Claves API») it goes through the console API
  (TRAVESIA_API_URL, default http://localhost:3000), audited as that key.
- Without it, only the first administrator is made, on the database the server uses (DATABASE_URL, else the
  embedded one in DATA_DIR: stop the server first), and only while no administrator is active. Once one is, invite
  from the console («Operadores») or with an API key.`;

/**
 * Runs the CLI; answers the exit code. `opened` lets tests bootstrap on their own database and configuration, `env`
 * gives TRAVESIA_API_URL and TRAVESIA_API_KEY.
 */
export async function runOperatorsCli(
  args: string[],
  opened?: { db: Database; config: Config },
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n${usage}`);
    return 1;
  }
  const { positionals, values } = parsed;
  const roles = (values.role ?? [])
    .flatMap((role) => role.split(','))
    .map((role) => role.trim())
    .filter(Boolean);
  const email = z.email().max(254).safeParse(values.email?.trim());
  const badRole = roles.find((role) => !(roleList as readonly string[]).includes(role));
  if (positionals[0] !== 'invite' || positionals.length !== 1 || !email.success || roles.length === 0 || badRole) {
    if (badRole) console.error(printable(`Unknown role: ${badRole}`));
    console.error(usage);
    return 1;
  }
  const name = values.name?.trim().slice(0, 120) || undefined;
  const wanted = { email: email.data, roles: roles as Role[], ...(name ? { name } : {}) };
  if (env.TRAVESIA_API_KEY?.trim()) {
    return reportingRefusals(async () => {
      const answer = await consoleApi(env).json<{ operator: { email: string; roles: string[] }; enrolmentUrl: string }>(
        'POST',
        '/operators',
        wanted,
      );
      printInvited(answer.operator, answer.enrolmentUrl);
      return 0;
    });
  }
  const { config, database } = await openCliDatabase(opened);
  try {
    // The bootstrap: the database directly, only for the first administrator (no other way to make one).
    if ((await countActiveWithRole(database.db, 'admin', noOperator)) > 0) {
      console.error(
        'An administrator already exists: invite operators from the console («Operadores»), or run this with ' +
          'TRAVESIA_API_KEY set to an API key with role admin («Claves API»).',
      );
      return 1;
    }
    if (!wanted.roles.includes('admin')) {
      console.error('No administrator yet: the first operator invited here must have the role admin (--role admin).');
      return 1;
    }
    const deps = operatorDeps(database.db, config.backoffice.secretsKey);
    const actor = { label: `cli:${userInfo().username}`, ip: null };
    const { operator, token } = await inviteOperator(deps, actor, wanted);
    printInvited(operator, enrolmentUrl(consoleOrigin(config), token));
    return 0;
  } catch (error) {
    if (error instanceof ApiError) {
      console.error(printable(`Error: ${error.fieldErrors.map((e) => e.message).join('; ') || error.detail}`));
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

function printInvited(operator: { email: string; roles: readonly string[] }, link: string) {
  console.log(
    printable(`Invited ${operator.email} (${operator.roles.join(', ')}). One-time enrolment link, valid 24 hours:`),
  );
  console.log(link);
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    options: { email: { type: 'string' }, role: { type: 'string', multiple: true }, name: { type: 'string' } },
  });
}

if (process.argv[1] && /operators-cli\.(ts|js)$/.test(process.argv[1])) {
  runOperatorsCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(printable(`Error: ${error instanceof Error ? error.message : String(error)}`));
      process.exit(1);
    },
  );
}
