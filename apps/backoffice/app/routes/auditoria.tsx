import { Form, Link, useLoaderData } from 'react-router';
import { TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { PageLinks } from '#app/components/PageLinks.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  type AuditFilters,
  actorLabel,
  auditFiltersOf,
  auditQuery,
  targetLabel,
  valueLabel,
} from '#app/features/audit.ts';
import { callApi } from '#app/lib/api.server.ts';
import type { AuditEntry, AuditPage } from '#app/lib/contract.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/auditoria';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Auditoría') }];

export type AuditData = {
  filters: AuditFilters;
  entries: AuditEntry[];
  nextCursor: string | null;
  /** Whether this page continues an earlier one (a cursor in the URL). */
  continued: boolean;
  error?: string;
};

/** One page of the trail, newest first, with the filters of the URL; «Más» asks for the next by its cursor. */
export async function loader({ request, context }: Route.LoaderArgs): Promise<AuditData> {
  await requireOperator(context, request, 'admin');
  const params = new URL(request.url).searchParams;
  const filters = auditFiltersOf(params);
  const cursor = params.get('cursor');
  const answer = await callApi<AuditPage>(context, request, `/audit${auditQuery(filters, cursor)}`);
  if (!answer.ok) return { filters, entries: [], nextCursor: null, continued: !!cursor, error: answer.error.message };
  return {
    filters,
    entries: answer.data.entries ?? [],
    nextCursor: answer.data.nextCursor ?? null,
    continued: !!cursor,
  };
}

export function AuditView({ filters, entries, nextCursor, continued, error }: AuditData) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Auditoría
      </h1>
      <Form
        method="get"
        className="grid gap-3 rounded border border-slate-300 bg-white p-3 sm:grid-cols-2 lg:grid-cols-5"
      >
        <TextField name="actor" label="Quién (correo)" defaultValue={filters.actor ?? ''} autoComplete="off" />
        <TextField name="action" label="Acción" defaultValue={filters.action ?? ''} autoComplete="off" />
        <TextField name="from" label="Desde" type="date" defaultValue={filters.from ?? ''} />
        <TextField name="to" label="Hasta" type="date" defaultValue={filters.to ?? ''} />
        <div className="flex items-end gap-2">
          <button type="submit" className="button-primary">
            Filtrar
          </button>
          <Link to="/auditoria" className="button-secondary">
            Limpiar
          </Link>
        </div>
      </Form>
      <p className="text-sm">
        <a href={`/api/backoffice/audit.csv${auditQuery(filters)}`} className="text-brand-700 underline" download>
          Descargar CSV con estos filtros
        </a>
      </p>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TableWrap label="Registro de auditoría">
        <table className="data-table">
          <caption className="sr-only">
            Registro de auditoría{continued ? ', continuación' : ''}, del más reciente al más antiguo
          </caption>
          <thead>
            <tr>
              <th scope="col">Cuándo</th>
              <th scope="col">Quién</th>
              <th scope="col">Acción</th>
              <th scope="col">Sobre</th>
              <th scope="col">IP</th>
              <th scope="col">Antes</th>
              <th scope="col">Después</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="whitespace-nowrap">{formatDateTime(entry.at)}</td>
                <td>{actorLabel(entry.actor)}</td>
                <td className="font-mono">{entry.action}</td>
                <td className="break-all">{targetLabel(entry)}</td>
                <td className="font-mono">{entry.ip ?? '—'}</td>
                <td className="max-w-md min-w-64 font-mono text-xs break-all">{valueLabel(entry.before)}</td>
                <td className="max-w-md min-w-64 font-mono text-xs break-all">{valueLabel(entry.after)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {entries.length === 0 && !error ? <p className="text-sm">No hay registros con estos filtros.</p> : null}
      <PageLinks
        first={continued ? `/auditoria${auditQuery(filters)}` : null}
        next={nextCursor ? `/auditoria${auditQuery(filters, nextCursor)}` : null}
        more="registros, más antiguos"
      />
    </section>
  );
}

export default function Audit() {
  return <AuditView {...useLoaderData<typeof loader>()} />;
}
