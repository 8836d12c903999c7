import { Form, Link, useLoaderData } from 'react-router';
import { TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  type ByWord,
  byWordLabels,
  type SaleSearch,
  type StatusWord,
  saleSearchOf,
  saleStatusLabels,
  salesApiQuery,
  salesPageQuery,
  statusWordLabels,
} from '#app/features/sales.ts';
import { callApi } from '#app/lib/api.server.ts';
import type { SalePage, SaleRow } from '#app/lib/contract.ts';
import { formatDateTime, formatFigure } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/ventas';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Ventas') }];

export const salesRoles = ['admin', 'support', 'finance'] as const;

export type SalesData = {
  search: SaleSearch;
  sales: SaleRow[];
  nextCursor: string | null;
  continued: boolean;
  error?: string;
};

/** One page of sales, newest first, with the search of the URL («Hoy» links here with desde/estado). */
export async function loader({ request, context }: Route.LoaderArgs): Promise<SalesData> {
  await requireOperator(context, request, salesRoles);
  const params = new URL(request.url).searchParams;
  const search = saleSearchOf(params, new Date());
  const cursor = params.get('cursor');
  const answer = await callApi<SalePage>(context, request, `/sales${salesApiQuery(search, cursor)}`);
  if (!answer.ok) return { search, sales: [], nextCursor: null, continued: !!cursor, error: answer.error.message };
  return { search, sales: answer.data.sales ?? [], nextCursor: answer.data.nextCursor ?? null, continued: !!cursor };
}

const selectClass = 'field-input';

export function SalesView({ search, sales, nextCursor, continued, error }: SalesData) {
  const filtered = Object.keys(search).length > 0;
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Ventas
      </h1>
      <Form
        method="get"
        role="search"
        aria-label="Buscar ventas"
        className="grid gap-3 rounded border border-slate-300 bg-white p-3 sm:grid-cols-2 lg:grid-cols-6"
      >
        <div className="sm:col-span-2">
          <TextField
            name="q"
            label="Buscar"
            type="search"
            defaultValue={search.q ?? ''}
            autoComplete="off"
            hint="Número de venta o de certificado, RUT, DNI, pasaporte, correo o nombre."
          />
        </div>
        <div>
          <label htmlFor="campo-por" className="field-label">
            Buscar por
          </label>
          <select id="campo-por" name="por" defaultValue={search.por ?? 'todo'} className={selectClass}>
            {(Object.keys(byWordLabels) as ByWord[]).map((word) => (
              <option key={word} value={word}>
                {byWordLabels[word]}
              </option>
            ))}
          </select>
        </div>
        <TextField name="desde" label="Pagadas desde" type="date" defaultValue={search.desde ?? ''} />
        <TextField name="hasta" label="Pagadas hasta" type="date" defaultValue={search.hasta ?? ''} />
        <div>
          <label htmlFor="campo-estado" className="field-label">
            Estado
          </label>
          <select id="campo-estado" name="estado" defaultValue={search.estado ?? ''} className={selectClass}>
            <option value="">Todos</option>
            {(Object.keys(statusWordLabels) as StatusWord[]).map((word) => (
              <option key={word} value={word}>
                {statusWordLabels[word]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-end gap-2 lg:col-span-6">
          <button type="submit" className="button-primary">
            Buscar
          </button>
          {filtered ? (
            <Link to="/ventas" className="button-secondary">
              Limpiar
            </Link>
          ) : null}
        </div>
      </Form>
      {error ? <Notice tone="error">{error}</Notice> : null}
      <TableWrap label="Ventas encontradas">
        <table className="data-table">
          <caption className="sr-only">
            Ventas{filtered ? ' encontradas' : ''}
            {continued ? ', continuación' : ''}, de la más reciente a la más antigua
          </caption>
          <thead>
            <tr>
              <th scope="col">Venta</th>
              <th scope="col">Pagada</th>
              <th scope="col">Titular</th>
              <th scope="col">Viajeros</th>
              <th scope="col">Plan</th>
              <th scope="col">Salida</th>
              <th scope="col" className="text-right">
                Monto
              </th>
              <th scope="col">Estado</th>
            </tr>
          </thead>
          <tbody>
            {sales.map((sale) => (
              <tr key={sale.id}>
                <td className="font-mono">
                  <Link to={`/ventas/${sale.id}`} className="text-brand-700 underline">
                    {sale.id}
                  </Link>
                </td>
                <td className="whitespace-nowrap">{sale.paidAt ? formatDateTime(sale.paidAt) : '—'}</td>
                <td>{sale.holder ?? '—'}</td>
                <td className="tabular-nums">{sale.travellers || '—'}</td>
                <td>{sale.plan ?? '—'}</td>
                <td className="whitespace-nowrap">{sale.departureDate ?? '—'}</td>
                <td className="text-right whitespace-nowrap tabular-nums">{formatFigure(sale.amountClp, 'clp')}</td>
                <td>
                  {saleStatusLabels[sale.status] ?? sale.status}
                  {sale.testPayment ? (
                    <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900">Prueba</span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {sales.length === 0 && !error ? (
        <p className="text-sm">{filtered ? 'No hay ventas con esta búsqueda.' : 'Todavía no hay ventas.'}</p>
      ) : null}
      <div className="flex gap-3">
        {continued ? (
          <Link to={`/ventas${salesPageQuery(search)}`} className="button-secondary">
            Volver al inicio
          </Link>
        ) : null}
        {nextCursor ? (
          <Link to={`/ventas${salesPageQuery(search, nextCursor)}`} className="button-secondary">
            Más<span className="sr-only"> ventas, más antiguas</span>
          </Link>
        ) : null}
      </div>
    </section>
  );
}

export default function Sales() {
  return <SalesView {...useLoaderData<typeof loader>()} />;
}
