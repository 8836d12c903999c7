import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField, SelectField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { PageLinks } from '#app/components/PageLinks.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  exportRoles,
  pageQuery,
  type Subscriber,
  type SubscriberFilters,
  type SubscriberPage,
  subscriberApiQuery,
  subscriberFiltersOf,
  subscriberStateLabels,
  subscriberStateOptions,
} from '#app/features/contact.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/newsletter';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Newsletter') }];

const newsletterRoles = ['admin', 'support', 'content'] as const;

export type NewsletterData = {
  filters: SubscriberFilters;
  subscribers: Subscriber[];
  nextCursor: string | null;
  continued: boolean;
  error?: string;
};

/** One page of subscribers, newest first, with the URL's filters (`estado`, `correo`); «Más» by cursor. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<NewsletterData> {
  await requireOperator(context, request, newsletterRoles);
  const params = new URL(request.url).searchParams;
  const filters = subscriberFiltersOf(params);
  const cursor = params.get('cursor');
  const answer = await callApi<SubscriberPage>(
    context,
    request,
    `/newsletter/subscribers${subscriberApiQuery(filters, cursor)}`,
  );
  if (!answer.ok) {
    return { filters, subscribers: [], nextCursor: null, continued: !!cursor, error: answer.error.message };
  }
  return {
    filters,
    subscribers: answer.data.subscribers ?? [],
    nextCursor: answer.data.nextCursor ?? null,
    continued: !!cursor,
  };
}

export type NewsletterResult = { ok: boolean; message: string };

/** Unsubscribes one address: one call of the API with the form's CSRF token. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const id = formText(form, 'id');
  const email = formText(form, 'email');
  if (formText(form, 'intent') !== 'unsubscribe' || !/^\d{1,10}$/.test(id)) {
    return data<NewsletterResult>({ ok: false, message: 'Acción desconocida.' }, 400);
  }
  const answer = await callApi(context, request, `/newsletter/subscribers/${id}`, {
    method: 'DELETE',
    csrfToken: formText(form, 'csrf'),
  });
  if (!answer.ok) {
    const message =
      answer.status === 404 ? 'Esa suscripción ya no existe: alguien la dio de baja.' : answer.error.message;
    return data<NewsletterResult>({ ok: false, message }, answer.status);
  }
  return {
    ok: true,
    message: `${email || 'La dirección'} quedó dada de baja del newsletter.`,
  } satisfies NewsletterResult;
}

export function NewsletterView({
  filters,
  subscribers,
  nextCursor,
  continued,
  error,
  csrfToken,
  roles,
  result,
}: NewsletterData & { csrfToken: string; roles: readonly Role[]; result?: NewsletterResult | undefined }) {
  const filtered = !!(filters.estado || filters.correo);
  const canExport = roles.some((role) => exportRoles.includes(role));
  const exportQuery = filters.correo ? `?${new URLSearchParams({ email: filters.correo })}` : '';
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Newsletter
      </h1>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded border border-slate-300 bg-white p-3">
        <SelectField
          name="estado"
          label="Estado"
          options={[{ value: '', label: 'Todas' }, ...subscriberStateOptions]}
          defaultValue={filters.estado ?? ''}
        />
        <TextField
          name="correo"
          label="Correo contiene"
          type="search"
          defaultValue={filters.correo ?? ''}
          autoComplete="off"
        />
        <div className="flex gap-2">
          <button type="submit" className="button-primary">
            Buscar
          </button>
          <Link to="/newsletter" className="button-secondary">
            Limpiar
          </Link>
        </div>
      </Form>
      {canExport ? (
        <p className="text-sm">
          <a
            href={`/api/backoffice/newsletter/subscribers.csv${exportQuery}`}
            className="text-brand-700 underline"
            download
          >
            Descargar CSV de las confirmadas{filters.correo ? ' con este correo' : ''}
          </a>{' '}
          <span className="text-slate-700">(la descarga queda en la auditoría)</span>
        </p>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {subscribers.length === 0 && !error ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">
          {filtered ? 'No hay suscripciones con estos filtros.' : 'Todavía no hay suscripciones al newsletter.'}
        </p>
      ) : null}
      {subscribers.length > 0 ? (
        <TableWrap label="Suscripciones al newsletter">
          <table className="data-table">
            <caption className="sr-only">
              Suscripciones al newsletter{continued ? ', continuación' : ''}, de la más reciente a la más antigua
            </caption>
            <thead>
              <tr>
                <th scope="col">Correo</th>
                <th scope="col">Estado</th>
                <th scope="col">Suscrita</th>
                <th scope="col">Confirmada</th>
                <th scope="col">Acción</th>
              </tr>
            </thead>
            <tbody>
              {subscribers.map((subscriber) => (
                <tr key={subscriber.id}>
                  <td className="break-all">{subscriber.email}</td>
                  <td>{subscriberStateLabels[subscriber.state] ?? subscriber.state}</td>
                  <td className="whitespace-nowrap">{formatDateTime(subscriber.subscribedAt)}</td>
                  <td className="whitespace-nowrap">{formatDateTime(subscriber.confirmedAt)}</td>
                  <td>
                    <Form method="post">
                      <CsrfField token={csrfToken} />
                      <input type="hidden" name="id" value={subscriber.id} />
                      <input type="hidden" name="email" value={subscriber.email} />
                      <button type="submit" name="intent" value="unsubscribe" className="button-danger">
                        Dar de baja<span className="sr-only"> a {subscriber.email}</span>
                      </button>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <PageLinks
        first={continued ? `/newsletter${pageQuery(filters)}` : null}
        next={nextCursor ? `/newsletter${pageQuery(filters, nextCursor)}` : null}
        more="suscripciones, más antiguas"
      />
    </section>
  );
}

export default function Newsletter() {
  const loaded = useLoaderData<typeof loader>();
  const { csrfToken, operator } = useConsole();
  return (
    <NewsletterView {...loaded} csrfToken={csrfToken} roles={operator.roles} result={useActionData<typeof action>()} />
  );
}
