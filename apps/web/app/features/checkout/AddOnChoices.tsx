import { formatClp } from '@travesia/domain/money';
import { useId } from 'react';
import type { AddOnOffer, PassengerSlot, PassengerValues } from './passengers-fields.ts';
import type { PassengersSectionProps } from './passengers-form.ts';

/** An offer as one traveller of a band sees it: available, with that band's price. */
export function offersForBand(offers: AddOnOffer[], passengerTypeId: number) {
  return offers.flatMap((offer) => {
    const band = offer.bands.find((one) => one.passengerTypeId === passengerTypeId);
    return band?.available && band.price ? [{ offer, price: band.price }] : [];
  });
}

/**
 * «Adicionales» of one traveller (issue 27 §1): a checkbox per add-on that traveller's band may buy with the chosen
 * plan, its price for them (priced by the API, tax as the plan's) and what it covers in a <details>. Plain checkboxes
 * named `passengers.{i}.addOns`: they post natively without JavaScript; the API checks every choice again on saving.
 */
export function AddOnChoices({
  form,
  errorOf,
  errors,
  start,
  slot,
  index,
  offers,
}: PassengersSectionProps & { slot: PassengerSlot; index: number; offers: AddOnOffer[] }) {
  const id = useId();
  const available = offersForBand(offers, slot.passengerTypeId);
  if (available.length === 0) return null;
  const at = `passengers.${index}.addOns` as const;
  const chosen = new Set(start.passengers[index]?.addOns ?? []);
  const error = errorOf(at, errors.passengers?.[index]?.addOns?.message);
  const messageId = `${id}-message`;
  return (
    <fieldset
      className="mt-5 rounded-xl border border-slate-200 p-3 sm:p-4"
      aria-describedby={error ? messageId : undefined}
    >
      <legend className="px-1 text-base font-bold text-slate-900">
        Adicionales <span className="font-normal text-slate-600">(opcional)</span>
      </legend>
      <p className="text-sm text-slate-600">Amplía la cobertura de este pasajero. El precio es por todo el viaje.</p>
      {error ? (
        <p id={messageId} role="alert" className="mt-2 text-sm font-semibold text-red-700">
          {error}
        </p>
      ) : null}
      <ul className="mt-3 grid gap-3">
        {available.map(({ offer, price }) => {
          const boxId = `${id}-${offer.id}`;
          return (
            <li key={offer.id} className="rounded-lg bg-slate-50 p-3">
              <div className="flex items-start gap-3">
                <input
                  id={boxId}
                  type="checkbox"
                  value={String(offer.id)}
                  defaultChecked={chosen.has(String(offer.id))}
                  aria-describedby={`${boxId}-description`}
                  className="mt-0.5 h-5 w-5 shrink-0 accent-brand-700"
                  {...form.register(at)}
                />
                <label htmlFor={boxId} className="flex min-w-0 flex-1 flex-wrap justify-between gap-x-3">
                  <span className="font-semibold text-slate-900">{offer.name}</span>
                  <span className="font-semibold whitespace-nowrap text-brand-700">+ {price.formatted}</span>
                </label>
              </div>
              <p id={`${boxId}-description`} className="mt-1 pl-8 text-sm text-slate-600">
                {offer.description} <span className="whitespace-nowrap text-slate-500">({offer.precio})</span>
              </p>
              {offer.benefits.length > 0 ? (
                <details className="mt-1 pl-8 text-sm">
                  <summary className="cursor-pointer font-semibold text-brand-700 underline-offset-2 hover:underline">
                    Qué cubre
                  </summary>
                  <dl className="mt-1 grid gap-1">
                    {offer.benefits.map((benefit) => (
                      <div key={benefit.label} className="flex flex-wrap justify-between gap-x-3">
                        <dt className="text-slate-600">{benefit.label}</dt>
                        <dd className="font-semibold text-slate-900">{benefit.value}</dd>
                      </div>
                    ))}
                  </dl>
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * What react-hook-form holds for a traveller's boxes: an array of the ticked values when there are several boxes, but
 * a lone box reads as its value or a boolean.
 */
function tickedIds(raw: unknown, available: { offer: AddOnOffer }[]): string[] {
  if (Array.isArray(raw)) return raw.map(String);
  if (typeof raw === 'string') return [raw];
  if (raw === true) return available.map(({ offer }) => String(offer.id));
  return [];
}

/**
 * The purchase's total with the add-ons ticked so far, as the summary will show it once saved: the plan's price and
 * each ticked add-on's price for that traveller, both as the API priced them (this only adds them up). Announced
 * politely as it changes; nothing when no add-on is ticked.
 */
export function AddOnsTotal({
  slots,
  offers,
  passengers,
  planAmountClp,
}: {
  slots: PassengerSlot[];
  offers: AddOnOffer[];
  passengers: PassengerValues[];
  planAmountClp: number;
}) {
  const addOnsClp = slots.reduce((sum, slot, index) => {
    const available = offersForBand(offers, slot.passengerTypeId);
    const ticked = new Set(tickedIds(passengers[index]?.addOns, available));
    const prices = available.filter(({ offer }) => ticked.has(String(offer.id)));
    return sum + prices.reduce((one, { price }) => one + price.amountClp, 0);
  }, 0);
  return (
    <p aria-live="polite" className="text-right text-sm text-slate-700 empty:hidden">
      {addOnsClp > 0 ? (
        <>
          Adicionales: <strong>+ {formatClp(addOnsClp)}</strong> · Total con adicionales:{' '}
          <strong className="text-base text-slate-900">{formatClp(planAmountClp + addOnsClp)}</strong>
        </>
      ) : null}
    </p>
  );
}
