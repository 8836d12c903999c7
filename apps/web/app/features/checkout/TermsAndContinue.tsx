import { Link } from 'react-router';
import { CheckboxField, ContinueButton, FormErrors } from '#app/components/fields.tsx';
import type { PassengersSectionProps } from './passengers-form.ts';
import type { PassengersFailure } from './passengers-step.server.ts';

/** The terms to accept, the form's own errors and «Continuar a facturación». */
export function TermsAndContinue({
  form,
  errors,
  errorOf,
  start,
  actionResult,
  serverHasErrors,
  submitting,
}: PassengersSectionProps & {
  actionResult: PassengersFailure | undefined;
  serverHasErrors: boolean;
  submitting: boolean;
}) {
  const { register } = form;
  return (
    <div className="grid gap-4 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6">
      <CheckboxField
        error={errorOf('acceptTerms', errors.acceptTerms?.message)}
        defaultChecked={start.acceptTerms}
        label={
          <>
            Acepto los{' '}
            <Link
              to="/terminos"
              target="_blank"
              rel="noopener"
              className="font-semibold text-brand-700 underline underline-offset-2"
            >
              términos y condiciones
              <span className="sr-only"> (se abre en una pestaña nueva)</span>
            </Link>
          </>
        }
        {...register('acceptTerms')}
      />
      <FormErrors messages={actionResult?.formErrors ?? []} />
      {(Object.keys(errors).length > 0 || serverHasErrors) && !actionResult?.formErrors.length ? (
        <p className="text-sm font-medium text-red-700">Revisa los campos marcados para continuar.</p>
      ) : null}
      <ContinueButton
        submitting={submitting}
        label="Continuar a facturación"
        className="w-full sm:w-auto sm:justify-self-end"
      />
    </div>
  );
}
