import { addDays } from '@travesia/domain/dates';
import {
  type ExchangeRateSource,
  ExchangeRateSourceError,
  getJson,
  lookBackDays,
  type PublishedRate,
  parseRate,
} from './source.ts';

/** The «dólar observado» series of the Banco Central de Chile's statistics database (BDE). */
export const dolarObservadoSeries = 'F073.TCO.PRE.Z.D';

export type BcchSettings = { url: string; user: string; password: string; timeoutMs: number };

type SieteAnswer = {
  Codigo?: unknown;
  Descripcion?: unknown;
  Series?: { seriesId?: unknown; Obs?: unknown } | null;
};

/** Codigo values that mean our user or password was refused (docs/decisions/018-exchange-rate-sources.md). */
const badCredentials = new Set([-5, -50]);

/**
 * The BCCh «SIETE» REST web service: `GET SieteRestWS.ashx?user&pass&firstdate&lastdate&timeseries&function=GetSeries`
 * answers `{ Codigo: 0, Descripcion: 'Success', Series: { seriesId, Obs: [{ indexDateString: 'dd-mm-yyyy', value,
 * statusCode }] } }`. Days without a rate (weekends, holidays) come as value "NaN" or statusCode "ND" and are skipped.
 * It needs a user registered with the Bank (BCCH_USER, BCCH_PASSWORD).
 */
export function bcchSource(settings: BcchSettings): ExchangeRateSource {
  return {
    id: 'bcch',
    label: 'Banco Central de Chile (dólar observado)',
    async latest(day) {
      const query = new URLSearchParams({
        user: settings.user,
        pass: settings.password,
        firstdate: addDays(day, -lookBackDays),
        lastdate: day,
        timeseries: dolarObservadoSeries,
        function: 'GetSeries',
      });
      const answer = (await getJson('bcch', `${settings.url}?${query}`, settings.timeoutMs)) as SieteAnswer | null;
      if (typeof answer !== 'object' || answer === null || typeof answer.Codigo !== 'number') {
        throw new ExchangeRateSourceError('bcch', 'unreadable answer (no Codigo)');
      }
      if (badCredentials.has(answer.Codigo)) {
        throw new ExchangeRateSourceError('bcch', `credentials refused (Codigo ${answer.Codigo})`);
      }
      if (answer.Codigo !== 0) throw new ExchangeRateSourceError('bcch', `error Codigo ${answer.Codigo}`);
      const observations = answer.Series?.Obs ?? [];
      if (!Array.isArray(observations)) throw new ExchangeRateSourceError('bcch', 'unreadable answer (Obs)');
      let newest: PublishedRate | null = null;
      for (const observation of observations as {
        indexDateString?: unknown;
        value?: unknown;
        statusCode?: unknown;
      }[]) {
        const date = /^(\d{2})-(\d{2})-(\d{4})$/.exec(String(observation?.indexDateString ?? ''));
        if (!date) throw new ExchangeRateSourceError('bcch', 'unreadable answer (indexDateString)');
        const published = `${date[3]}-${date[2]}-${date[1]}`;
        const value = String(observation.value ?? '').trim();
        // No rate that day: a weekend or a holiday.
        if (observation.statusCode !== 'OK' || value === 'NaN' || value === '') continue;
        const clpPerUsd = parseRate(value);
        if (!clpPerUsd) throw new ExchangeRateSourceError('bcch', 'unreadable answer (value is not a positive number)');
        if (published > day) continue;
        if (!newest || published > newest.day) newest = { day: published, clpPerUsd };
      }
      return newest;
    },
  };
}
