import { Form, Link, useLoaderData } from 'react-router';
import { SelectField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { PageLinks } from '#app/components/PageLinks.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  ageOptions,
  type ContactFilters,
  type ContactPage,
  type ContactSummary,
  closedByLabel,
  contactApiQuery,
  contactFiltersOf,
  contactStateLabels,
  contactStateOptions,
  pageQuery,
} from '#app/features/contact.ts';
import { callApi } from '#app/lib/api.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/contacto';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Contacto') }];

/** Who may use the screen (guard.ts: the contact routes are admin and support). */
export const contactRoles = ['admin', 'support'] as const;

export type ContactInboxData = {
  filters: ContactFilters;
  requests: ContactSummary[];
  nextCursor: string | null;
  continued: boolean;
  error?: string;
};

/** One page of the inbox, newest first, with the URL's filters (`estado`, `antiguedad`); «Más» by cursor. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<ContactInboxData> {
  await requireOperator(context, request, contactRoles);
  const params = new URL(request.url).searchParams;
  const filters = contactFiltersOf(params);
  const cursor = params.get('cursor');
  const answer = await callApi<ContactPage>(context, request, `/contact-requests${contactApiQuery(filters, cursor)}`);
  if (!answer.ok) return { filters, requests: [], nextCursor: null, continued: !!cursor, error: answer.error.message };
  return {
    filters,
    requests: answer.data.requests ?? [],
    nextCursor: answer.data.nextCursor ?? null,
    continued: !!cursor,
  };
}

export function ContactInboxView({ filters, requests, nextCursor, continued, error }: ContactInboxData) {
  const filtered = !!(filters.estado || filters.antiguedad);
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Contacto
      </h1>
      <Form method="get" className="flex flex-wrap items-end gap-3 rounded border border-slate-300 bg-white p-3">
        <SelectField
          name="estado"
          label="Estado"
          options={[{ value: '', label: 'Todas' }, ...contactStateOptions]}
          defaultValue={filters.estado ?? ''}
        />
        <SelectField
          name="antiguedad"
          label="Recibida hace"
          options={[{ value: '', label: 'Cualquier fecha' }, ...ageOptions]}
          defaultValue={filters.antiguedad ?? ''}
        />
        <div className="flex gap-2">
          <button type="submit" className="button-primary">
            Filtrar
          </button>
          <Link to="/contacto" className="button-secondary">
            Limpiar
          </Link>
        </div>
      </Form>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {requests.length === 0 && !error ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">
          {filtered ? 'No hay solicitudes con estos filtros.' : 'Todavía no llegan solicitudes de contacto.'}
        </p>
      ) : null}
      {requests.length > 0 ? (
        <TableWrap label="Solicitudes de contacto">
          <table className="data-table">
            <caption className="sr-only">
              Solicitudes de contacto{continued ? ', continuación' : ''}, de la más reciente a la más antigua
            </caption>
            <thead>
              <tr>
                <th scope="col">N°</th>
                <th scope="col">Recibida</th>
                <th scope="col">Nombre</th>
                <th scope="col">Correo</th>
                <th scope="col">Asunto</th>
                <th scope="col">Estado</th>
                <th scope="col">Por</th>
              </tr>
            </thead>
            <tbody>
              {requests.map((item) => (
                <tr key={item.id}>
                  <td className="whitespace-nowrap">
                    <Link to={`/contacto/${item.id}`} className="text-brand-700 underline">
                      <span className="sr-only">Ver solicitud </span>N° {item.id}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap">{formatDateTime(item.receivedAt)}</td>
                  <td>{item.fullName}</td>
                  <td className="whitespace-nowrap">{item.email}</td>
                  <td>{item.subject}</td>
                  <td className="whitespace-nowrap">
                    {item.state === 'unanswered' ? (
                      <strong>{contactStateLabels[item.state]}</strong>
                    ) : (
                      (contactStateLabels[item.state] ?? item.state)
                    )}
                  </td>
                  <td>
                    {closedByLabel(item.closedBy)}
                    {item.closedAt ? (
                      <span className="block text-xs text-slate-700">{formatDateTime(item.closedAt)}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : null}
      <PageLinks
        first={continued ? `/contacto${pageQuery(filters)}` : null}
        next={nextCursor ? `/contacto${pageQuery(filters, nextCursor)}` : null}
        more="solicitudes, más antiguas"
      />
    </section>
  );
}

export default function ContactInbox() {
  return <ContactInboxView {...useLoaderData<typeof loader>()} />;
}
