import { describe, expect, it } from 'vitest';
import { loadWebConfig, WebConfigError } from './config.server.ts';
import { cookieSecrets } from './secrets.server.ts';

const secret = 's'.repeat(32);

describe('loadWebConfig', () => {
  it('has defaults for local use', () => {
    expect(loadWebConfig({})).toEqual({
      production: false,
      companyId: 1,
      apiBaseUrl: 'http://localhost:3000/api',
      cookieSecret: undefined,
    });
  });
  it('reads COMPANY_ID, API_BASE_URL, COOKIE_SECRET and NODE_ENV', () => {
    expect(
      loadWebConfig({
        NODE_ENV: 'production',
        COMPANY_ID: '7',
        API_BASE_URL: 'https://api.example.cl/api',
        COOKIE_SECRET: secret,
      }),
    ).toEqual({ production: true, companyId: 7, apiBaseUrl: 'https://api.example.cl/api', cookieSecret: secret });
  });
  it('DEPLOYMENT=local: React may run in production (NODE_ENV) on a local store, with no secret and plain cookies', () => {
    expect(loadWebConfig({ NODE_ENV: 'production', DEPLOYMENT: 'local' })).toEqual({
      production: false,
      companyId: 1,
      apiBaseUrl: 'http://localhost:3000/api',
      cookieSecret: undefined,
    });
    expect(loadWebConfig({ DEPLOYMENT: 'production', COOKIE_SECRET: secret }).production).toBe(true);
  });
  it('treats an empty variable as unset', () => {
    expect(loadWebConfig({ COMPANY_ID: '', API_BASE_URL: '' })).toMatchObject({ companyId: 1 });
  });
  it.each([
    [{ COMPANY_ID: 'abc' }, 'COMPANY_ID must be a whole number greater than 0'],
    [{ COMPANY_ID: '0' }, 'COMPANY_ID must be a whole number greater than 0'],
    [{ COMPANY_ID: '1.5' }, 'COMPANY_ID must be a whole number greater than 0'],
    [{ API_BASE_URL: 'localhost:3000' }, 'API_BASE_URL must be an absolute http(s) URL'],
    [{ API_BASE_URL: 'ftp://example.cl/api' }, 'API_BASE_URL must be an absolute http(s) URL'],
    [{ COOKIE_SECRET: 'short' }, 'COOKIE_SECRET must be at least 32 characters'],
    [{ NODE_ENV: 'production' }, 'COOKIE_SECRET is required when NODE_ENV=production'],
    [{ DEPLOYMENT: 'production' }, 'COOKIE_SECRET is required when DEPLOYMENT=production'],
    [{ NODE_ENV: 'production', DEPLOYMENT: 'production' }, 'COOKIE_SECRET is required when DEPLOYMENT=production'],
    [{ DEPLOYMENT: 'staging' }, 'DEPLOYMENT must be local or production'],
  ])('%o stops the start: %s', (env, message) => {
    const load = () => loadWebConfig(env);
    expect(load).toThrow(WebConfigError);
    expect(load).toThrow(`Invalid storefront configuration: ${message}`);
  });
  it('says it on one line', () => {
    try {
      loadWebConfig({ COMPANY_ID: 'x' });
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('\n');
    }
  });
});

describe('cookieSecrets', () => {
  it('uses COOKIE_SECRET, else the public development secret', () => {
    expect(cookieSecrets({ cookieSecret: secret })).toEqual([secret]);
    expect(cookieSecrets({ cookieSecret: undefined })[0]).toMatch(/development/);
  });
});
