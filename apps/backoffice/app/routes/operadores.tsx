import { data, Form, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { OneTimeValue } from '#app/components/OneTimeValue.tsx';
import { postedRoles, RoleChoices } from '#app/components/RoleChoices.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { type ListedOperator, type Operator, operatorStateLabels, roleLabels } from '#app/lib/contract.ts';
import { formList, formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/operadores';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Operadores') }];

export type OperatorsData = { operators: ListedOperator[]; error?: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<OperatorsData> {
  await requireOperator(context, request, 'admin');
  const answer = await callApi<{ operators: ListedOperator[] }>(context, request, '/operators');
  if (!answer.ok) return { operators: [], error: answer.error.message };
  return { operators: answer.data.operators ?? [] };
}

export type OperatorsResult = {
  ok: boolean;
  message: string;
  /** The one-time enrolment link of an invitation or a factor reset. */
  enrolmentUrl?: string;
  errors?: { email?: string; roles?: string };
};

/** Invite, change roles, deactivate or reactivate, reset factors: each one call of the API with the CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const csrfToken = formText(form, 'csrf');
  const intent = formText(form, 'intent');
  const id = encodeURIComponent(formText(form, 'id'));
  if (intent === 'invite') {
    const email = formText(form, 'email');
    const name = formText(form, 'name');
    const chosen = postedRoles(formList(form, 'roles'));
    const errors: OperatorsResult['errors'] = {};
    if (!email) errors.email = 'Escribe el correo de la persona.';
    if (chosen.length === 0) errors.roles = 'Elige al menos un rol.';
    if (errors.email || errors.roles) {
      return data<OperatorsResult>({ ok: false, message: 'Revisa los datos de la invitación.', errors }, 400);
    }
    const answer = await callApi<{ operator: Operator; enrolmentUrl: string }>(context, request, '/operators', {
      method: 'POST',
      csrfToken,
      body: { email, roles: chosen, ...(name ? { name } : {}) },
    });
    if (!answer.ok) {
      const emailError = fieldError(answer.error, 'email');
      const rolesError = fieldError(answer.error, 'roles');
      return data<OperatorsResult>(
        {
          ok: false,
          message: answer.error.message,
          errors: { ...(emailError ? { email: emailError } : {}), ...(rolesError ? { roles: rolesError } : {}) },
        },
        answer.status,
      );
    }
    return {
      ok: true,
      message: `Invitación creada para ${answer.data.operator.email}. Envíale este enlace (vence en 24 horas).`,
      enrolmentUrl: answer.data.enrolmentUrl,
    } satisfies OperatorsResult;
  }
  if (intent === 'roles' || intent === 'deactivate' || intent === 'activate') {
    const chosen = postedRoles(formList(form, 'roles'));
    if (intent === 'roles' && chosen.length === 0) {
      return data<OperatorsResult>({ ok: false, message: 'Un operador necesita al menos un rol.' }, 400);
    }
    const body = intent === 'roles' ? { roles: chosen } : { state: intent === 'activate' ? 'active' : 'deactivated' };
    const answer = await callApi(context, request, `/operators/${id}`, { method: 'PATCH', csrfToken, body });
    if (!answer.ok) return data<OperatorsResult>({ ok: false, message: answer.error.message }, answer.status);
    const message =
      intent === 'roles'
        ? 'Roles actualizados.'
        : intent === 'activate'
          ? 'Operador reactivado.'
          : 'Operador desactivado: sus sesiones se cerraron.';
    return { ok: true, message } satisfies OperatorsResult;
  }
  if (intent === 'reset') {
    const answer = await callApi<{ enrolmentUrl: string }>(context, request, `/operators/${id}/reset-factors`, {
      method: 'POST',
      csrfToken,
    });
    if (!answer.ok) return data<OperatorsResult>({ ok: false, message: answer.error.message }, answer.status);
    return {
      ok: true,
      message: 'Factores restablecidos. La persona debe enrolarse de nuevo con este enlace (vence en 24 horas).',
      enrolmentUrl: answer.data.enrolmentUrl,
    } satisfies OperatorsResult;
  }
  return data<OperatorsResult>({ ok: false, message: 'Acción desconocida.' }, 400);
}

export function OperatorsView({
  operators,
  error,
  csrfToken,
  selfId,
  result,
}: OperatorsData & { csrfToken: string; selfId: string; result?: OperatorsResult | undefined }) {
  return (
    <section aria-labelledby="titulo" className="space-y-5">
      <h1 id="titulo" className="text-xl font-semibold">
        Operadores
      </h1>
      {result ? (
        <Notice tone={result.ok ? 'success' : 'error'}>
          <p>{result.message}</p>
          {result.enrolmentUrl ? (
            <div className="mt-2">
              <OneTimeValue id="enlace-enrolamiento" label="Enlace de enrolamiento" value={result.enrolmentUrl} />
            </div>
          ) : null}
        </Notice>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}

      <Form method="post" className="space-y-3 rounded border border-slate-300 bg-white p-3" aria-labelledby="invitar">
        <h2 id="invitar" className="font-semibold">
          Invitar a una persona
        </h2>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="intent" value="invite" />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            name="email"
            label="Correo"
            type="email"
            autoComplete="off"
            required
            error={result?.errors?.email}
          />
          <TextField name="name" label="Nombre (opcional)" autoComplete="off" />
        </div>
        <RoleChoices idPrefix="invitar" error={result?.errors?.roles} />
        <button type="submit" className="button-primary">
          Crear invitación
        </button>
      </Form>

      <TableWrap label="Operadores de la consola">
        <table className="data-table">
          <caption className="sr-only">Operadores de la consola</caption>
          <thead>
            <tr>
              <th scope="col">Nombre</th>
              <th scope="col">Correo</th>
              <th scope="col">Estado</th>
              <th scope="col">Roles</th>
              <th scope="col">Acciones</th>
            </tr>
          </thead>
          <tbody>
            {operators.map((operator) => {
              const who = operator.name ?? operator.email;
              return (
                <tr key={operator.id}>
                  <td>{operator.name ?? '—'}</td>
                  <td className="whitespace-nowrap">{operator.email}</td>
                  <td>
                    {operatorStateLabels[operator.state] ?? operator.state}
                    {operator.lastSignInAt ? (
                      <span className="block text-xs text-slate-700">
                        Último ingreso {formatDateTime(operator.lastSignInAt)}
                      </span>
                    ) : null}
                  </td>
                  <td>
                    <Form method="post" className="space-y-1">
                      <CsrfField token={csrfToken} />
                      <input type="hidden" name="intent" value="roles" />
                      <input type="hidden" name="id" value={operator.id} />
                      <RoleChoices
                        idPrefix={`roles-${operator.id}`}
                        checked={operator.roles}
                        legend={`Roles de ${who}`}
                      />
                      <button type="submit" className="button-secondary">
                        Guardar roles<span className="sr-only"> de {who}</span>
                      </button>
                    </Form>
                  </td>
                  <td>
                    <div className="flex flex-wrap gap-2">
                      {operator.id === selfId ? null : (
                        <Form method="post">
                          <CsrfField token={csrfToken} />
                          <input type="hidden" name="id" value={operator.id} />
                          {operator.state === 'deactivated' ? (
                            <button type="submit" name="intent" value="activate" className="button-secondary">
                              Reactivar<span className="sr-only"> a {who}</span>
                            </button>
                          ) : (
                            <button type="submit" name="intent" value="deactivate" className="button-danger">
                              Desactivar<span className="sr-only"> a {who}</span>
                            </button>
                          )}
                        </Form>
                      )}
                      <Form method="post">
                        <CsrfField token={csrfToken} />
                        <input type="hidden" name="id" value={operator.id} />
                        <button type="submit" name="intent" value="reset" className="button-secondary">
                          Restablecer factores<span className="sr-only"> de {who}</span>
                        </button>
                      </Form>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      <p className="text-xs text-slate-700">
        Roles: {Object.values(roleLabels).join(', ')}. Cada cambio queda en la auditoría.
      </p>
    </section>
  );
}

export default function Operators() {
  const loaded = useLoaderData<typeof loader>();
  const { csrfToken, operator } = useConsole();
  return (
    <OperatorsView {...loaded} csrfToken={csrfToken} selfId={operator.id} result={useActionData<typeof action>()} />
  );
}
