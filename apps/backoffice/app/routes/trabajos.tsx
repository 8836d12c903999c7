import { data, Form, useActionData, useLoaderData } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { emailKindLabels } from '#app/features/sales.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/trabajos';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Trabajos con fallas') }];

/** GET /api/backoffice/jobs (apps/api/src/modules/jobs/console-routes.ts). */
export type FailingJob = {
  id: number;
  kind: string;
  status: 'pending' | 'done' | 'failed';
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
  runAfter: string;
};

export type JobsData = { jobs: FailingJob[]; error?: string };

/** What each kind of job does, in the operator's words (e-mails mostly). */
const jobKindLabels: Record<string, string> = {
  ...emailKindLabels,
  'purchase-access-code': 'Código de acceso a «Mi compra»',
  'refund-email': 'Correo de un reembolso',
  'contact-email': 'Correo de una solicitud de contacto',
  'contact-reply-email': 'Respuesta a una solicitud de contacto',
  'newsletter-confirmation': 'Confirmación del newsletter',
  'operator-lockout-email': 'Aviso de bloqueo a un operador',
  'publishing.publish': 'Publicación programada (precios)',
};

export async function loader({ request, context }: Route.LoaderArgs): Promise<JobsData> {
  await requireOperator(context, request, 'admin');
  const answer = await callApi<{ jobs: FailingJob[] }>(context, request, '/jobs');
  if (!answer.ok) return { jobs: [], error: answer.error.message };
  return { jobs: answer.data.jobs ?? [] };
}

export type JobsResult = { ok: boolean; message: string };

/** «Reintentar»: a given-up job due again now (the API audits it). */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const id = Number(formText(form, 'id'));
  if (!Number.isSafeInteger(id) || id <= 0)
    return data<JobsResult>({ ok: false, message: 'Trabajo desconocido.' }, 400);
  const answer = await callApi(context, request, `/jobs/${id}/retry`, {
    method: 'POST',
    csrfToken: formText(form, 'csrf'),
  });
  if (!answer.ok) return data<JobsResult>({ ok: false, message: answer.error.message }, answer.status);
  return { ok: true, message: `Trabajo ${id} en cola de nuevo: el proceso de fondo lo intentará en segundos.` };
}

export function JobsView({ jobs, error, csrfToken, result }: JobsData & { csrfToken: string; result?: JobsResult }) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Trabajos con fallas
      </h1>
      <p className="text-sm text-slate-700">
        Correos y tareas de fondo que fallaron: los abandonados en los últimos 7 días y los que se están reintentando.
        Revisa el error antes de reintentar (por ejemplo, un servidor de correo caído).
      </p>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {jobs.length === 0 && !error ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">No hay trabajos con fallas.</p>
      ) : (
        <TableWrap label="Trabajos con fallas">
          <table className="data-table">
            <caption className="sr-only">Trabajos con fallas, del cambio más reciente al más antiguo</caption>
            <thead>
              <tr>
                <th scope="col">Trabajo</th>
                <th scope="col">Estado</th>
                <th scope="col">Intentos</th>
                <th scope="col">Último error</th>
                <th scope="col">Creado</th>
                <th scope="col">Último cambio</th>
                <th scope="col">Acción</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id}>
                  <td>
                    {jobKindLabels[job.kind] ?? job.kind}
                    <span className="block font-mono text-xs text-slate-700">#{job.id}</span>
                  </td>
                  <td className="whitespace-nowrap">
                    {job.status === 'failed' ? 'Abandonado' : `Reintentando (${formatDateTime(job.runAfter)})`}
                  </td>
                  <td className="tabular-nums">{job.attempts}</td>
                  <td className="max-w-md min-w-48 text-xs break-words">{job.lastError ?? '—'}</td>
                  <td className="whitespace-nowrap">{formatDateTime(job.createdAt)}</td>
                  <td className="whitespace-nowrap">{formatDateTime(job.updatedAt)}</td>
                  <td>
                    {job.status === 'failed' ? (
                      <Form method="post">
                        <CsrfField token={csrfToken} />
                        <input type="hidden" name="id" value={job.id} />
                        <button type="submit" className="button-secondary">
                          Reintentar<span className="sr-only"> el trabajo {job.id}</span>
                        </button>
                      </Form>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

export default function Jobs() {
  const { csrfToken } = useConsole();
  return <JobsView {...useLoaderData<typeof loader>()} csrfToken={csrfToken} result={useActionData<typeof action>()} />;
}
