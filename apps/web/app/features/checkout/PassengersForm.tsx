import { todayInChile } from '@travesia/domain/dates';
import { useMemo, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useNavigation, useSubmit } from 'react-router';
import { AddOnsTotal } from './AddOnChoices.tsx';
import { DestinationSection } from './DestinationSection.tsx';
import { EmergencyContactSection } from './EmergencyContactSection.tsx';
import { PassengerSection } from './PassengerSection.tsx';
import type { AddOnOffer, Country, PassengerSlot, PassengersValues } from './passengers-fields.ts';
import type { PassengersSectionProps } from './passengers-form.ts';
import type { PassengersFailure } from './passengers-step.server.ts';
import { useSubmissionErrors } from './posted-form.ts';
import { TermsAndContinue } from './TermsAndContinue.tsx';

/**
 * The form's rules (zod and the domain's, ~45 kB gzip with react-hook-form's zod resolver) are fetched when the
 * visitor first focuses or presses something in the form, not with the page: evaluating them was most of the purchase
 * step's blocking time at 4× CPU (docs/performance-web.md). A check before they arrive waits for them.
 */
const loadRules = () => import('./passengers-rules.ts');
const preloadRules = () => void loadRules().catch(() => undefined);

type Props = {
  slots: PassengerSlot[];
  /** The add-ons offered with the chosen plan (each traveller sees those of their band). */
  addOnOffers: AddOnOffer[];
  /** What the plan alone costs (CLP), for the running total with the add-ons ticked. */
  planAmountClp: number;
  countries: Country[];
  departureDate: string;
  initialValues: PassengersValues;
  actionResult: PassengersFailure | undefined;
};

/**
 * «Datos de los pasajeros»: one block per quoted passenger (youngest band first), the emergency contact (shared or
 * one per passenger), the destination country and the terms. Checked here first; the route action saves it.
 * A real form posting to its route: without JavaScript (or before it loads) it submits natively and the server
 * renders the values and errors; every input carries its value in the HTML (defaultValue), a resumed checkout too.
 */
export function PassengersForm({
  slots,
  addOnOffers,
  planAmountClp,
  countries,
  departureDate,
  initialValues,
  actionResult,
}: Props) {
  const today = todayInChile();
  const resolver = useMemo<Resolver<PassengersValues>>(() => {
    let checks: Resolver<PassengersValues> | undefined;
    return async (values, context, options) => {
      checks ??= (await loadRules()).passengersResolver(slots, departureDate);
      return checks(values, context, options);
    };
  }, [slots, departureDate]);
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const formRef = useRef<HTMLFormElement>(null);
  // What the inputs show first: what was just posted and refused, else what was saved (or empty passengers).
  const [start] = useState(() => actionResult?.values ?? initialValues);

  const form = useForm<PassengersValues>({
    resolver,
    defaultValues: start,
    mode: 'onTouched',
  });
  const {
    handleSubmit,
    watch,
    setError,
    formState: { errors },
  } = form;

  const shared = watch('shareEmergencyContact');
  const passengers = watch('passengers');

  // What the server found (it checks everything again) appears beside its field.
  const { errorOf, serverHasErrors } = useSubmissionErrors(actionResult, setError);
  const section: PassengersSectionProps = { form, errors, errorOf, start };

  // Checked here, then posted as the form itself: the action reads the same fields as a submission without JS.
  const onValid = () => {
    if (formRef.current) submit(formRef.current);
  };

  return (
    <form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={handleSubmit(onValid)}
      onFocus={preloadRules}
      onPointerDown={preloadRules}
      className="grid gap-5"
      aria-label="Datos de los pasajeros"
    >
      {slots.map((slot, index) => (
        <PassengerSection
          // biome-ignore lint/suspicious/noArrayIndexKey: a passenger slot is its position (names may repeat; the list never reorders)
          key={`${slot.passengerTypeId}-${index}`}
          {...section}
          slot={slot}
          index={index}
          departureDate={departureDate}
          today={today}
          documentType={passengers[index]?.document.type ?? '1'}
          offers={addOnOffers}
        />
      ))}

      <EmergencyContactSection {...section} slots={slots} shared={shared} passengers={passengers} />

      <DestinationSection {...section} countries={countries} />

      <AddOnsTotal slots={slots} offers={addOnOffers} passengers={passengers} planAmountClp={planAmountClp} />

      <TermsAndContinue
        {...section}
        actionResult={actionResult}
        serverHasErrors={serverHasErrors}
        submitting={submitting}
      />
    </form>
  );
}
