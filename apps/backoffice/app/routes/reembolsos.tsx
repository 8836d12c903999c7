import type { ReactNode } from 'react';
import { data, Form, Link, useLoaderData } from 'react-router';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  ageFilterOptions,
  assignedFilterOptions,
  type ClaimFilters,
  type ClaimInbox,
  type ClaimListItem,
  claimApiQuery,
  claimFiltersOf,
  claimPageQuery,
  claimReaders,
  formatClaimAmount,
  holds,
  statusFilterOptions,
} from '#app/features/claims.ts';
import { callApi } from '#app/lib/api.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/reembolsos';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Reembolsos') }];

export type ClaimsInboxData = {
  filters: ClaimFilters;
  claims: ClaimListItem[];
  nextCursor: string | null;
  continued: boolean;
  error?: string;
};

/** The inbox with the URL's filters, those waiting longest first; «Más» asks for the next page by its cursor. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<ClaimsInboxData> {
  const me = await requireOperator(context, request);
  if (!holds(me.operator.roles, claimReaders)) {
    throw data({ message: 'Tu rol no permite usar esta pantalla.' }, { status: 403 });
  }
  const params = new URL(request.url).searchParams;
  const filters = claimFiltersOf(params);
  const cursor = params.get('cursor');
  const answer = await callApi<ClaimInbox>(context, request, `/claims${claimApiQuery(filters, cursor)}`);
  if (!answer.ok) return { filters, claims: [], nextCursor: null, continued: !!cursor, error: answer.error.message };
  return { filters, claims: answer.data.claims ?? [], nextCursor: answer.data.nextCursor ?? null, continued: !!cursor };
}

function Select({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={`filtro-${name}`} className="field-label">
        {label}
      </label>
      <select id={`filtro-${name}`} name={name} defaultValue={value ?? ''} className="field-input">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Waiting({ days }: { days: number }): ReactNode {
  const text = days === 0 ? 'Hoy' : days === 1 ? '1 día' : `${days} días`;
  return <span className={days >= 7 ? 'font-semibold text-red-800' : undefined}>{text}</span>;
}

export function ClaimsInboxView({ filters, claims, nextCursor, continued, error }: ClaimsInboxData) {
  const filtered = Object.keys(filters).length > 0;
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Reembolsos
      </h1>
      <Form
        method="get"
        className="grid gap-3 rounded border border-slate-300 bg-white p-3 sm:grid-cols-2 lg:grid-cols-4"
        aria-label="Filtros de reembolsos"
      >
        <Select name="estado" label="Estado" value={filters.estado} options={statusFilterOptions} />
        <Select name="asignado" label="Asignación" value={filters.asignado} options={assignedFilterOptions} />
        <Select name="antiguedad" label="Antigüedad" value={filters.antiguedad} options={ageFilterOptions} />
        <div className="flex items-end gap-2">
          <button type="submit" className="button-primary">
            Filtrar
          </button>
          <Link to="/reembolsos" className="button-secondary">
            Limpiar
          </Link>
        </div>
      </Form>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {claims.length > 0 ? (
        <TableWrap label="Solicitudes de reembolso">
          <table className="data-table">
            <caption className="sr-only">
              Solicitudes de reembolso{continued ? ', continuación' : ''}, de la que más espera a la más reciente
            </caption>
            <thead>
              <tr>
                <th scope="col">Número</th>
                <th scope="col">Esperando</th>
                <th scope="col">Estado</th>
                <th scope="col">Titular</th>
                <th scope="col" className="text-right">
                  Monto solicitado
                </th>
                <th scope="col">Recibida</th>
                <th scope="col">Asignado a</th>
              </tr>
            </thead>
            <tbody>
              {claims.map((claim) => (
                <tr key={claim.number}>
                  <td className="whitespace-nowrap font-mono">
                    <Link to={`/reembolsos/${encodeURIComponent(claim.number)}`} className="text-brand-700 underline">
                      {claim.number}
                    </Link>
                  </td>
                  <td className="whitespace-nowrap">
                    <Waiting days={claim.waitingDays} />
                  </td>
                  <td className="whitespace-nowrap">{claim.statusText}</td>
                  <td>{claim.holderName}</td>
                  <td className="whitespace-nowrap text-right tabular-nums">
                    {formatClaimAmount(claim.amount, claim.currency)}
                  </td>
                  <td className="whitespace-nowrap">{formatDateTime(claim.receivedAt)}</td>
                  <td>{claim.assignedTo ?? <span className="text-slate-700">Sin asignar</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      ) : !error ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">
          {filtered ? 'No hay reembolsos con estos filtros.' : 'Todavía no hay solicitudes de reembolso.'}
        </p>
      ) : null}
      <div className="flex gap-3">
        {continued ? (
          <Link to={`/reembolsos${claimPageQuery(filters)}`} className="button-secondary">
            Volver al inicio
          </Link>
        ) : null}
        {nextCursor ? (
          <Link to={`/reembolsos${claimPageQuery(filters, nextCursor)}`} className="button-secondary">
            Más<span className="sr-only"> reembolsos, más recientes</span>
          </Link>
        ) : null}
      </div>
    </section>
  );
}

export default function ClaimsInbox() {
  return <ClaimsInboxView {...useLoaderData<typeof loader>()} />;
}
