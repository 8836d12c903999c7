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
      <p className="mt-4 text-xs text-slate-600">
        Vendido por {purchase.seller.legalName}, RUT {purchase.seller.rut}, {purchase.seller.address}.
      </p>
    </Card>
  );
}
