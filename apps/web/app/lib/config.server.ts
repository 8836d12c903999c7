import { z } from 'zod';

/**
 * The storefront's configuration: every environment variable it reads, parsed once by one zod schema, with the
 * defaults for local use (like the API's apps/api/src/config.ts). A wrong value stops the server at start with a
 * one-line error that names the variable.
 */
const schema = z
  .object({
    NODE_ENV: z.string().default('development'),
    /**
     * A real store (`production`) or a local one; unset, NODE_ENV=production means production. The API reads the
     * same variable the same way (apps/api/src/config.ts, docs/decisions/012-production-mode-and-deployment.md).
     */
    DEPLOYMENT: z.enum(['local', 'production'], { error: 'must be local or production' }).optional(),
    /** The company this storefront sells for (spec §1). */
    COMPANY_ID: z.coerce
      .number({ error: 'must be a whole number greater than 0' })
      .int('must be a whole number greater than 0')
      .positive('must be a whole number greater than 0')
      .default(1),
    /** Where the API answers when it does not serve the storefront in-process. */
    API_BASE_URL: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
      .default('http://localhost:3000/api'),
    /** Signs the storefront's cookies; required in production. */
    COOKIE_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  })
  .superRefine((env, ctx) => {
    if (productionDeployment(env) && !env.COOKIE_SECRET) {
      const because = env.DEPLOYMENT ? 'DEPLOYMENT=production' : 'NODE_ENV=production';
      ctx.addIssue({ code: 'custom', path: ['COOKIE_SECRET'], message: `is required when ${because}` });
    }
  });

function productionDeployment(env: { NODE_ENV: string; DEPLOYMENT?: 'local' | 'production' | undefined }): boolean {
  return (env.DEPLOYMENT ?? (env.NODE_ENV === 'production' ? 'production' : 'local')) === 'production';
}

export type WebConfig = {
  /** A production deployment (a real store): its cookies are Secure and its COOKIE_SECRET is required. */
  production: boolean;
  companyId: number;
  apiBaseUrl: string;
  cookieSecret: string | undefined;
};

export class WebConfigError extends Error {
  override name = 'WebConfigError';
}

/** An empty variable counts as unset, as in the API's configuration. */
const withoutEmpty = (env: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));

export function loadWebConfig(env: Record<string, string | undefined>): WebConfig {
  const parsed = schema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new WebConfigError(`Invalid storefront configuration: ${name} ${issue?.message ?? 'is invalid'}`);
  }
  const e = parsed.data;
  return {
    production: productionDeployment(e),
    companyId: e.COMPANY_ID,
    apiBaseUrl: e.API_BASE_URL,
    cookieSecret: e.COOKIE_SECRET,
  };
}

/** Parsed when the server build is loaded, so a wrong value stops the start, not the first request. */
export const webConfig: WebConfig = loadWebConfig(process.env);
