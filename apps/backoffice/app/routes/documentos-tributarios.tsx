import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import type { Role } from '#app/lib/contract.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime, formatFigure } from '#app/lib/format.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/documentos-tributarios';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Documentos tributarios sin emitir') }];

/** Finance answers for the tax documents with the administrators (apps/api/src/modules/operators/guard.ts). */
const screenRoles: readonly Role[] = ['admin', 'finance'];

/** GET /api/backoffice/tax-documents (apps/api/src/modules/tax-documents/console-routes.ts). */
export type NotIssuedDocument = {
  id: number;
  saleId: number;
  typeName: string;
  totalClp: number;
  state: 'pendiente' | 'emitido' | 'fallido';
  tries: number;
  lastError: string | null;
  createdAt: string;
};

export type TaxDocumentsData = { documents: NotIssuedDocument[]; error?: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<TaxDocumentsData> {
  await requireOperator(context, request, screenRoles);
  const answer = await callApi<{ documents: NotIssuedDocument[] }>(context, request, '/tax-documents');
  if (!answer.ok) return { documents: [], error: answer.error.message };
  return { documents: answer.data.documents ?? [] };
}

export type TaxDocumentsResult = { ok: boolean; message: string };

/** «Reintentar»: a refused document asked of the provider again (the API audits it and queues the issue job). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, screenRoles);
  const form = await request.formData();
  const id = Number(formText(form, 'id'));
  if (!Number.isSafeInteger(id) || id <= 0) {
    return data<TaxDocumentsResult>({ ok: false, message: 'Documento desconocido. Recarga la página.' }, 400);
  }
  const answer = await callApi(context, request, `/tax-documents/${id}/retry`, {
    method: 'POST',
    csrfToken: formText(form, 'csrf'),
  });
  if (!answer.ok) return data<TaxDocumentsResult>({ ok: false, message: answer.error.message }, answer.status);
  return {
    ok: true,
    message: `Documento ${id} enviado de nuevo al proveedor: el proceso de fondo lo emitirá en segundos y lo enviará al comprador.`,
  };
}

export function TaxDocumentsView({
  documents,
  error,
  csrfToken,
  result,
}: TaxDocumentsData & { csrfToken: string; result?: TaxDocumentsResult }) {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        Documentos tributarios sin emitir
      </h1>
      <p className="text-sm text-slate-700">
        Boletas, facturas y notas de crédito que el proveedor rechazó o que siguen sin emitirse después de varios
        intentos. La compra y los certificados no esperan por ellos; el comprador recibe el documento cuando se emite.
        Corrige la causa (por ejemplo, folios agotados o un RUT mal escrito) y luego reintenta.
      </p>
      {result ? <Notice tone={result.ok ? 'success' : 'error'}>{result.message}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {documents.length === 0 && !error ? (
        <p className="rounded border border-slate-300 bg-white p-3 text-sm">
          Todos los documentos tributarios están emitidos.
        </p>
      ) : (
        <TableWrap label="Documentos tributarios sin emitir">
          <table className="data-table">
            <caption className="sr-only">Documentos tributarios sin emitir, del más antiguo al más reciente</caption>
            <thead>
              <tr>
                <th scope="col">Documento</th>
                <th scope="col">Venta</th>
                <th scope="col">Monto</th>
                <th scope="col">Estado</th>
                <th scope="col">Error del proveedor</th>
                <th scope="col">Creado</th>
                <th scope="col">Acción</th>
              </tr>
            </thead>
            <tbody>
              {documents.map((document) => (
                <tr key={document.id}>
                  <td>
                    {document.typeName}
                    <span className="block font-mono text-xs text-slate-700">#{document.id}</span>
                  </td>
                  <td className="whitespace-nowrap">
                    <Link to={`/ventas/${document.saleId}`}>N° {document.saleId}</Link>
                  </td>
                  <td className="whitespace-nowrap tabular-nums">{formatFigure(document.totalClp, 'clp')}</td>
                  <td className="whitespace-nowrap">
                    {document.state === 'fallido' ? 'Rechazado' : `Reintentando (${document.tries} intentos)`}
                  </td>
                  <td className="max-w-md min-w-48 text-xs break-words">{document.lastError ?? '—'}</td>
                  <td className="whitespace-nowrap">{formatDateTime(document.createdAt)}</td>
                  <td>
                    {document.state === 'fallido' ? (
                      <Form method="post">
                        <CsrfField token={csrfToken} />
                        <input type="hidden" name="id" value={document.id} />
                        <button type="submit" className="button-secondary">
                          Reintentar<span className="sr-only"> el documento {document.id}</span>
                        </button>
                      </Form>
                    ) : (
                      <span className="text-xs text-slate-700">Se reintenta solo</span>
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

export default function TaxDocuments() {
  const { csrfToken } = useConsole();
  return (
    <TaxDocumentsView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
    />
  );
}
