import { describe, expect, it } from 'vitest';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import {
  action,
  type ExchangeRate,
  type ExchangeRateResult,
  type ExchangeRateScreen,
  ExchangeRateView,
  formatRate,
  loader,
} from './tipo-de-cambio.tsx';

const manual: ExchangeRate = {
  id: 7,
  clpPerUsd: '951.5000',
  source: 'manual',
  sourceLabel: 'Ingresado a mano',
  day: '2026-11-27',
  validFrom: '2026-11-27T15:00:00.000Z',
  reason: 'Cierre del viernes',
  createdBy: 'precios@travesia.cl',
};
const seed: ExchangeRate = {
  ...manual,
  id: 1,
  clpPerUsd: '948.5300',
  source: 'seed',
  sourceLabel: 'Carga inicial',
  day: null,
  reason: null,
  createdBy: null,
};
const screen: ExchangeRateScreen = {
  current: manual,
  source: { id: 'bcch', label: 'Banco Central de Chile (dólar observado)' },
  maxJumpPercent: 20,
  history: [manual, seed],
  nextBefore: 1,
};

describe('«Tipo de cambio»', () => {
  it('shows the rate in force with its source and day, the history, the form and «Actualizar ahora» to pricing', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['pricing']),
      'GET /exchange-rates': { status: 200, body: screen },
    });
    const data = await loader({ request: pageRequest('/tipo-de-cambio'), context } as never);
    expect(data.canChange).toBe(true);
    const html = renderPage(<ExchangeRateView {...data} csrfToken="c" />);
    expect(html).toContain('$951,50');
    expect(html).toContain('Ingresado a mano, del 27-11-2026');
    expect(html).toContain('Se actualiza cada día hábil desde Banco Central de Chile (dólar observado).');
    expect(html).toContain('Actualizar ahora');
    expect(html).toContain('Guardar tipo de cambio');
    expect(html).toContain('Cierre del viernes');
    expect(html).toContain('$948,53');
    expect(html).toContain('href="/tipo-de-cambio?antes=1"');
    expect(formatRate('1234.5')).toBe('1.234,50');
  });

  it('finance reads it without the form or the button; no source configured says so; others are refused', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /exchange-rates?before=5': { status: 200, body: { ...screen, source: null, nextBefore: null } },
    });
    const data = await loader({ request: pageRequest('/tipo-de-cambio?antes=5'), context } as never);
    expect(data).toMatchObject({ canChange: false, before: 5 });
    const html = renderPage(<ExchangeRateView {...data} csrfToken="c" />);
    expect(html).not.toContain('Guardar tipo de cambio');
    expect(html).not.toContain('Actualizar ahora');
    expect(html).toContain('No hay una fuente automática configurada');
    expect(html).toContain('Volver al inicio');
    const support = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      loader({ request: pageRequest('/tipo-de-cambio'), context: support.context } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('sends the rate and reason with the CSRF token; a big jump asks for the confirmation, keeping what was typed', async () => {
    const refusal = {
      status: 400,
      detail: 'Revisa el tipo de cambio ingresado.',
      instance: '/api/backoffice/exchange-rates',
      errors: [
        { field: 'clpPerUsd', code: 'rate_jump', message: 'El nuevo valor cambia 31,4 % respecto del vigente.' },
      ],
    };
    const { context, calls } = contractApi({ 'POST /exchange-rates': { status: 400, body: refusal } });
    const answer = answerOf<ExchangeRateResult>(
      await action({
        request: formPost('/tipo-de-cambio', {
          csrf: 'csrf-9',
          intent: 'manual',
          clpPerUsd: '1250',
          reason: 'Devaluación',
        }),
        context,
      } as never),
    );
    expect(calls[0]?.headers.get('x-csrf-token')).toBe('csrf-9');
    expect(calls[0]?.body).toStrictEqual({ clpPerUsd: '1250', reason: 'Devaluación', confirmJump: false });
    expect(answer).toMatchObject({
      status: 400,
      data: { ok: false, needsConfirmation: true, values: { clpPerUsd: '1250' } },
    });
    const html = renderPage(
      <ExchangeRateView screen={screen} canChange before={null} csrfToken="c" result={answer.data} />,
    );
    expect(html).toContain('Confirmo el cambio de más de 20 %');
    expect(html).toContain('El nuevo valor cambia 31,4 % respecto del vigente.');
    expect(html).toContain('value="1250"');

    const confirmed = contractApi({
      'POST /exchange-rates': { status: 201, body: { rate: { ...manual, clpPerUsd: '1250.0000' } } },
    });
    const saved = answerOf<ExchangeRateResult>(
      await action({
        request: formPost('/tipo-de-cambio', {
          csrf: 'c',
          intent: 'manual',
          clpPerUsd: '1250',
          reason: 'Devaluación',
          confirmJump: 'si',
        }),
        context: confirmed.context,
      } as never),
    );
    expect(confirmed.calls[0]?.body).toMatchObject({ confirmJump: true });
    expect(saved.data).toMatchObject({ ok: true, message: expect.stringContaining('1.250,00 pesos por dólar') });
  });

  it('«Actualizar ahora» says what happened, and an unreachable source in words', async () => {
    const ok = contractApi({
      'POST /exchange-rates/fetch': {
        status: 200,
        body: { outcome: 'unchanged', message: 'No hay un valor más reciente.', rate: null },
      },
    });
    const done = answerOf<ExchangeRateResult>(
      await action({
        request: formPost('/tipo-de-cambio', { csrf: 'c', intent: 'fetch' }),
        context: ok.context,
      } as never),
    );
    expect(done.data).toMatchObject({ ok: true, message: 'No hay un valor más reciente.' });
    const down = contractApi({
      'POST /exchange-rates/fetch': {
        status: 503,
        body: {
          status: 503,
          detail: 'x',
          instance: '/',
          errors: [{ field: 'source', code: 'source_unavailable', message: 'El Banco Central no respondió.' }],
        },
      },
    });
    const failed = answerOf<ExchangeRateResult>(
      await action({
        request: formPost('/tipo-de-cambio', { csrf: 'c', intent: 'fetch' }),
        context: down.context,
      } as never),
    );
    expect(failed).toMatchObject({ status: 503, data: { ok: false, message: 'El Banco Central no respondió.' } });
  });
});
