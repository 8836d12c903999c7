import { Form, useNavigation } from 'react-router';
import { ExtrasFields } from './ExtrasFields.tsx';
import { PassengerCounts } from './PassengerCounts.tsx';
import { PlaceFields } from './PlaceFields.tsx';
import type { QuoterActionResult } from './quoter.server.ts';
import type { PassengerTypes, QuoterData, QuoterFieldsProps } from './quoter-values.ts';
import { TravelDates } from './TravelDates.tsx';
import { useQuoter } from './useQuoter.ts';

type Props = QuoterData & {
  passengerTypes: PassengerTypes;
  actionResult: QuoterActionResult | undefined;
};

/**
 * The quoter (spec §2 home and cotizador): origin, modality, destination by modality, dates by the modality's
 * rules, passengers by age band, discount code and the covid upgrade. Checked here before any call; the route
 * action creates the quotation and sends the visitor to its plans. A plain POST form underneath: before the scripts
 * run (or without them) every control posts natively, the passengers as number inputs that become − / + steppers
 * once the page is interactive, and the action checks everything again.
 */
export function QuoterForm(props: Props) {
  const { origins, modalities, passengerTypes, actionResult, quotation } = props;
  const quoter = useQuoter(props);
  const { values, errors, change } = quoter;
  const fields: QuoterFieldsProps = { values, errors, change };
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';

  return (
    <Form
      ref={quoter.formRef}
      method="post"
      noValidate
      onSubmit={quoter.onSubmit}
      onFocus={quoter.preloadRules}
      onPointerDown={quoter.preloadRules}
      className="grid gap-4"
      aria-label="Cotizador de asistencia en viaje"
    >
      {quotation ? <input type="hidden" name="quotationId" value={quotation.id} /> : null}
      <PlaceFields origins={origins} modalities={modalities} destinations={quoter.destinations} {...fields} />
      <TravelDates returnFixed={quoter.returnFixed} {...fields} />
      <PassengerCounts
        passengerTypes={passengerTypes}
        passengers={values.passengers}
        totalPassengers={quoter.totalPassengers}
        error={errors.passengers}
        enhanced={quoter.enhanced}
        changePassengers={quoter.changePassengers}
      />
      <ExtrasFields {...fields} />

      {actionResult?.formErrors.length ? (
        <p className="rounded-lg bg-red-50 px-3 py-2 font-medium text-red-800" role="alert">
          {actionResult.formErrors.join(' ')}
        </p>
      ) : null}

      <button
        type="submit"
        disabled={submitting}
        className="rounded-xl bg-accent-700 px-6 py-3 text-lg font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70"
      >
        {submitting ? 'Cotizando...' : quotation ? 'Actualizar cotización' : 'Cotizar'}
      </button>
      <p className="text-center text-sm text-slate-600">
        Descuentos y promociones ya aplicados · Hasta 6 cuotas sin interés
      </p>
    </Form>
  );
}
