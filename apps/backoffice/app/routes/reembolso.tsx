import type { ReactNode } from 'react';
import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  type ClaimDetail,
  claimHandlers,
  claimPayers,
  claimReaders,
  claimStatusLabels,
  eventText,
  formatClaimAmount,
  formatSize,
  holds,
  parseClaimAmount,
  parsePesos,
} from '#app/features/claims.ts';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/reembolso';

export const meta: Route.MetaFunction = ({ params }) => [{ title: pageTitle(`Reembolso ${params.numero ?? ''}`) }];

export type ClaimData = { claim: ClaimDetail | null; shown: number | null; error?: string };

/** The claim and the document shown in the viewer (`?documento=<id>`, else the first). */
export async function loader({ request, context, params }: Route.LoaderArgs): Promise<ClaimData> {
  const me = await requireOperator(context, request);
  if (!holds(me.operator.roles, claimReaders)) {
    throw data({ message: 'Tu rol no permite usar esta pantalla.' }, { status: 403 });
  }
  const answer = await callApi<ClaimDetail>(context, request, `/claims/${encodeURIComponent(params.numero)}`);
  if (!answer.ok) {
    if (answer.status === 404) throw data({ message: 'No encontramos ese reembolso.' }, { status: 404 });
    return { claim: null, shown: null, error: answer.error.message };
  }
  const claim = answer.data;
  const asked = Number(new URL(request.url).searchParams.get('documento'));
  const shown = claim.documents.find((document) => document.id === asked)?.id ?? claim.documents[0]?.id ?? null;
  return { claim, shown };
}

type Intent = 'assign' | 'release' | 'status' | 'missing' | 'payment' | 'note';

export type ClaimResult = {
  ok: boolean;
  intent: Intent | 'unknown';
  message: string;
  errors?: Record<string, string>;
};

const fail = (intent: ClaimResult['intent'], message: string, errors: Record<string, string> = {}, status = 400) =>
  data<ClaimResult>({ ok: false, intent, message, errors }, status);

/** Each form is one call of the API with the CSRF token and the version the page showed. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const csrfToken = formText(form, 'csrf');
  const intent = formText(form, 'intent') as Intent;
  const version = Number(formText(form, 'version'));
  const base = `/claims/${encodeURIComponent(params.numero)}`;
  const message = formText(form, 'mensaje');
  let path: string;
  let body: Record<string, unknown>;
  let done: string;
  if (intent === 'assign' || intent === 'release') {
    path = `${base}/assign`;
    body = { version, to: intent === 'assign' ? 'me' : 'nobody' };
    done = intent === 'assign' ? 'Te asignaste este reembolso.' : 'El reembolso quedó sin asignar.';
  } else if (intent === 'status') {
    const status = formText(form, 'estado');
    if (!status) return fail(intent, 'Revisa los datos marcados.', { status: 'Elige el nuevo estado.' });
    body = { version, status, ...(message ? { message } : {}) };
    if (status === 'aprobada') {
      const currency = formText(form, 'moneda') === 'USD' ? 'USD' : 'CLP';
      const amount = parseClaimAmount(formText(form, 'monto'), currency);
      if (amount === undefined) {
        return fail(intent, 'Revisa los datos marcados.', {
          amount:
            currency === 'CLP'
              ? 'Escribe el monto aprobado en pesos, sin decimales (por ejemplo 150.000).'
              : 'Escribe el monto aprobado en dólares, con hasta 2 decimales.',
        });
      }
      body.amount = amount;
    }
    if (status === 'rechazada') {
      const reason = formText(form, 'motivo');
      if (!reason) return fail(intent, 'Revisa los datos marcados.', { reason: 'Escribe el motivo del rechazo.' });
      body.reason = reason;
    }
    path = `${base}/status`;
    done = `Estado cambiado a «${claimStatusLabels[status as keyof typeof claimStatusLabels] ?? status}». Le enviamos un correo al titular.`;
  } else if (intent === 'missing') {
    const missing = formText(form, 'faltantes');
    if (!missing) return fail(intent, 'Revisa los datos marcados.', { missing: 'Escribe qué documentos faltan.' });
    path = `${base}/status`;
    body = { version, status: 'faltan_documentos', missing, ...(message ? { message } : {}) };
    done = 'Pedimos los documentos al titular por correo.';
  } else if (intent === 'payment') {
    const paid = parsePesos(formText(form, 'pagado'));
    if (paid === undefined) {
      return fail(intent, 'Revisa los datos marcados.', {
        paidAmountClp: 'Escribe el monto transferido en pesos, sin decimales (por ejemplo 150.000).',
      });
    }
    path = `${base}/payment`;
    body = { version, paidAmountClp: paid, ...(message ? { message } : {}) };
    done = 'Pago registrado: el reembolso quedó «Pagada» y le enviamos un correo al titular.';
  } else if (intent === 'note') {
    const text = formText(form, 'nota');
    if (!text) return fail(intent, 'Revisa los datos marcados.', { text: 'Escribe la nota.' });
    path = `${base}/notes`;
    body = { text };
    done = 'Nota interna guardada. No se envía al titular.';
  } else {
    return fail('unknown', 'Acción desconocida.');
  }
  const answer = await callApi(context, request, path, { method: 'POST', csrfToken, body });
  if (!answer.ok) {
    const errors: Record<string, string> = {};
    for (const field of ['status', 'amount', 'reason', 'missing', 'paidAmountClp', 'text', 'message', 'to']) {
      const found = fieldError(answer.error, field);
      if (found) errors[field] = found;
    }
    return fail(intent, answer.error.message, errors, answer.status);
  }
  return { ok: true, intent, message: done } satisfies ClaimResult;
}

function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {items.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="font-medium text-slate-700">{term}</dt>
          <dd className="mb-1 break-words sm:mb-0">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Box({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-2 rounded border border-slate-300 bg-white p-3">
      <h2 id={id} className="font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function TextArea({
  name,
  label,
  error,
  hint,
  required,
  form,
}: {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  /** Which form it is in, when several forms have a field of this name (ids stay unique). */
  form?: string;
}) {
  const id = form ? `campo-${form}-${name}` : `campo-${name}`;
  const described = [hint ? `${id}-ayuda` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={3}
        maxLength={1000}
        required={required}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
      />
      {hint ? (
        <p id={`${id}-ayuda`} className="field-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The document viewer: an image as an image, a PDF in a frame. The frame is sandboxed by the document's own answer
 * (`Content-Security-Policy: sandbox`, no permission at all, from the API's claim-documents route) rather than by a
 * `sandbox` attribute: Chromium refuses to show a PDF in a frame that has the attribute (whatever its value), while
 * it shows one that carries the policy, with scripts and everything else still refused.
 */
function Viewer({ document }: { document: ClaimDetail['documents'][number] }) {
  if (document.type === 'application/pdf') {
    return (
      <iframe
        src={document.link.url}
        title={`Documento ${document.name}`}
        className="h-[32rem] w-full rounded border border-slate-300 bg-slate-100"
      />
    );
  }
  return (
    <img
      src={document.link.url}
      alt={`Documento ${document.name}`}
      className="max-h-[32rem] max-w-full rounded border border-slate-300"
    />
  );
}

export function ClaimView({
  claim,
  shown,
  error,
  csrfToken,
  roles,
  result,
}: ClaimData & { csrfToken: string; roles: readonly Role[]; result?: ClaimResult | undefined }) {
  if (!claim) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          Reembolso
        </h1>
        <Notice tone="error">{error ?? 'No pudimos cargar el reembolso.'}</Notice>
        <Link to="/reembolsos" className="button-secondary">
          Volver a Reembolsos
        </Link>
      </section>
    );
  }
  const handles = holds(roles, claimHandlers);
  const pays = holds(roles, claimPayers);
  const errorsOf = (intent: ClaimResult['intent']) =>
    result && !result.ok && result.intent === intent ? result.errors : undefined;
  const hidden = (intent: Intent) => (
    <>
      <CsrfField token={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={claim.version} />
    </>
  );
  const viewed = claim.documents.find((document) => document.id === shown);
  const statusChoices = claim.nextStatuses.filter((status) => status !== 'faltan_documentos');
  const { amounts } = claim;
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <p className="text-sm">
        <Link to="/reembolsos" className="text-brand-700 underline">
          ← Reembolsos
        </Link>
      </p>
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 id="titulo" className="text-xl font-semibold">
          Reembolso <span className="font-mono">{claim.number}</span>
        </h1>
        <span className="rounded bg-brand-50 px-2 py-0.5 text-sm font-semibold text-brand-900">{claim.statusText}</span>
      </div>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <Box id="resumen" title="Resumen">
          <Facts
            items={[
              ['Recibida', formatDateTime(claim.receivedAt)],
              ['Esperando', claim.waitingDays === 1 ? '1 día' : `${claim.waitingDays} días`],
              ['Asignado a', claim.assignedTo?.label ?? 'Sin asignar'],
              ...(claim.missingDocuments ? ([['Faltan', claim.missingDocuments]] as [string, ReactNode][]) : []),
              ...(claim.rejectionReason
                ? ([['Motivo del rechazo', claim.rejectionReason]] as [string, ReactNode][])
                : []),
            ]}
          />
          {handles ? (
            <Form method="post">
              {hidden(claim.assignedTo ? 'release' : 'assign')}
              {claim.assignedTo ? (
                <button type="submit" className="button-secondary">
                  Soltar
                </button>
              ) : (
                <button type="submit" className="button-primary">
                  Asignarme
                </button>
              )}
            </Form>
          ) : null}
          {errorsOf('assign')?.to ? <p className="field-error">{errorsOf('assign')?.to}</p> : null}
        </Box>

        <Box id="montos" title="Montos">
          <Facts
            items={[
              ['Solicitado', formatClaimAmount(amounts.claimed, amounts.currency)],
              ['Aprobado', formatClaimAmount(amounts.approved, amounts.currency)],
              ['Pagado', formatClaimAmount(amounts.paidClp, 'CLP')],
            ]}
          />
        </Box>

        <Box id="titular" title="Titular">
          <Facts
            items={[
              ['Nombre', claim.claimant.name],
              ['Documento', `${claim.claimant.documentType} ${claim.claimant.documentNumber}`],
              ['Correo', claim.claimant.email],
              ['Teléfono', claim.claimant.phone],
              ['Cuenta', `${claim.claimant.bank}, ${claim.claimant.accountType} N° ${claim.claimant.accountNumber}`],
            ]}
          />
        </Box>

        <Box id="incidente" title="Certificado e incidente">
          <Facts
            items={[
              [
                'Certificado o venta',
                <span key="certificado" className="font-mono">
                  {claim.certificateNumber}
                </span>,
              ],
              ['Fecha del incidente', claim.incident.date.split('-').reverse().join('-')],
              [
                'Qué pasó',
                <span key="descripcion" className="whitespace-pre-line">
                  {claim.incident.description}
                </span>,
              ],
            ]}
          />
        </Box>
      </div>

      <Box id="documentos" title={`Documentos (${claim.documents.length})`}>
        {claim.documents.length === 0 ? (
          <p className="text-sm">El titular no adjuntó documentos.</p>
        ) : (
          <>
            <ul className="space-y-2 text-sm">
              {claim.documents.map((document) => (
                <li key={document.id} className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  {document.id === shown ? (
                    <span className="font-semibold" aria-current="true">
                      {document.name}
                    </span>
                  ) : (
                    <Link
                      to={`?documento=${document.id}#visor`}
                      preventScrollReset
                      className="inline-flex min-h-6 items-center text-brand-700 underline"
                    >
                      Ver {document.name}
                    </Link>
                  )}
                  <span className="text-slate-700">
                    {document.type === 'application/pdf' ? 'PDF' : document.type === 'image/png' ? 'PNG' : 'JPG'},{' '}
                    {formatSize(document.size)}, {formatDateTime(document.uploadedAt)}
                  </span>
                  <a
                    href={document.link.url}
                    target="_blank"
                    rel="noreferrer"
                    className="inline-flex min-h-6 items-center text-brand-700 underline"
                  >
                    Abrir en otra pestaña<span className="sr-only"> {document.name}</span>
                  </a>
                </li>
              ))}
            </ul>
            {viewed ? (
              <div id="visor" className="space-y-1">
                {/* A PDF viewer holds many controls: the keyboard can skip past it to the actions. */}
                <a
                  href="#acciones"
                  className="sr-only focus:not-sr-only focus:inline-block focus:rounded focus:bg-white focus:p-1 focus:text-brand-700 focus:underline"
                >
                  Saltar el documento e ir a las acciones
                </a>
                <Viewer document={viewed} />
                <p className="text-xs text-slate-700">
                  El enlace del documento vence a los 5 minutos: recarga la página para verlo de nuevo.
                </p>
              </div>
            ) : null}
          </>
        )}
      </Box>

      <div id="acciones" className="grid gap-4 lg:grid-cols-2">
        {handles && statusChoices.length > 0 ? (
          <Box id="cambiar-estado" title="Cambiar estado">
            <Form method="post" className="space-y-3">
              {hidden('status')}
              <input type="hidden" name="moneda" value={amounts.currency} />
              <div>
                <label htmlFor="campo-estado" className="field-label">
                  Nuevo estado
                </label>
                <select
                  id="campo-estado"
                  name="estado"
                  required
                  className="field-input"
                  aria-invalid={errorsOf('status')?.status ? true : undefined}
                  aria-describedby={errorsOf('status')?.status ? 'campo-estado-error' : undefined}
                >
                  {statusChoices.map((status) => (
                    <option key={status} value={status}>
                      {claimStatusLabels[status]}
                    </option>
                  ))}
                </select>
                {errorsOf('status')?.status ? (
                  <p id="campo-estado-error" className="field-error">
                    {errorsOf('status')?.status}
                  </p>
                ) : null}
              </div>
              <TextField
                name="monto"
                id="campo-monto"
                label={`Monto aprobado (${amounts.currency === 'CLP' ? 'pesos' : 'dólares'})`}
                inputMode="decimal"
                autoComplete="off"
                hint="Solo para «Aprobada»."
                error={errorsOf('status')?.amount}
              />
              <TextArea
                name="motivo"
                label="Motivo del rechazo"
                hint="Solo para «Rechazada»."
                error={errorsOf('status')?.reason}
              />
              <TextArea
                name="mensaje"
                form="estado"
                label="Mensaje para el titular (opcional)"
                hint="Va en el correo que recibe el titular."
                error={errorsOf('status')?.message}
              />
              <button type="submit" className="button-primary">
                Cambiar estado y avisar
              </button>
            </Form>
          </Box>
        ) : null}

        {handles && claim.nextStatuses.includes('faltan_documentos') ? (
          <Box id="faltan-documentos" title="Faltan documentos">
            <Form method="post" className="space-y-3">
              {hidden('missing')}
              <TextArea
                name="faltantes"
                label="Documentos que faltan"
                required
                hint="El titular recibe esta lista por correo y los adjunta en la página de seguimiento."
                error={errorsOf('missing')?.missing}
              />
              <TextArea
                name="mensaje"
                form="faltantes"
                label="Mensaje para el titular (opcional)"
                error={errorsOf('missing')?.message}
              />
              <button type="submit" className="button-primary">
                Pedir documentos
              </button>
            </Form>
          </Box>
        ) : null}

        {pays && claim.canRecordPayment ? (
          <Box id="registrar-pago" title="Registrar pago">
            <Form method="post" className="space-y-3">
              {hidden('payment')}
              <TextField
                name="pagado"
                id="campo-pagado"
                label="Monto transferido (pesos)"
                inputMode="numeric"
                autoComplete="off"
                required
                defaultValue={amounts.currency === 'CLP' && amounts.approved !== null ? String(amounts.approved) : ''}
                error={errorsOf('payment')?.paidAmountClp}
              />
              <TextArea
                name="mensaje"
                form="pago"
                label="Mensaje para el titular (opcional)"
                error={errorsOf('payment')?.message}
              />
              <button type="submit" className="button-primary">
                Registrar pago y avisar
              </button>
            </Form>
          </Box>
        ) : null}

        <Box id="notas" title="Notas internas">
          {claim.notes.length === 0 ? (
            <p className="text-sm">Sin notas todavía.</p>
          ) : (
            <ul className="space-y-2 text-sm">
              {claim.notes.map((note) => (
                <li key={note.id} className="border-l-2 border-slate-300 pl-2">
                  <p className="whitespace-pre-line">{note.text}</p>
                  <p className="text-xs text-slate-700">
                    {note.by}, {formatDateTime(note.at)}
                  </p>
                </li>
              ))}
            </ul>
          )}
          <Form method="post" className="space-y-3">
            {hidden('note')}
            <TextArea
              name="nota"
              label="Nueva nota"
              required
              hint="Solo la ven los operadores: nunca se envía al titular."
              error={errorsOf('note')?.text}
            />
            <button type="submit" className="button-secondary">
              Guardar nota
            </button>
          </Form>
        </Box>
      </div>

      <Box id="historial" title="Historial">
        <TableWrap label="Historial del reembolso">
          <table className="data-table">
            <caption className="sr-only">Historial del reembolso, del más antiguo al más reciente</caption>
            <thead>
              <tr>
                <th scope="col">Cuándo</th>
                <th scope="col">Quién</th>
                <th scope="col">Qué</th>
                <th scope="col">Mensaje al titular</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td className="whitespace-nowrap">{formatDateTime(claim.receivedAt)}</td>
                <td>Titular</td>
                <td>Recibida</td>
                <td>—</td>
              </tr>
              {claim.history.map((event) => (
                <tr key={event.id}>
                  <td className="whitespace-nowrap">{formatDateTime(event.at)}</td>
                  <td>{event.by}</td>
                  <td>{eventText(event)}</td>
                  <td className="whitespace-pre-line">{event.kind === 'assign' ? '—' : (event.text ?? '—')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </Box>
    </section>
  );
}

export default function Claim() {
  const { csrfToken, operator } = useConsole();
  return (
    <ClaimView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      roles={operator.roles}
      result={useActionData<typeof action>()}
    />
  );
}
