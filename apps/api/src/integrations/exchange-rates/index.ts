import type { ExchangeRatesConfig } from '#app/config.ts';
import { bcchSource } from './bcch.ts';
import { mindicadorSource } from './mindicador.ts';
import type { ExchangeRateSource } from './source.ts';

export type { ExchangeRateSource, PublishedRate } from './source.ts';
export { ExchangeRateSourceError } from './source.ts';

/** The source EXCHANGE_RATE_SOURCE names; none for `manual` (rates are entered in the console only). */
export function createExchangeRateSource(config: ExchangeRatesConfig): ExchangeRateSource | undefined {
  switch (config.source) {
    case 'bcch':
      return bcchSource({ ...config.bcch, timeoutMs: config.timeoutMs });
    case 'mindicador':
      return mindicadorSource({ url: config.mindicadorUrl, timeoutMs: config.timeoutMs });
    default:
      return undefined;
  }
}
