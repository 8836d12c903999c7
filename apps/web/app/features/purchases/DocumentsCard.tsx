import { todayInChile } from '@travesia/domain/dates';
import { formatDay } from '#app/lib/format.ts';
import { Card } from './Card.tsx';
import type { Purchase } from './purchase.ts';
import { downloadLink } from './styles.ts';

/** The buyer's «Tus documentos» card: the receipt, the certificates (unless withdrawn) and the general conditions. */
export function DocumentsCard({ purchase, withdrawn }: { purchase: Purchase; withdrawn: boolean }) {
  return (
    <Card id="mi-compra-documentos" title="Tus documentos">
      <div className="grid gap-3">
        <a href="/mi-compra/comprobante.pdf" download="comprobante.pdf" className={downloadLink}>
          Descargar comprobante de compra
        </a>
        {withdrawn ? (
          <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
            Los certificados de esta compra fueron anulados por el retracto y ya no se pueden descargar.
          </p>
        ) : (
          <a href="/mi-compra/certificado.pdf" download="certificado.pdf" className={downloadLink}>
            Descargar certificado (todos los pasajeros)
          </a>
        )}
        <a
          href={purchase.generalConditionsPdfUrl}
          target="_blank"
          rel="noopener"
          className="text-center font-semibold text-brand-700 underline underline-offset-4"
        >
          Condiciones generales (PDF)
          <span className="sr-only"> (se abre en una pestaña nueva)</span>
        </a>
        <a
          href={purchase.generalConditionsUrl}
          className="text-center font-semibold text-brand-700 underline underline-offset-4"
        >
          Condiciones generales
        </a>
      </div>
      <TaxDocuments documents={purchase.taxDocuments} />
      <AcceptedTexts pages={purchase.acceptedLegalPages} />
      <p className="mt-4 text-xs text-slate-600">
        Vendido por {purchase.seller.legalName}, RUT {purchase.seller.rut}, {purchase.seller.address}.
      </p>
    </Card>
  );
}

/**
 * «Documentos tributarios»: each boleta, factura or nota de crédito issued for the purchase, with its folio, date and
 * amount and its PDF; one issued by the local adapter says it has no tax value. Before the first is issued (the tax
 * office's provider may answer later), the card says it is on its way.
 */
function TaxDocuments({ documents }: { documents: Purchase['taxDocuments'] }) {
  return (
    <section aria-labelledby="mi-compra-documentos-tributarios" className="mt-5 border-t border-slate-100 pt-4">
      <h3 id="mi-compra-documentos-tributarios" className="mb-2 font-bold text-slate-900">
        Documentos tributarios
      </h3>
      {documents.length === 0 ? (
        <p className="text-sm text-slate-700">
          Estamos emitiendo tu boleta o factura electrónica: aparecerá aquí y te la enviaremos por correo.
        </p>
      ) : (
        <ul className="grid gap-2">
          {documents.map((document) => (
            <li key={document.id} className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-800">
              <p className="font-semibold">
                {document.typeName}
                {document.folio === null ? '' : ` N° ${document.folio}`}
              </p>
              <p>
                {document.date ? `${formatDay(document.date)} · ` : ''}
                {document.formattedTotal}
              </p>
              {document.noTaxValue ? (
                <p className="text-xs font-semibold text-amber-900">Sin valor tributario (documento de prueba)</p>
              ) : null}
              {document.folio === null ? (
                <p className="text-xs text-slate-600">En emisión</p>
              ) : (
                <a
                  href={`/mi-compra/documento-tributario-${document.id}.pdf`}
                  download={`documento-tributario-${document.id}.pdf`}
                  className="font-semibold text-brand-700 underline underline-offset-4"
                >
                  Descargar PDF<span className="sr-only"> de {document.typeName}</span>
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The legal texts the buyer accepted when paying, each at the version then in force (a sale before versions: none). */
function AcceptedTexts({ pages }: { pages: Purchase['acceptedLegalPages'] }) {
  if (pages.length === 0) return null;
  return (
    <section aria-labelledby="mi-compra-textos-aceptados" className="mt-5 border-t border-slate-100 pt-4">
      <h3 id="mi-compra-textos-aceptados" className="mb-2 font-bold text-slate-900">
        Lo que aceptaste al pagar
      </h3>
      <ul className="grid gap-1 text-sm text-slate-700">
        {pages.map((page) => (
          <li key={page.slug}>
            <a href={page.url} className="font-semibold text-brand-700 underline underline-offset-2">
              {page.title}
            </a>
            , versión {page.version} del {formatDay(todayInChile(new Date(page.publishedAt)))}
          </li>
        ))}
      </ul>
    </section>
  );
}
