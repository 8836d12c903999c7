import { addDays, chileDateOf } from '@travesia/domain/dates';
import {
  type ExchangeRateSource,
  ExchangeRateSourceError,
  getJson,
  lookBackDays,
  type PublishedRate,
  parseRate,
} from './source.ts';

export type MindicadorSettings = { url: string; timeoutMs: number };

/**
 * mindicador.cl, a free public mirror of the Bank's indicators: `GET /api/dolar` answers the last month of the
 * «dólar observado» as `{ codigo: 'dolar', unidad_medida: 'Pesos', serie: [{ fecha: ISO instant of the Chile
 * midnight, valor: number }] }`, newest first; days without a rate are simply absent. No credentials.
 */
export function mindicadorSource(settings: MindicadorSettings): ExchangeRateSource {
  return {
    id: 'mindicador',
    label: 'mindicador.cl (dólar observado del Banco Central)',
    async latest(day) {
      const answer = (await getJson('mindicador', `${settings.url}/api/dolar`, settings.timeoutMs)) as {
        codigo?: unknown;
        serie?: unknown;
      } | null;
      if (typeof answer !== 'object' || answer === null || answer.codigo !== 'dolar' || !Array.isArray(answer.serie)) {
        throw new ExchangeRateSourceError('mindicador', 'unreadable answer (not the dolar series)');
      }
      const oldest = addDays(day, -lookBackDays);
      let newest: PublishedRate | null = null;
      for (const point of answer.serie as { fecha?: unknown; valor?: unknown }[]) {
        const instant = typeof point?.fecha === 'string' ? Date.parse(point.fecha) : Number.NaN;
        if (Number.isNaN(instant)) throw new ExchangeRateSourceError('mindicador', 'unreadable answer (fecha)');
        const clpPerUsd = parseRate(point.valor);
        if (!clpPerUsd) {
          throw new ExchangeRateSourceError('mindicador', 'unreadable answer (valor is not a positive number)');
        }
        const published = chileDateOf(new Date(instant));
        if (published > day || published < oldest) continue;
        if (!newest || published > newest.day) newest = { day: published, clpPerUsd };
      }
      return newest;
    },
  };
}
