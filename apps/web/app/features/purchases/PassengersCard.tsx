import { AddOnList } from './AddOns.tsx';
import { Card } from './Card.tsx';
import type { Purchase } from './purchase.ts';

/** The buyer's «Pasajeros» card: each traveller, her certificate number and its download, her add-ons and their price. */
export function PassengersCard({ travellers }: { travellers: Purchase['travellers'] }) {
  return (
    <Card id="mi-compra-pasajeros" title="Pasajeros">
      <ul className="grid gap-2">
        {travellers.map((traveller) => (
          <li key={`${traveller.name}-${traveller.document}`} className="rounded-lg bg-slate-50 px-3 py-2 text-sm">
            <span className="block font-semibold text-slate-900">{traveller.name}</span>
            <span className="text-slate-600">
              {traveller.documentType} {traveller.document}
              {traveller.certificate ? ` · Certificado N° ${traveller.certificate}` : ''}
              {traveller.certificateVoided ? ' (anulado)' : ''}
            </span>
            {traveller.certificate && !traveller.certificateVoided ? (
              <a
                href={`/mi-compra/certificado-${traveller.certificate}.pdf`}
                download={`certificado-${traveller.certificate}.pdf`}
                className="block font-semibold text-brand-700 underline underline-offset-2"
                // The name is beside it already: said to screen readers, not printed twice.
                aria-label={`Descargar el certificado de ${traveller.name}`}
              >
                Descargar el certificado
              </a>
            ) : null}
            <AddOnList addOns={traveller.addOns} label={`Adicionales de ${traveller.name}`} />
          </li>
        ))}
      </ul>
    </Card>
  );
}
