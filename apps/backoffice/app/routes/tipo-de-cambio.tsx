import { data, Form, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { PageLinks } from '#app/components/PageLinks.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/tipo-de-cambio';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Tipo de cambio') }];

/** One rate of GET /api/backoffice/exchange-rates (apps/api/src/modules/catalog/console-routes.ts). */
export type ExchangeRate = {
  id: number;
  clpPerUsd: string;
  source: 'seed' | 'manual' | 'bcch' | 'mindicador';
  sourceLabel: string;
  day: string | null;
  validFrom: string;
  reason: string | null;
  createdBy: string | null;
};

export type ExchangeRateScreen = {
  current: ExchangeRate | null;
  source: { id: string; label: string } | null;
  maxJumpPercent: number;
  history: ExchangeRate[];
  nextBefore: number | null;
};

export type ExchangeRateData = {
  screen: ExchangeRateScreen | null;
  /** Whether this operator may enter a rate and fetch one (roles pricing and admin; finance reads). */
  canChange: boolean;
  /** The id the page starts after (a later page of the history), or null on the first. */
  before: number | null;
  error?: string;
};

const readers: readonly Role[] = ['admin', 'pricing', 'finance'];
const changers: readonly Role[] = ['admin', 'pricing'];

export async function loader({ request, context }: Route.LoaderArgs): Promise<ExchangeRateData> {
  const me = await requireOperator(context, request, readers);
  const canChange = me.operator.roles.some((role) => changers.includes(role));
  const before = Number(new URL(request.url).searchParams.get('antes'));
  const page = Number.isSafeInteger(before) && before > 0 ? before : null;
  const answer = await callApi<ExchangeRateScreen>(
    context,
    request,
    page ? `/exchange-rates?before=${page}` : '/exchange-rates',
  );
  if (!answer.ok) return { screen: null, canChange, before: page, error: answer.error.message };
  return { screen: answer.data, canChange, before: page };
}

export type ExchangeRateResult = {
  ok: boolean;
  message: string;
  /** What was typed, kept on a refusal so nothing is typed twice. */
  values?: { clpPerUsd: string; reason: string };
  errors?: { clpPerUsd?: string | undefined; reason?: string | undefined };
  /** The API refused a jump bigger than the limit: the form asks for the confirmation. */
  needsConfirmation?: boolean;
};

/** «Guardar» (a rate by hand, with its reason) or «Actualizar ahora» (the configured source, at once). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const csrfToken = formText(form, 'csrf');
  if (formText(form, 'intent') === 'fetch') {
    const answer = await callApi<{ outcome: string; message: string }>(context, request, '/exchange-rates/fetch', {
      method: 'POST',
      csrfToken,
    });
    if (!answer.ok) {
      const message = fieldError(answer.error, 'source') ?? answer.error.message;
      return data<ExchangeRateResult>({ ok: false, message }, answer.status);
    }
    return { ok: answer.data.outcome !== 'rejected', message: answer.data.message } satisfies ExchangeRateResult;
  }
  const values = { clpPerUsd: formText(form, 'clpPerUsd'), reason: formText(form, 'reason') };
  const answer = await callApi<{ rate: ExchangeRate }>(context, request, '/exchange-rates', {
    method: 'POST',
    csrfToken,
    body: { ...values, confirmJump: formText(form, 'confirmJump') === 'si' },
  });
  if (!answer.ok) {
    const jump = answer.error.errors.find((error) => error.code === 'rate_jump');
    return data<ExchangeRateResult>(
      {
        ok: false,
        message: jump?.message ?? answer.error.message,
        values,
        errors: { clpPerUsd: fieldError(answer.error, 'clpPerUsd'), reason: fieldError(answer.error, 'reason') },
        needsConfirmation: jump !== undefined,
      },
      answer.status,
    );
  }
  return {
    ok: true,
    message: `Tipo de cambio guardado: ${formatRate(answer.data.rate.clpPerUsd)} pesos por dólar, vigente desde ahora.`,
  } satisfies ExchangeRateResult;
}

// Up to the 4 decimals the rate is kept with, at least 2: «$951,50».
const rateFormat = new Intl.NumberFormat('es-CL', {
  useGrouping: 'always',
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/** A rate as Chile writes it: 951,5 → «951,50»; 1234.5 → «1.234,50». */
export function formatRate(value: string): string {
  const number = Number(value);
  return Number.isFinite(number) ? rateFormat.format(number) : value;
}

/** A Chile date (YYYY-MM-DD) as dd-mm-aaaa; «—» when absent. */
const formatDay = (day: string | null) => (day ? day.split('-').reverse().join('-') : '—');

export function ExchangeRateView({
  screen,
  canChange,
  before,
  error,
  csrfToken,
  result,
}: ExchangeRateData & { csrfToken: string; result?: ExchangeRateResult | undefined }) {
  const current = screen?.current ?? null;
  const next = screen?.nextBefore ? `/tipo-de-cambio?antes=${screen.nextBefore}` : null;
  return (
    <section aria-labelledby="titulo" className="max-w-4xl space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Tipo de cambio
      </h1>
      <p className="text-sm text-slate-700">
        Los precios están en dólares; la tienda muestra y cobra en pesos con el tipo de cambio vigente. Cada compra
        guarda el tipo de cambio con que se calculó.
      </p>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {screen ? (
        <section className="rounded border border-slate-300 bg-white p-3" aria-labelledby="vigente">
          <h2 id="vigente" className="text-sm text-slate-700">
            Vigente
          </h2>
          {current ? (
            <>
              <p className="text-2xl font-semibold tabular-nums">
                ${formatRate(current.clpPerUsd)} <span className="text-base font-normal">por dólar</span>
              </p>
              <p className="text-sm">
                {current.sourceLabel}, del {formatDay(current.day)} (desde {formatDateTime(current.validFrom)})
              </p>
            </>
          ) : (
            <p>No hay tipo de cambio vigente: la tienda no puede mostrar precios en pesos.</p>
          )}
          <p className="mt-2 text-sm text-slate-700">
            {screen.source
              ? `Se actualiza cada día hábil desde ${screen.source.label}.`
              : 'No hay una fuente automática configurada: el tipo de cambio se ingresa a mano.'}
          </p>
          {canChange && screen.source ? (
            <Form method="post" className="mt-2">
              <CsrfField token={csrfToken} />
              <input type="hidden" name="intent" value="fetch" />
              <button type="submit" className="button-secondary">
                Actualizar ahora
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
      {canChange && screen ? (
        <Form method="post" className="space-y-3 rounded border border-slate-300 bg-white p-3" aria-labelledby="a-mano">
          <h2 id="a-mano" className="font-semibold">
            Ingresar a mano
          </h2>
          <CsrfField token={csrfToken} />
          <input type="hidden" name="intent" value="manual" />
          <TextField
            name="clpPerUsd"
            label="Pesos por dólar"
            inputMode="decimal"
            autoComplete="off"
            required
            defaultValue={result?.values?.clpPerUsd ?? ''}
            error={result?.errors?.clpPerUsd}
            hint="Por ejemplo 945,32 (hasta 4 decimales). Rige desde que lo guardas."
          />
          <TextField
            name="reason"
            label="Motivo"
            required
            maxLength={300}
            defaultValue={result?.values?.reason ?? ''}
            error={result?.errors?.reason}
            hint="Queda en la auditoría, con el valor anterior y el nuevo."
          />
          {result?.needsConfirmation ? (
            <div className="flex items-start gap-2">
              <input id="campo-confirmJump" type="checkbox" name="confirmJump" value="si" className="mt-1" />
              <label htmlFor="campo-confirmJump" className="text-sm">
                Confirmo el cambio de más de {screen.maxJumpPercent} % respecto del vigente.
              </label>
            </div>
          ) : null}
          <button type="submit" className="button-primary">
            Guardar tipo de cambio
          </button>
        </Form>
      ) : null}
      {screen ? (
        <>
          <h2 className="font-semibold">Historial</h2>
          {screen.history.length === 0 ? (
            <p className="rounded border border-slate-300 bg-white p-3 text-sm">Todavía no hay tipos de cambio.</p>
          ) : (
            <TableWrap label="Historial del tipo de cambio">
              <table className="data-table">
                <caption className="sr-only">Tipos de cambio, del más reciente al más antiguo</caption>
                <thead>
                  <tr>
                    <th scope="col">Pesos por dólar</th>
                    <th scope="col">Origen</th>
                    <th scope="col">Del día</th>
                    <th scope="col">Vigente desde</th>
                    <th scope="col">Motivo</th>
                    <th scope="col">Ingresado por</th>
                  </tr>
                </thead>
                <tbody>
                  {screen.history.map((rate) => (
                    <tr key={rate.id}>
                      <td className="tabular-nums">${formatRate(rate.clpPerUsd)}</td>
                      <td>{rate.sourceLabel}</td>
                      <td className="whitespace-nowrap">{formatDay(rate.day)}</td>
                      <td className="whitespace-nowrap">{formatDateTime(rate.validFrom)}</td>
                      <td className="max-w-xs min-w-40 text-sm break-words">{rate.reason ?? '—'}</td>
                      <td className="text-sm break-all">{rate.createdBy ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
          )}
          <PageLinks first={before ? '/tipo-de-cambio' : null} next={next} more="tipos de cambio, más antiguos" />
        </>
      ) : null}
    </section>
  );
}

export default function ExchangeRatePage() {
  const { csrfToken } = useConsole();
  return (
    <ExchangeRateView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
    />
  );
}
