import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { ApiError } from './errors.ts';
import { printable } from './lib/security/terminal-text.ts';
import {
  consoleOrigin,
  enrolmentUrl,
  inviteOperator,
  operatorDeps,
  type Role,
  roleList,
} from './modules/operators/service.ts';
import { openCliDatabase } from './startup.ts';

const usage = `Usage:
  npm run operators -- invite --email x@y.cl --role admin [--role finance …] [--name "…"]

Invites an operator to the console and prints a one-time enrolment link (valid 24 hours): the operator opens it,
scans the TOTP secret, chooses a password and keeps the 10 recovery codes. This is how the first administrator is
made; later ones are invited from the console («Operadores»). Roles: ${roleList.join(', ')} (--role a,b works too).
Works on the database the server uses (DATABASE_URL, else the embedded one in DATA_DIR: stop the server first).`;

/** Runs the CLI; answers the exit code. `opened` lets tests run it on their own database and configuration. */
export async function runOperatorsCli(args: string[], opened?: { db: Database; config: Config }): Promise<number> {
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
  const { config, database } = await openCliDatabase(opened);
  try {
    const deps = operatorDeps(database.db, config.backoffice.secretsKey);
    const actor = { label: `cli:${userInfo().username}`, ip: null };
    const name = values.name?.trim().slice(0, 120) || null;
    const { operator, token } = await inviteOperator(deps, actor, { email: email.data, name, roles: roles as Role[] });
    console.log(
      printable(`Invited ${operator.email} (${operator.roles.join(', ')}). One-time enrolment link, valid 24 hours:`),
    );
    console.log(enrolmentUrl(consoleOrigin(config), token));
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
