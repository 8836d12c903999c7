import { Form } from 'react-router';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { Card } from './Card.tsx';
import type { AddOnsToBuy } from './purchase.ts';
import { secondaryButton } from './styles.ts';
import { useBusy } from './useBusy.ts';

/**
 * «Agregar adicionales» (issue 27 §1): until the day before departure, the add-ons marked for it that each traveller
 * may still add, with their price for that traveller (priced by the API). A plain form post: the page's action sends
 * the ticked boxes to the API and the buyer pays them at the gateway; nothing changes until the payment is approved.
 */
export function AddOnPurchaseCard({ toBuy, error }: { toBuy: AddOnsToBuy; error: string | null }) {
  const busy = useBusy('agregar-adicionales');
  const travellers = toBuy.travellers.filter((traveller) => traveller.offers.length > 0);
  return (
    <Card id="mi-compra-adicionales" title="Agregar adicionales" className="md:col-span-2">
      <p className="text-sm text-slate-600">
        Puedes sumar estas coberturas hasta el día anterior a la salida. Pagas solo los adicionales que elijas y te
        enviamos los certificados con ellos.
      </p>
      {error ? (
        <p role="alert" className="mt-3 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
          {error}
        </p>
      ) : null}
      <Form method="post" aria-label="Agregar adicionales" className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="agregar-adicionales" />
        {travellers.map((traveller) => (
          <fieldset key={traveller.seq} className="rounded-xl border border-slate-200 p-3 sm:p-4">
            <legend className="px-1 font-bold text-slate-900">{traveller.name}</legend>
            <ul className="grid gap-2">
              {traveller.offers.map((offer) => {
                const id = `adicional-${traveller.seq}-${offer.id}`;
                return (
                  <li key={offer.id} className="rounded-lg bg-slate-50 p-3">
                    <div className="flex items-start gap-3">
                      <input
                        id={id}
                        type="checkbox"
                        name={`adicional-${traveller.seq}`}
                        value={String(offer.id)}
                        aria-describedby={`${id}-descripcion`}
                        className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
                      />
                      <label htmlFor={id} className="flex min-w-0 flex-1 flex-wrap justify-between gap-x-3">
                        <span className="font-semibold text-slate-900">{offer.name}</span>
                        <span className="font-semibold whitespace-nowrap text-brand-700">
                          + {offer.price.formatted}
                        </span>
                      </label>
                    </div>
                    <p id={`${id}-descripcion`} className="mt-1 pl-8 text-sm text-slate-600">
                      {offer.description} <span className="whitespace-nowrap text-slate-500">({offer.precio})</span>
                    </p>
                  </li>
                );
              })}
            </ul>
          </fieldset>
        ))}
        <div>
          <SubmitButton
            busy={busy}
            label="Pagar adicionales"
            busyLabel="Preparando el pago..."
            className={secondaryButton}
          />
        </div>
      </Form>
    </Card>
  );
}
