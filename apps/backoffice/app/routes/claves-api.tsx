import { data, Form, useActionData, useLoaderData } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { OneTimeValue } from '#app/components/OneTimeValue.tsx';
import { postedRoles, RoleChoices } from '#app/components/RoleChoices.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { type ApiKey, roleLabels } from '#app/lib/contract.ts';
import { formList, formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/claves-api';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Claves API') }];

export type ApiKeysData = { apiKeys: ApiKey[]; error?: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<ApiKeysData> {
  await requireOperator(context, request, 'admin');
  const answer = await callApi<{ apiKeys: ApiKey[] }>(context, request, '/api-keys');
  if (!answer.ok) return { apiKeys: [], error: answer.error.message };
  return { apiKeys: answer.data.apiKeys ?? [] };
}

export type ApiKeysResult = {
  ok: boolean;
  message: string;
  secret?: string;
  errors?: { name?: string; roles?: string; expiresAt?: string };
};

/** The end of the chosen day in Santiago is not known here: the key expires at the end of that day in UTC. */
function expiryOf(day: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59.000Z` : undefined;
}

/** Creates a key (its secret shown once) or revokes one. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const csrfToken = formText(form, 'csrf');
  if (formText(form, 'intent') === 'revoke') {
    const id = encodeURIComponent(formText(form, 'id'));
    const answer = await callApi(context, request, `/api-keys/${id}`, { method: 'DELETE', csrfToken });
    if (!answer.ok) return data<ApiKeysResult>({ ok: false, message: answer.error.message }, answer.status);
    return { ok: true, message: 'Clave revocada: ya no sirve para autenticar.' } satisfies ApiKeysResult;
  }
  const name = formText(form, 'name');
  const chosen = postedRoles(formList(form, 'roles'));
  const expiresAt = expiryOf(formText(form, 'expiresAt'));
  const errors: NonNullable<ApiKeysResult['errors']> = {};
  if (!name) errors.name = 'Ponle un nombre que diga para qué se usa.';
  if (chosen.length === 0) errors.roles = 'Elige al menos un rol.';
  if (!expiresAt) errors.expiresAt = 'Elige hasta qué día sirve.';
  if (errors.name || errors.roles || errors.expiresAt) {
    return data<ApiKeysResult>({ ok: false, message: 'Revisa los datos de la clave.', errors }, 400);
  }
  const answer = await callApi<{ apiKey: ApiKey; secret: string }>(context, request, '/api-keys', {
    method: 'POST',
    csrfToken,
    body: { name, roles: chosen, expiresAt },
  });
  if (!answer.ok) {
    const found = {
      name: fieldError(answer.error, 'name'),
      roles: fieldError(answer.error, 'roles'),
      expiresAt: fieldError(answer.error, 'expiresAt'),
    };
    const fieldErrors = Object.fromEntries(Object.entries(found).filter(([, value]) => value));
    return data<ApiKeysResult>({ ok: false, message: answer.error.message, errors: fieldErrors }, answer.status);
  }
  return {
    ok: true,
    message: `Clave «${answer.data.apiKey.name}» creada.`,
    secret: answer.data.secret,
  } satisfies ApiKeysResult;
}

export function ApiKeysView({
  apiKeys,
  error,
  csrfToken,
  result,
}: ApiKeysData & { csrfToken: string; result?: ApiKeysResult | undefined }) {
  return (
    <section aria-labelledby="titulo" className="space-y-5">
      <h1 id="titulo" className="text-xl font-semibold">
        Claves API
      </h1>
      <p className="text-sm text-slate-700">
        Para la automatización (los comandos <code>refunds</code> y <code>operators</code>): se envían como{' '}
        <code>Authorization: Bearer …</code>. Cada clave tiene roles y vencimiento, y su uso queda en la auditoría.
      </p>
      {result ? (
        <Notice tone={result.ok ? 'success' : 'error'}>
          <p>{result.message}</p>
          {result.secret ? (
            <div className="mt-2">
              <OneTimeValue id="secreto-clave" label="Secreto de la clave" value={result.secret} />
            </div>
          ) : null}
        </Notice>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}

      <Form method="post" className="space-y-3 rounded border border-slate-300 bg-white p-3" aria-labelledby="nueva">
        <h2 id="nueva" className="font-semibold">
          Nueva clave
        </h2>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="intent" value="create" />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField name="name" label="Nombre" autoComplete="off" required error={result?.errors?.name} />
          <TextField
            name="expiresAt"
            label="Vence el"
            type="date"
            required
            error={result?.errors?.expiresAt}
            hint="Al terminar ese día (UTC)."
          />
        </div>
        <RoleChoices idPrefix="clave" error={result?.errors?.roles} />
        <button type="submit" className="button-primary">
          Crear clave
        </button>
      </Form>

      <TableWrap label="Claves API">
        <table className="data-table">
          <caption className="sr-only">Claves API</caption>
          <thead>
            <tr>
              <th scope="col">Nombre</th>
              <th scope="col">Roles</th>
              <th scope="col">Vence</th>
              <th scope="col">Último uso</th>
              <th scope="col">
                <span className="sr-only">Acciones</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {apiKeys.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>{key.roles.map((role) => roleLabels[role] ?? role).join(', ')}</td>
                <td>{formatDateTime(key.expiresAt)}</td>
                <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'Nunca'}</td>
                <td>
                  {key.revokedAt ? (
                    'Revocada'
                  ) : (
                    <Form method="post">
                      <CsrfField token={csrfToken} />
                      <input type="hidden" name="id" value={key.id} />
                      <button type="submit" name="intent" value="revoke" className="button-danger">
                        Revocar<span className="sr-only"> la clave {key.name}</span>
                      </button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {apiKeys.length === 0 && !error ? <p className="text-sm">Todavía no hay claves.</p> : null}
    </section>
  );
}

export default function ApiKeys() {
  const loaded = useLoaderData<typeof loader>();
  const { csrfToken } = useConsole();
  return <ApiKeysView {...loaded} csrfToken={csrfToken} result={useActionData<typeof action>()} />;
}
