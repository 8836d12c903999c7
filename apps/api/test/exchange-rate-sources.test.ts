import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#app/config.ts';
import { bcchSource } from '#app/integrations/exchange-rates/bcch.ts';
import { ExchangeRateSourceError } from '#app/integrations/exchange-rates/index.ts';
import { mindicadorSource } from '#app/integrations/exchange-rates/mindicador.ts';
import type { ExchangeRateSource } from '#app/integrations/exchange-rates/source.ts';
import { type FakeExchangeRates, startFakeExchangeRates } from './support/fake-exchange-rates.ts';

/**
 * The exchange-rate adapters (issue 25, item 4) against their formats on loopback: the newest published day, a
 * weekend (no new value, no error), an outage, a source that hangs, refused credentials and answers that are not a
 * rate. And the configuration that chooses them.
 */

let fake: FakeExchangeRates;
beforeAll(async () => {
  fake = await startFakeExchangeRates();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.mode = 'ok';
  fake.series = [];
});

const sources = (): ExchangeRateSource[] => [
  bcchSource({ url: fake.bcchUrl, user: 'tesoreria@travesia.cl', password: 'clave-bcch', timeoutMs: 300 }),
  mindicadorSource({ url: fake.mindicadorUrl, timeoutMs: 300 }),
];

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ExchangeRateSourceError);
  return (error as ExchangeRateSourceError).reason;
};

describe('exchange-rate sources', () => {
  it('answer the newest published day up to the day asked, with 4 decimals', async () => {
    fake.series = [
      { day: '2026-11-25', value: '941.10' },
      { day: '2026-11-26', value: '943.5' },
      { day: '2026-11-27', value: '945.32' },
    ];
    for (const source of sources()) {
      expect(await source.latest('2026-11-27'), source.id).toStrictEqual({ day: '2026-11-27', clpPerUsd: '945.3200' });
      // A day asked for before the newest: that day's, never a later one.
      expect(await source.latest('2026-11-26'), source.id).toStrictEqual({ day: '2026-11-26', clpPerUsd: '943.5000' });
    }
    expect(
      fake.requests.some((r) => r.includes('timeseries=F073.TCO.PRE.Z.D') && r.includes('function=GetSeries')),
    ).toBe(true);
    expect(fake.requests.some((r) => r.includes('firstdate=2026-11-17&lastdate=2026-11-27'))).toBe(true);
  });

  it('on a weekend answer Friday’s rate (BCCh sends NaN for Saturday and Sunday), and null when nothing was published', async () => {
    fake.series = [
      { day: '2026-11-27', value: '945.32' },
      { day: '2026-11-28', value: 'NaN' },
      { day: '2026-11-29', value: 'NaN' },
    ];
    for (const source of sources()) {
      expect(await source.latest('2026-11-29'), source.id).toStrictEqual({ day: '2026-11-27', clpPerUsd: '945.3200' });
    }
    fake.series = [{ day: '2026-11-29', value: 'NaN' }];
    for (const source of sources()) expect(await source.latest('2026-11-29'), source.id).toBeNull();
  });

  it('an outage (503), a source that does not answer in time, and garbage are errors naming what happened', async () => {
    fake.series = [{ day: '2026-11-27', value: '945.32' }];
    fake.mode = 'outage';
    for (const source of sources()) expect(await failure(source.latest('2026-11-27'))).toBe('status 503');
    fake.mode = 'hang';
    for (const source of sources()) expect(await failure(source.latest('2026-11-27'))).toBe('timeout');
    fake.mode = 'garbage';
    const [bcch, mindicador] = sources();
    expect(await failure((bcch as ExchangeRateSource).latest('2026-11-27'))).toMatch(/not a positive number/);
    expect(await failure((mindicador as ExchangeRateSource).latest('2026-11-27'))).toMatch(/not JSON/);
  });

  it('a zero or negative value is never a rate', async () => {
    for (const value of ['0', '-945.32', '0.00']) {
      fake.series = [{ day: '2026-11-27', value }];
      for (const source of sources()) {
        expect(await failure(source.latest('2026-11-27')), `${source.id} ${value}`).toMatch(/not a positive number/);
      }
    }
  });

  it('BCCh refusing the user or password (Codigo -5) is an error that says so', async () => {
    const wrong = bcchSource({ url: fake.bcchUrl, user: 'tesoreria@travesia.cl', password: 'otra', timeoutMs: 300 });
    expect(await failure(wrong.latest('2026-11-27'))).toBe('credentials refused (Codigo -5)');
  });

  it('an unreachable source (nothing listening) is an error, not a crash', async () => {
    const gone = mindicadorSource({ url: 'http://127.0.0.1:9', timeoutMs: 300 });
    expect(await failure(gone.latest('2026-11-27'))).toBe('unreachable');
  });
});

describe('exchange-rate configuration', () => {
  it('is manual by default: npm start needs nothing', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).exchangeRates).toMatchObject({ source: 'manual', timeoutMs: 10_000 });
  });

  it('refuses to start with EXCHANGE_RATE_SOURCE=bcch and no credentials, or an unknown source', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', EXCHANGE_RATE_SOURCE: 'bcch' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'test', EXCHANGE_RATE_SOURCE: 'bcch', BCCH_USER: 'a@b.cl' })).toThrow(
      /BCCH_USER and BCCH_PASSWORD/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', EXCHANGE_RATE_SOURCE: 'yahoo' })).toThrow(
      /EXCHANGE_RATE_SOURCE must be manual, bcch or mindicador/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', MINDICADOR_URL: 'ftp://x' })).toThrow(/MINDICADOR_URL/);
  });

  it('takes bcch with its credentials, and warns about credentials nobody uses', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      EXCHANGE_RATE_SOURCE: 'bcch',
      BCCH_USER: 'tesoreria@travesia.cl',
      BCCH_PASSWORD: 'clave',
    });
    expect(config.exchangeRates.bcch).toMatchObject({ user: 'tesoreria@travesia.cl', password: 'clave' });
    const unused = loadConfig({ NODE_ENV: 'test', BCCH_USER: 'tesoreria@travesia.cl', BCCH_PASSWORD: 'clave' });
    expect(unused.warnings.join('\n')).toMatch(/EXCHANGE_RATE_SOURCE=manual/);
  });
});
