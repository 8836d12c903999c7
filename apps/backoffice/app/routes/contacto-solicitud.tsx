import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { type ContactDetail, closedByLabel, contactStateLabels } from '#app/features/contact.ts';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/contacto-solicitud';
import { contactRoles } from './contacto.tsx';

export const meta: Route.MetaFunction = ({ params }) => [{ title: pageTitle(`Solicitud N° ${params.id}`) }];

/** The reply's longest length (the API's, contact/console-routes.ts). */
const replyMaxLength = 5000;

export type ContactRequestData = { request: ContactDetail | null; error?: string };

export async function loader({ request, context, params }: Route.LoaderArgs): Promise<ContactRequestData> {
  await requireOperator(context, request, contactRoles);
  const answer = await callApi<{ request: ContactDetail }>(
    context,
    request,
    `/contact-requests/${encodeURIComponent(params.id)}`,
  );
  if (!answer.ok) {
    const missing = answer.status === 404 || answer.status === 400;
    return { request: null, error: missing ? 'No existe esa solicitud de contacto.' : answer.error.message };
  }
  return { request: answer.data.request };
}

export type ContactRequestResult = { ok: boolean; message: string; reply?: string; errors?: { reply?: string } };

/** Reply by e-mail, or mark handled: one call of the API each, with the form's CSRF token. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await request.formData();
  const csrfToken = formText(form, 'csrf');
  const intent = formText(form, 'intent');
  const path = `/contact-requests/${encodeURIComponent(params.id)}`;
  if (intent === 'reply') {
    const reply = formText(form, 'reply');
    if (!reply) {
      return data<ContactRequestResult>(
        { ok: false, message: 'Revisa la respuesta.', reply, errors: { reply: 'Escribe la respuesta.' } },
        400,
      );
    }
    if (reply.length > replyMaxLength) {
      const tooLong = `La respuesta puede tener hasta ${replyMaxLength} caracteres.`;
      return data<ContactRequestResult>(
        { ok: false, message: 'Revisa la respuesta.', reply, errors: { reply: tooLong } },
        400,
      );
    }
    const answer = await callApi(context, request, `${path}/reply`, { method: 'POST', csrfToken, body: { reply } });
    if (!answer.ok) {
      const replyError = fieldError(answer.error, 'reply');
      return data<ContactRequestResult>(
        { ok: false, message: answer.error.message, reply, ...(replyError ? { errors: { reply: replyError } } : {}) },
        answer.status,
      );
    }
    return { ok: true, message: 'Respuesta enviada: el correo sale en unos segundos.' } satisfies ContactRequestResult;
  }
  if (intent === 'handled') {
    const answer = await callApi(context, request, `${path}/handled`, { method: 'POST', csrfToken });
    if (!answer.ok) return data<ContactRequestResult>({ ok: false, message: answer.error.message }, answer.status);
    return { ok: true, message: 'Solicitud marcada como atendida.' } satisfies ContactRequestResult;
  }
  return data<ContactRequestResult>({ ok: false, message: 'Acción desconocida.' }, 400);
}

export function ContactRequestView({
  request,
  error,
  csrfToken,
  result,
}: ContactRequestData & { csrfToken: string; result?: ContactRequestResult | undefined }) {
  const replyError = result?.errors?.reply;
  return (
    <section aria-labelledby="titulo" className="max-w-3xl space-y-4">
      <p className="text-sm">
        <Link to="/contacto" className="text-brand-700 underline">
          Volver a Contacto
        </Link>
      </p>
      <h1 id="titulo" className="text-xl font-semibold">
        {request ? `Solicitud N° ${request.id}` : 'Solicitud de contacto'}
      </h1>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {request ? (
        <>
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 rounded border border-slate-300 bg-white p-3 text-sm sm:grid-cols-[10rem_1fr]">
            <dt className="font-semibold">Estado</dt>
            <dd>{contactStateLabels[request.state] ?? request.state}</dd>
            <dt className="font-semibold">Recibida</dt>
            <dd>{formatDateTime(request.receivedAt)}</dd>
            <dt className="font-semibold">Nombre</dt>
            <dd>{request.fullName}</dd>
            <dt className="font-semibold">Correo</dt>
            <dd className="break-all">{request.email}</dd>
            <dt className="font-semibold">Teléfono</dt>
            <dd>{request.phone}</dd>
            <dt className="font-semibold">Asunto</dt>
            <dd>{request.subject}</dd>
            <dt className="font-semibold">Enviada a</dt>
            <dd className="break-all">{request.recipient}</dd>
          </dl>
          <h2 className="font-semibold">Mensaje</h2>
          <p className="rounded border border-slate-300 bg-white p-3 text-sm whitespace-pre-wrap">{request.detail}</p>
          {request.state === 'unanswered' ? (
            <div className="space-y-4">
              <Form
                method="post"
                className="space-y-3 rounded border border-slate-300 bg-white p-3"
                aria-labelledby="responder"
              >
                <h2 id="responder" className="font-semibold">
                  Responder por correo
                </h2>
                <CsrfField token={csrfToken} />
                <input type="hidden" name="intent" value="reply" />
                <div>
                  <label htmlFor="campo-respuesta" className="field-label">
                    Respuesta para {request.fullName}
                  </label>
                  <textarea
                    id="campo-respuesta"
                    name="reply"
                    rows={8}
                    required
                    maxLength={replyMaxLength}
                    defaultValue={result && !result.ok ? (result.reply ?? '') : ''}
                    className="field-input"
                    aria-invalid={replyError ? true : undefined}
                    aria-describedby={
                      replyError ? 'campo-respuesta-ayuda campo-respuesta-error' : 'campo-respuesta-ayuda'
                    }
                  />
                  <p id="campo-respuesta-ayuda" className="field-hint">
                    Sale del correo de la empresa a {request.email}; si la persona contesta, su respuesta llega a{' '}
                    {request.recipient}. Su mensaje va citado al final.
                  </p>
                  {replyError ? (
                    <p id="campo-respuesta-error" className="field-error">
                      {replyError}
                    </p>
                  ) : null}
                </div>
                <button type="submit" className="button-primary">
                  Enviar respuesta
                </button>
              </Form>
              <Form method="post" className="space-y-2 rounded border border-slate-300 bg-white p-3">
                <CsrfField token={csrfToken} />
                <p className="text-sm">¿Ya la atendiste por otro medio (teléfono, duplicada, spam)?</p>
                <button type="submit" name="intent" value="handled" className="button-secondary">
                  Marcar como atendida
                </button>
              </Form>
            </div>
          ) : (
            <div className="space-y-2 rounded border border-slate-300 bg-white p-3 text-sm">
              <p>
                {request.state === 'answered' ? 'Respondida' : 'Marcada como atendida'} por{' '}
                {closedByLabel(request.closedBy)} el {formatDateTime(request.closedAt)}.
              </p>
              {request.reply ? (
                <>
                  <h2 className="font-semibold">Respuesta enviada</h2>
                  <p className="whitespace-pre-wrap">{request.reply}</p>
                </>
              ) : null}
            </div>
          )}
        </>
      ) : null}
    </section>
  );
}

export default function ContactRequest() {
  const loaded = useLoaderData<typeof loader>();
  const { csrfToken } = useConsole();
  return <ContactRequestView {...loaded} csrfToken={csrfToken} result={useActionData<typeof action>()} />;
}
