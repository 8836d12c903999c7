import { data, Form, useActionData, useLoaderData } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { OwnSession } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/sesiones';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Mis sesiones') }];

export type SessionsData = { sessions: OwnSession[]; error?: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<SessionsData> {
  await requireOperator(context, request);
  const answer = await callApi<{ sessions: OwnSession[] }>(context, request, '/sessions');
  if (!answer.ok) return { sessions: [], error: answer.error.message };
  return { sessions: answer.data.sessions ?? [] };
}

/** Ends one of the operator's own sessions (another device), with the form's CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const id = formText(form, 'id');
  const answer = await callApi(context, request, `/sessions/${encodeURIComponent(id)}`, {
    method: 'DELETE',
    csrfToken: formText(form, 'csrf'),
  });
  if (!answer.ok) return data({ ok: false, message: answer.error.message }, { status: answer.status });
  return { ok: true, message: 'Sesión cerrada.' };
}

export function SessionsView({
  sessions,
  error,
  csrfToken,
  result,
}: SessionsData & { csrfToken: string; result?: { ok: boolean; message: string } | undefined }) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Mis sesiones
      </h1>
      <p className="text-sm text-slate-700">
        Los dispositivos donde tu cuenta está abierta. Cierra cualquier sesión que no reconozcas.
      </p>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TableWrap label="Sesiones abiertas">
        <table className="data-table">
          <caption className="sr-only">Sesiones abiertas</caption>
          <thead>
            <tr>
              <th scope="col">Dispositivo</th>
              <th scope="col">Dirección IP</th>
              <th scope="col">Inicio</th>
              <th scope="col">Último uso</th>
              <th scope="col">
                <span className="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id}>
                <td className="max-w-xs break-words">
                  {session.userAgent ?? 'Desconocido'}
                  {session.current ? (
                    <span className="ml-2 rounded bg-brand-100 px-1.5 text-xs font-semibold text-brand-900">
                      Esta sesión
                    </span>
                  ) : null}
                </td>
                <td className="font-mono">{session.ip ?? '—'}</td>
                <td className="whitespace-nowrap">{formatDateTime(session.createdAt)}</td>
                <td className="whitespace-nowrap">{formatDateTime(session.lastSeenAt)}</td>
                <td>
                  {session.current ? null : (
                    <Form method="post">
                      <CsrfField token={csrfToken} />
                      <input type="hidden" name="id" value={session.id} />
                      <button type="submit" className="button-danger">
                        Cerrar sesión<span className="sr-only"> iniciada el {formatDateTime(session.createdAt)}</span>
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </section>
  );
}

export default function Sessions() {
  const loaded = useLoaderData<typeof loader>();
  const { csrfToken } = useConsole();
  return <SessionsView {...loaded} csrfToken={csrfToken} result={useActionData<typeof action>()} />;
}
