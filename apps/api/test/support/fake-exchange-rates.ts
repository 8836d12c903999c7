import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One published day: its Chile date (YYYY-MM-DD) and the value as the source writes it ("NaN": no rate that day). */
export type Published = { day: string; value: string };

export type FakeExchangeRates = {
  /** What BCCH_URL is set to: http://127.0.0.1:port/SieteRestWS/SieteRestWS.ashx */
  readonly bcchUrl: string;
  /** What MINDICADOR_URL is set to: http://127.0.0.1:port */
  readonly mindicadorUrl: string;
  /** The series both answer, oldest first. */
  series: Published[];
  /**
   * `ok`; `outage`: 503; `hang`: never answers; `bad-credentials`: BCCh's Codigo -5; `garbage`: HTML, or a value
   * that is not a number.
   */
  mode: 'ok' | 'outage' | 'hang' | 'bad-credentials' | 'garbage';
  /** Each request's path and query, as received. */
  readonly requests: string[];
  close(): Promise<void>;
};

const ddmmyyyy = (day: string) => day.split('-').reverse().join('-');

/**
 * The two sources on loopback, built from their published formats (docs/decisions/018-exchange-rate-sources.md):
 * BCCh's SIETE `GetSeries` (`{ Codigo, Descripcion, Series: { seriesId, descripEsp, Obs: [{ indexDateString,
 * value, statusCode }] } }`, days without a rate as value "NaN" and statusCode "ND"; Codigo -5 for a wrong
 * password) and mindicador's `/api/dolar` (`{ version, autor, codigo, nombre, unidad_medida, serie: [{ fecha,
 * valor }] }`, newest first, days without a rate absent).
 */
export async function startFakeExchangeRates(): Promise<FakeExchangeRates> {
  const hanging = new Set<import('node:http').ServerResponse>();
  const fake = { series: [] as Published[], mode: 'ok' as FakeExchangeRates['mode'], requests: [] as string[] };
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    fake.requests.push(`${url.pathname}${url.search}`);
    if (fake.mode === 'hang') {
      hanging.add(response);
      return;
    }
    if (fake.mode === 'outage') {
      response.writeHead(503, { 'content-type': 'text/html' }).end('<h1>Service Unavailable</h1>');
      return;
    }
    const json = (body: unknown) =>
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/SieteRestWS/SieteRestWS.ashx') {
      if (fake.mode === 'bad-credentials' || url.searchParams.get('pass') !== 'clave-bcch') {
        json({ Codigo: -5, Descripcion: 'Invalid username or password', Series: { Obs: null }, SeriesInfos: [] });
        return;
      }
      if (fake.mode === 'garbage') {
        json({
          Codigo: 0,
          Descripcion: 'Success',
          Series: {
            seriesId: 'F073.TCO.PRE.Z.D',
            Obs: [{ indexDateString: '27-11-2026', value: 'abc', statusCode: 'OK' }],
          },
        });
        return;
      }
      const first = url.searchParams.get('firstdate') ?? '';
      const last = url.searchParams.get('lastdate') ?? '';
      json({
        Codigo: 0,
        Descripcion: 'Success',
        Series: {
          descripEsp: 'Tipo de cambio nominal (dólar observado $CLP/USD)',
          descripIng: 'Nominal exchange rate (observed dollar CLP/USD)',
          seriesId: url.searchParams.get('timeseries'),
          Obs: fake.series
            .filter((p) => p.day >= first && p.day <= last)
            .map((p) => ({
              indexDateString: ddmmyyyy(p.day),
              value: p.value,
              statusCode: p.value === 'NaN' ? 'ND' : 'OK',
            })),
        },
        SeriesInfos: [],
      });
      return;
    }
    if (url.pathname === '/api/dolar') {
      if (fake.mode === 'garbage') {
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>mantención</html>');
        return;
      }
      json({
        version: '1.7.0',
        autor: 'mindicador.cl',
        codigo: 'dolar',
        nombre: 'Dólar observado',
        unidad_medida: 'Pesos',
        serie: fake.series
          .filter((p) => p.value !== 'NaN')
          .map((p) => ({ fecha: `${p.day}T03:00:00.000Z`, valor: Number(p.value) }))
          .reverse(),
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    bcchUrl: `http://127.0.0.1:${port}/SieteRestWS/SieteRestWS.ashx`,
    mindicadorUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
