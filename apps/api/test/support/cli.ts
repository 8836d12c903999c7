import type { AddressInfo } from 'node:net';
import { createApiKey, operatorDeps, type Role } from '#app/modules/operators/service.ts';
import type { TestContext } from './harness.ts';

/**
 * The operator's CLIs as they run in production: against the app listening on a loopback port, with a real API key
 * (made as «Claves API» makes one). Answers the CLI's environment (TRAVESIA_API_URL, TRAVESIA_API_KEY).
 */
export async function cliEnvironment(ctx: TestContext, roles: Role[], name = `cli-${roles.join('-')}`) {
  if (!ctx.app.server.listening) await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  const { apiKey, secret } = await testApiKey(ctx, roles, name);
  return { apiKey, env: { TRAVESIA_API_URL: `http://127.0.0.1:${port}`, TRAVESIA_API_KEY: secret } };
}

/** A live API key with `roles`, as «Claves API» makes one (valid a day by the app's clock); its secret answered once. */
export async function testApiKey(ctx: TestContext, roles: Role[], name: string) {
  const now = () => ctx.app.clock();
  const deps = operatorDeps(ctx.app.db, ctx.config.backoffice.secretsKey, now);
  const expiresAt = new Date(now().getTime() + 86_400_000);
  return createApiKey(deps, { label: 'test', ip: null }, { name, roles, expiresAt });
}

/** Runs a CLI, answering its exit code and what it printed (out, err). */
export async function captured(run: () => Promise<number>) {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (line: string) => out.push(line);
  console.error = (line: string) => err.push(line);
  try {
    const code = await run();
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}
