import { data, Form, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  exportHref,
  kindLabels,
  type PersonalDataFindings,
  type PersonalDataRequest,
  requestStateLabels,
} from '#app/features/privacy.ts';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/datos-personales';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Datos personales') }];

const screenRoles: readonly Role[] = ['admin', 'support'];

export type PrivacyData = {
  q: string;
  findings: PersonalDataFindings | null;
  requests: PersonalDataRequest[];
  error?: string;
};

/** The search in the URL (`?q=`), and the register of requests. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<PrivacyData> {
  await requireOperator(context, request, screenRoles);
  const q = new URL(request.url).searchParams.get('q')?.trim() ?? '';
  const register = await callApi<{ requests: PersonalDataRequest[] }>(context, request, '/privacy/requests');
  const requests = register.ok ? register.data.requests : [];
  if (!q) return { q, findings: null, requests, ...(register.ok ? {} : { error: register.error.message }) };
  const found = await callApi<PersonalDataFindings>(context, request, `/privacy/search?${new URLSearchParams({ q })}`);
  if (!found.ok) return { q, findings: null, requests, error: found.error.message };
  return { q, findings: found.data, requests };
}

export type PrivacyResult = { ok: boolean; message: string; errors?: { confirm?: string; answer?: string } };

/** Register a request, answer one, or anonymise (with its confirmation): each one call with the CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, screenRoles);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const csrfToken = formText(form, 'csrf');
  const subject = formText(form, 'subject');
  if (intent === 'erase') {
    if (form.get('confirm') !== 'si') {
      const message = 'Marca la confirmación para anonimizar.';
      return data<PrivacyResult>({ ok: false, message, errors: { confirm: message } }, 400);
    }
    const requestId = Number(formText(form, 'requestId'));
    const answer = await callApi<{ answer: string }>(context, request, '/privacy/erase', {
      method: 'POST',
      csrfToken,
      body: { subject, confirm: true, ...(Number.isInteger(requestId) && requestId > 0 ? { requestId } : {}) },
    });
    if (!answer.ok) return data<PrivacyResult>({ ok: false, message: answer.error.message }, answer.status);
    return { ok: true, message: answer.data.answer } satisfies PrivacyResult;
  }
  if (intent === 'rectify') {
    const source = formText(form, 'source') === 'subscription' ? 'subscription' : 'contact';
    const id = Number(formText(form, 'id'));
    const fullName = formText(form, 'fullName');
    const email = formText(form, 'email');
    const body =
      source === 'subscription'
        ? { source, id, email }
        : { source, id, ...(fullName ? { fullName } : {}), ...(email ? { email } : {}) };
    const answer = await callApi<{ id: number }>(context, request, '/privacy/rectify', {
      method: 'POST',
      csrfToken,
      body,
    });
    if (!answer.ok) return data<PrivacyResult>({ ok: false, message: answer.error.message }, answer.status);
    const what = source === 'subscription' ? 'Suscripción' : 'Solicitud de contacto';
    return { ok: true, message: `${what} ${id} corregida.` } satisfies PrivacyResult;
  }
  if (intent === 'open') {
    const answer = await callApi<PersonalDataRequest>(context, request, '/privacy/requests', {
      method: 'POST',
      csrfToken,
      body: { subject, kind: formText(form, 'kind') },
    });
    if (!answer.ok) return data<PrivacyResult>({ ok: false, message: answer.error.message }, answer.status);
    return { ok: true, message: `Solicitud ${answer.data.id} registrada.` } satisfies PrivacyResult;
  }
  if (intent === 'answer') {
    const id = Number(formText(form, 'id'));
    const text = formText(form, 'answer');
    if (!text) {
      const message = 'Escribe la respuesta.';
      return data<PrivacyResult>({ ok: false, message, errors: { answer: message } }, 400);
    }
    const answer = await callApi<PersonalDataRequest>(context, request, `/privacy/requests/${id}/answer`, {
      method: 'POST',
      csrfToken,
      body: { answer: text },
    });
    if (!answer.ok) {
      const answerError = fieldError(answer.error, 'answer');
      return data<PrivacyResult>(
        { ok: false, message: answer.error.message, ...(answerError ? { errors: { answer: answerError } } : {}) },
        answer.status,
      );
    }
    return { ok: true, message: `Solicitud ${id} respondida.` } satisfies PrivacyResult;
  }
  return data<PrivacyResult>({ ok: false, message: 'Acción desconocida. Recarga la página.' }, 400);
}

const sourceLabels: Record<keyof PersonalDataFindings['summary'], string> = {
  sales: 'Ventas (se conservan)',
  quotations: 'Cotizaciones',
  claims: 'Reembolsos',
  contactRequests: 'Solicitudes de contacto',
  subscriptions: 'Boletín',
};

/** «Corregir»: a contact request's name and/or e-mail, a subscription's address. */
function Rectify({ csrfToken, source, id }: { csrfToken: string; source: 'contact' | 'subscription'; id: number }) {
  const which = source === 'contact' ? `solicitud de contacto ${id}` : `suscripción ${id}`;
  return (
    <Form method="post" className="flex flex-wrap items-end gap-1.5">
      <CsrfField token={csrfToken} />
      <input type="hidden" name="intent" value="rectify" />
      <input type="hidden" name="source" value={source} />
      <input type="hidden" name="id" value={id} />
      {source === 'contact' ? (
        <div className="w-48">
          <TextField
            id={`nombre-${source}-${id}`}
            name="fullName"
            label={`Nombre correcto (${which})`}
            maxLength={200}
          />
        </div>
      ) : null}
      <div className="w-56">
        <TextField
          id={`correo-${source}-${id}`}
          name="email"
          type="email"
          label={`Correo correcto (${which})`}
          maxLength={254}
          required={source === 'subscription'}
        />
      </div>
      <button type="submit" className="button-secondary">
        Corregir<span className="sr-only"> la {which}</span>
      </button>
    </Form>
  );
}

function Findings({
  q,
  findings,
  csrfToken,
  result,
}: {
  q: string;
  findings: PersonalDataFindings;
  csrfToken: string;
  result?: PrivacyResult | undefined;
}) {
  const summary = Object.entries(findings.summary) as [keyof PersonalDataFindings['summary'], { count: number }][];
  return (
    <section aria-labelledby="hallazgos" className="space-y-3">
      <h2 id="hallazgos" className="text-lg font-semibold">
        Lo que guardamos de {q}
      </h2>
      <ul className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5">
        {summary.map(([key, value]) => (
          <li key={key} className="rounded border border-slate-300 bg-white p-2">
            <span className="block text-slate-700">{sourceLabels[key]}</span>
            <span className="text-lg font-semibold tabular-nums">{value.count}</span>
          </li>
        ))}
      </ul>
      {findings.sales.length > 0 ? (
        <div>
          <h3 className="font-semibold">Ventas</h3>
          <p className="text-sm text-slate-800">
            Se conservan por el plazo legal. Para rectificar un viajero, usa «Corregir viajero» en la venta.
          </p>
          <ul className="list-disc pl-5 text-sm">
            {findings.sales.map((sale) => (
              <li key={sale.id}>
                <a className="text-brand-700 underline" href={sale.href}>
                  Venta {sale.id}
                </a>{' '}
                · {sale.status} · {formatDateTime(sale.createdAt)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {findings.claims.length > 0 ? (
        <div>
          <h3 className="font-semibold">Reembolsos</h3>
          <ul className="list-disc pl-5 text-sm">
            {findings.claims.map((claim) => (
              <li key={claim.id}>
                {claim.number} · {claim.status} ·{' '}
                {claim.closed ? 'cerrado (se puede anonimizar)' : 'en curso (se conserva)'}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {findings.contactRequests.length > 0 ? (
        <div>
          <h3 className="font-semibold">Solicitudes de contacto</h3>
          <ul className="list-disc pl-5 text-sm">
            {findings.contactRequests.map((row) => (
              <li key={row.id} className="space-y-1">
                <span className="block">
                  N.º {row.id} · {row.subject} · {formatDateTime(row.createdAt)}
                </span>
                <Rectify csrfToken={csrfToken} source="contact" id={row.id} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {findings.subscriptions.length > 0 ? (
        <div>
          <h3 className="font-semibold">Boletín</h3>
          <ul className="list-disc pl-5 text-sm">
            {findings.subscriptions.map((row) => (
              <li key={row.id} className="space-y-1">
                <span className="block">
                  {row.email} · {row.confirmedAt ? 'confirmada' : 'sin confirmar'}
                </span>
                <Rectify csrfToken={csrfToken} source="subscription" id={row.id} />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <a className="button-secondary" href={exportHref(q, 'json')} download>
          Descargar JSON
        </a>
        <a className="button-secondary" href={exportHref(q, 'pdf')} download>
          Descargar PDF
        </a>
      </div>
      <Form method="post" className="space-y-2 rounded border border-slate-300 bg-white p-3">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="intent" value="erase" />
        <input type="hidden" name="subject" value={q} />
        <p className="text-sm text-slate-800">
          Se anonimizan las solicitudes de contacto, el boletín y los reembolsos cerrados (sus documentos se borran).
          Las ventas, certificados y registros de pago se conservan por su plazo legal.
        </p>
        <div className="flex items-center gap-2">
          <input
            id="confirmar-anonimizar"
            type="checkbox"
            name="confirm"
            value="si"
            required
            aria-describedby={result?.errors?.confirm ? 'confirmar-anonimizar-error' : undefined}
          />
          <label htmlFor="confirmar-anonimizar" className="text-sm">
            Confirmo que la persona pidió suprimir sus datos
          </label>
        </div>
        {result?.errors?.confirm ? (
          <p id="confirmar-anonimizar-error" className="text-sm text-red-800">
            {result.errors.confirm}
          </p>
        ) : null}
        <label htmlFor="solicitud-anonimizar" className="field-label">
          N.º de la solicitud que responde (opcional)
        </label>
        <input id="solicitud-anonimizar" name="requestId" inputMode="numeric" className="field-input w-40" />
        <button type="submit" className="button-primary">
          Anonimizar lo que no debemos conservar
        </button>
      </Form>
    </section>
  );
}

function Register({ requests, csrfToken, q }: { requests: PersonalDataRequest[]; csrfToken: string; q: string }) {
  return (
    <section aria-labelledby="solicitudes" className="space-y-3">
      <h2 id="solicitudes" className="text-lg font-semibold">
        Solicitudes
      </h2>
      <Form method="post" className="flex flex-wrap items-end gap-2 rounded border border-slate-300 bg-white p-3">
        <CsrfField token={csrfToken} />
        <input type="hidden" name="intent" value="open" />
        <div className="w-64">
          <TextField
            id="solicitud-titular"
            name="subject"
            label="RUT, documento o correo del titular"
            defaultValue={q}
            required
            maxLength={254}
          />
        </div>
        <div>
          <label htmlFor="solicitud-tipo" className="field-label">
            Tipo
          </label>
          <select id="solicitud-tipo" name="kind" className="field-input">
            {Object.entries(kindLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-secondary">
          Registrar solicitud
        </button>
      </Form>
      {requests.length > 0 ? (
        <TableWrap label="Solicitudes de datos personales">
          <table className="data-table">
            <caption className="sr-only">Solicitudes de datos personales, de la más reciente a la más antigua</caption>
            <thead>
              <tr>
                <th scope="col">N.º</th>
                <th scope="col">Titular</th>
                <th scope="col">Tipo</th>
                <th scope="col">Estado</th>
                <th scope="col">Recibida</th>
                <th scope="col">Respuesta</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((row) => (
                <tr key={row.id}>
                  <td className="font-mono">{row.id}</td>
                  <td className="break-all">{row.subject}</td>
                  <td>{kindLabels[row.kind]}</td>
                  <td>{requestStateLabels[row.state]}</td>
                  <td className="whitespace-nowrap">{formatDateTime(row.createdAt)}</td>
                  <td className="min-w-60">
                    {row.state === 'answered' ? (
                      <>
                        <span className="block">{row.answer}</span>
                        <span className="block text-xs text-slate-700">
                          {row.handledBy}, {formatDateTime(row.answeredAt)}
                        </span>
                      </>
                    ) : (
                      <Form method="post" className="flex flex-wrap items-end gap-1.5">
                        <CsrfField token={csrfToken} />
                        <input type="hidden" name="intent" value="answer" />
                        <input type="hidden" name="id" value={row.id} />
                        <div className="w-56">
                          <TextField
                            id={`respuesta-${row.id}`}
                            name="answer"
                            label={`Respuesta (solicitud ${row.id})`}
                            required
                            maxLength={4000}
                          />
                        </div>
                        <button type="submit" className="button-secondary">
                          Responder<span className="sr-only"> la solicitud {row.id}</span>
                        </button>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">Aún no hay solicitudes registradas.</p>
      )}
    </section>
  );
}

export function PrivacyView({
  q,
  findings,
  requests,
  error,
  csrfToken,
  result,
}: PrivacyData & { csrfToken: string; result?: PrivacyResult | undefined }) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Datos personales
      </h1>
      <p className="max-w-3xl text-sm text-slate-800">
        Solicitudes de acceso, rectificación y supresión (Ley 19.628 y Ley 21.719): busca a la persona, descarga lo que
        guardamos, registra la solicitud y su respuesta.
      </p>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      <Form
        method="get"
        role="search"
        className="flex flex-wrap items-end gap-2 rounded border border-slate-300 bg-white p-3"
      >
        <div className="w-72">
          <TextField
            id="buscar-persona"
            name="q"
            label="RUT/DNI/pasaporte o correo"
            defaultValue={q}
            required
            maxLength={254}
          />
        </div>
        <button type="submit" className="button-primary">
          Buscar
        </button>
      </Form>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {findings ? <Findings q={q} findings={findings} csrfToken={csrfToken} result={result} /> : null}
      <Register requests={requests} csrfToken={csrfToken} q={q} />
    </section>
  );
}

export default function PersonalData() {
  const { csrfToken } = useConsole();
  return (
    <PrivacyView {...useLoaderData<typeof loader>()} csrfToken={csrfToken} result={useActionData<typeof action>()} />
  );
}
