import type { ReactNode } from 'react';
import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  ageText,
  queuePath,
  reasonLabels,
  type SaleRefund,
  type SaleRefundPage,
  type StateFilter,
  stateFilterOf,
  stateFilters,
  stateLabels,
  stepsFor,
} from '#app/features/sale-refunds.ts';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime, formatFigure } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/reembolsos-de-ventas';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Reembolsos de ventas') }];

const screenRoles: readonly Role[] = ['admin', 'finance'];

/** A refund as a row shows it: the API's, with its age in words (computed once, on the server). */
export type SaleRefundRow = SaleRefund & { age: string };

export type SaleRefundsData = {
  filter: StateFilter;
  refunds: SaleRefundRow[];
  nextCursor: string | null;
  /** Whether this page continues an earlier one (a cursor in the URL). */
  continued: boolean;
  error?: string;
};

/** One page of the queue in the URL's state (`?estado=`), oldest first; «Más» asks for the next by its cursor. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<SaleRefundsData> {
  await requireOperator(context, request, screenRoles);
  const params = new URL(request.url).searchParams;
  const filter = stateFilterOf(params.get('estado'));
  const cursor = params.get('cursor');
  const query = new URLSearchParams({ state: filter.api });
  if (cursor) query.set('cursor', cursor);
  const answer = await callApi<SaleRefundPage>(context, request, `/sale-refunds?${query}`);
  if (!answer.ok) return { filter, refunds: [], nextCursor: null, continued: !!cursor, error: answer.error.message };
  const now = new Date();
  return {
    filter,
    refunds: (answer.data.refunds ?? []).map((refund) => ({ ...refund, age: ageText(refund.createdAt, now) })),
    nextCursor: answer.data.nextCursor ?? null,
    continued: !!cursor,
  };
}

export type SaleRefundsResult = {
  ok: boolean;
  message: string;
  /** The refund the step was about, and the message of its field (reason, reference) when the API named one. */
  id?: number;
  errors?: { reason?: string; reference?: string };
};

const done: Record<string, (refund: SaleRefund) => string> = {
  hold: (refund) =>
    refund.state === 'refunded'
      ? `La pasarela ya había devuelto el reembolso ${refund.id} (venta ${refund.saleId}): quedó registrado, no hay que transferir.`
      : `Reembolso ${refund.id} (venta ${refund.saleId}) retenido: ya puedes transferir y registrar la referencia.`,
  transfer: (refund) =>
    `Transferencia ${refund.transferReference ?? ''} registrada: el reembolso ${refund.id} (venta ${refund.saleId}) quedó devuelto.`,
  release: (refund) =>
    `Reembolso ${refund.id} (venta ${refund.saleId}) liberado: la pasarela lo intentará de nuevo ahora.`,
};

/** Hold (with a reason), record the transfer (with its reference), release: each one call with the CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, screenRoles);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const id = Number(formText(form, 'id'));
  const version = Number(formText(form, 'version'));
  const step = done[intent];
  if (!step || !Number.isInteger(id) || id <= 0 || !Number.isInteger(version) || version <= 0) {
    return data<SaleRefundsResult>({ ok: false, message: 'Acción desconocida. Recarga la página.' }, 400);
  }
  const reason = formText(form, 'reason');
  const reference = formText(form, 'reference');
  if (intent === 'hold' && !reason) {
    const message = 'Escribe por qué lo retienes.';
    return data<SaleRefundsResult>({ ok: false, id, message, errors: { reason: message } }, 400);
  }
  if (intent === 'transfer' && !reference) {
    const message = 'Escribe la referencia de la transferencia.';
    return data<SaleRefundsResult>({ ok: false, id, message, errors: { reference: message } }, 400);
  }
  const body = intent === 'hold' ? { version, reason } : intent === 'transfer' ? { version, reference } : { version };
  const answer = await callApi<{ refund: SaleRefund }>(context, request, `/sale-refunds/${id}/${intent}`, {
    method: 'POST',
    csrfToken: formText(form, 'csrf'),
    body,
  });
  if (!answer.ok) {
    const reasonError = fieldError(answer.error, 'reason');
    const referenceError = fieldError(answer.error, 'reference');
    return data<SaleRefundsResult>(
      {
        ok: false,
        id,
        message: answer.error.message,
        errors: {
          ...(reasonError ? { reason: reasonError } : {}),
          ...(referenceError ? { reference: referenceError } : {}),
        },
      },
      answer.status,
    );
  }
  return { ok: true, id, message: step(answer.data.refund) } satisfies SaleRefundsResult;
}

/** The hidden fields every step's form carries: CSRF, the step, the refund and the version the operator saw. */
function StepFields({ csrfToken, refund, intent }: { csrfToken: string; refund: SaleRefund; intent: string }) {
  return (
    <>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={refund.id} />
      <input type="hidden" name="version" value={refund.version} />
    </>
  );
}

/** A step that needs one text (the hold's reason, the transfer's reference): its field, then its button. */
function TextStep({
  refund,
  csrfToken,
  intent,
  name,
  label,
  maxLength,
  error,
  children,
}: {
  refund: SaleRefund;
  csrfToken: string;
  intent: 'hold' | 'transfer';
  name: string;
  label: string;
  maxLength: number;
  error?: string | undefined;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="flex flex-wrap items-end gap-1.5">
      <StepFields csrfToken={csrfToken} refund={refund} intent={intent} />
      <div className="w-44">
        <TextField
          id={`${intent === 'hold' ? 'motivo' : 'referencia'}-${refund.id}`}
          name={name}
          label={label}
          required
          maxLength={maxLength}
          autoComplete="off"
          error={error}
        />
      </div>
      {children}
    </Form>
  );
}

function RowSteps({
  refund,
  csrfToken,
  result,
}: {
  refund: SaleRefundRow;
  csrfToken: string;
  result?: SaleRefundsResult | undefined;
}) {
  const steps = stepsFor(refund.state);
  if (steps.length === 0) return <span className="text-slate-700">—</span>;
  const errors = result && !result.ok && result.id === refund.id ? result.errors : undefined;
  const which = `reembolso ${refund.id}`;
  return (
    <div className="flex flex-wrap items-end gap-2">
      {steps.includes('hold') ? (
        <TextStep
          refund={refund}
          csrfToken={csrfToken}
          intent="hold"
          name="reason"
          label={`Motivo (${which})`}
          maxLength={300}
          error={errors?.reason}
        >
          <button type="submit" className="button-secondary">
            Retener<span className="sr-only"> el {which}</span>
          </button>
        </TextStep>
      ) : null}
      {steps.includes('transfer') ? (
        <TextStep
          refund={refund}
          csrfToken={csrfToken}
          intent="transfer"
          name="reference"
          label={`Referencia de la transferencia (${which})`}
          maxLength={100}
          error={errors?.reference}
        >
          <button type="submit" className="button-primary whitespace-nowrap">
            Registrar transferencia<span className="sr-only"> del {which}</span>
          </button>
        </TextStep>
      ) : null}
      {steps.includes('release') ? (
        <Form method="post">
          <StepFields csrfToken={csrfToken} refund={refund} intent="release" />
          <button type="submit" className="button-secondary">
            Liberar<span className="sr-only"> el {which}</span>
          </button>
        </Form>
      ) : null}
    </div>
  );
}

function StateCell({ refund }: { refund: SaleRefundRow }) {
  return (
    <>
      {stateLabels[refund.state] ?? refund.state}
      {refund.state === 'failing' && refund.lastError ? (
        <span className="block text-xs text-red-800">{refund.lastError}</span>
      ) : null}
      {refund.state === 'held' ? (
        <span className="block text-xs text-slate-700">
          {refund.heldBy ?? '—'}, {formatDateTime(refund.heldAt)}
          {refund.heldReason ? `: ${refund.heldReason}` : ''}
        </span>
      ) : null}
      {refund.state === 'transferred' ? (
        <span className="block text-xs text-slate-700">
          {refund.markedBy ?? '—'}, {formatDateTime(refund.refundedAt)}
        </span>
      ) : null}
      {refund.attempts > 0 && (refund.state === 'pending' || refund.state === 'failing') ? (
        <span className="block text-xs text-slate-700">{refund.attempts} intentos</span>
      ) : null}
    </>
  );
}

export function SaleRefundsView({
  filter,
  refunds,
  nextCursor,
  continued,
  error,
  csrfToken,
  result,
}: SaleRefundsData & { csrfToken: string; result?: SaleRefundsResult | undefined }) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Reembolsos de ventas
      </h1>
      <p className="max-w-3xl text-sm text-slate-800">
        Lo que se devuelve de una venta pagada (retracto, cambio de fechas más barato). La pasarela lo intenta sola; si
        no puede (débito, reembolsos parciales), retenlo, transfiere desde el banco y registra la referencia.
      </p>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      <Form method="get" className="flex flex-wrap items-end gap-2 rounded border border-slate-300 bg-white p-3">
        <div>
          <label htmlFor="filtro-estado" className="field-label">
            Estado
          </label>
          <select id="filtro-estado" name="estado" defaultValue={filter.slug} className="field-input">
            {stateFilters.map((option) => (
              <option key={option.slug} value={option.slug}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-primary">
          Filtrar
        </button>
      </Form>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {refunds.length > 0 ? (
        <TableWrap label="Reembolsos de ventas">
          <table className="data-table">
            <caption className="sr-only">
              Reembolsos de ventas: {filter.label}
              {continued ? ', continuación' : ''}, del más antiguo al más reciente
            </caption>
            <thead>
              <tr>
                <th scope="col">N.º</th>
                <th scope="col">Venta</th>
                <th scope="col" className="text-right">
                  Monto
                </th>
                <th scope="col">Pago</th>
                <th scope="col">Motivo</th>
                <th scope="col">Antigüedad</th>
                <th scope="col">Estado</th>
                <th scope="col">Referencia</th>
                <th scope="col">Acciones</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((refund) => (
                <tr key={refund.id}>
                  <td className="font-mono">{refund.id}</td>
                  <td className="font-mono">{refund.saleId}</td>
                  <td className="text-right whitespace-nowrap tabular-nums">{formatFigure(refund.amountClp, 'clp')}</td>
                  <td>
                    <span className="block">{refund.gateway}</span>
                    <span className="block font-mono text-xs text-slate-700">{refund.buyOrder}</span>
                  </td>
                  <td>{reasonLabels[refund.reason] ?? refund.reason}</td>
                  <td className="whitespace-nowrap" title={formatDateTime(refund.createdAt)}>
                    {refund.age}
                  </td>
                  <td>
                    <StateCell refund={refund} />
                  </td>
                  <td className="font-mono break-all">{refund.transferReference ?? '—'}</td>
                  <td className="min-w-60">
                    <RowSteps refund={refund} csrfToken={csrfToken} result={result} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : error ? null : (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">
          No hay reembolsos de ventas en «{filter.label}».
        </p>
      )}
      <div className="flex gap-3">
        {continued ? (
          <Link to={queuePath(filter)} className="button-secondary">
            Volver al inicio
          </Link>
        ) : null}
        {nextCursor ? (
          <Link to={queuePath(filter, nextCursor)} className="button-secondary">
            Más<span className="sr-only"> reembolsos, más recientes</span>
          </Link>
        ) : null}
      </div>
    </section>
  );
}

export default function SaleRefunds() {
  const { csrfToken } = useConsole();
  return (
    <SaleRefundsView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
    />
  );
}
