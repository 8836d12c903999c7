import { consentTexts, dataProcessingConsentRequired, withdrawalNotice } from '@travesia/domain/consents';
import { useEffect, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { CheckboxField, FieldMessage, FormSection } from '#app/components/fields.tsx';
import type { components } from '#app/lib/api-schema.d.ts';
import { chooseGatewayMessage, testGatewayId } from './checkout.ts';
import { generalConditionsPdfUrl } from './format.ts';

export type PaymentGateway = components['schemas']['PaymentGateway'];

/** Whatever the company calls its test gateway, the visitor is told it is not a real payment. */
const testGatewayLabel = 'Pago de prueba (sin cargo real)';
/**
 * A real gateway running in test mode (Webpay on Transbank's integration environment) keeps its name and says, next
 * to it, that it takes no real money: a test payment says so wherever it appears (issue 22).
 */
export const testModeNote = {
  badge: 'Pago de prueba',
  detail: 'Ambiente de integración de Transbank: no se cobra dinero real.',
} as const;

const isRealInTestMode = (gateway: PaymentGateway) => gateway.testMode && gateway.id !== testGatewayId;

/** Why the payment could not start, each message with the way to fix it when there is one. */
export type PaymentActionResult = {
  problems: { message: string; link: { to: string; label: string } | null }[];
  gatewayError: string | null;
  /** The required consent was not given (the API refuses to start without it). */
  consentError?: string | null;
};

type Props = {
  gateways: PaymentGateway[];
  totalClp: string;
  instalmentOptions: { count: number; amount: string }[];
  /** Something the API will refuse the payment for (missing data…), known before trying. */
  blocked: boolean;
  actionResult: PaymentActionResult | undefined;
};

/**
 * The gateway choice (radio cards, the real gateways first, none preselected: the buyer chooses) and «Pagar $…».
 * The route action starts the payment and sends the browser to the gateway's page with a full document navigation;
 * without JavaScript the form posts natively and the action answers the same way.
 */
export function PaymentForm({ gateways, totalClp, instalmentOptions, blocked, actionResult }: Props) {
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  // After a successful start the browser leaves for the gateway: keep the button busy until it does.
  const leaving = navigation.state === 'loading' && navigation.formMethod === 'POST';
  // «Pagar» without a choice: said here at once (the action says the same without JavaScript).
  const [notChosen, setNotChosen] = useState(false);
  const [notConsented, setNotConsented] = useState(false);
  useEffect(() => {
    if (actionResult) {
      setNotChosen(false);
      setNotConsented(false);
    }
  }, [actionResult]);
  const consentError = notConsented ? dataProcessingConsentRequired.message : (actionResult?.consentError ?? null);
  const gatewayError = notChosen ? chooseGatewayMessage : (actionResult?.gatewayError ?? null);
  const problems = actionResult?.problems ?? [];

  return (
    <Form
      method="post"
      className="grid gap-5"
      aria-label="Pago"
      onSubmit={(event) => {
        const form = new FormData(event.currentTarget);
        const chosen = form.get('gatewayId');
        const consented = form.get('consentDataProcessing') === 'on';
        setNotChosen(!chosen);
        setNotConsented(!consented);
        if (!chosen || !consented) {
          event.preventDefault();
          const first = chosen ? 'input[name="consentDataProcessing"]' : 'input[name="gatewayId"]';
          event.currentTarget.querySelector<HTMLInputElement>(first)?.focus();
        }
      }}
    >
      <FormSection title="Medio de pago" description="Elige cómo quieres pagar. Te llevaremos a su sitio seguro.">
        {gateways.length === 0 ? (
          <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 font-medium text-amber-900">
            En este momento no hay medios de pago disponibles. Intenta nuevamente en unos minutos.
          </p>
        ) : (
          <fieldset aria-describedby={gatewayError ? 'gateway-error' : undefined}>
            <legend className="sr-only">Medio de pago</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              {gateways.map((gateway) => (
                <label
                  key={gateway.id}
                  className="flex cursor-pointer items-center gap-3 rounded-xl border-2 border-slate-200 bg-white p-4 transition-colors hover:border-brand-500 has-checked:border-brand-700 has-checked:bg-brand-50 has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-accent-700"
                >
                  <input
                    type="radio"
                    name="gatewayId"
                    value={gateway.id}
                    onChange={() => setNotChosen(false)}
                    // In test mode the option is still named as the gateway; the note is its description.
                    {...(isRealInTestMode(gateway)
                      ? {
                          'aria-labelledby': `gateway-${gateway.id}-name`,
                          'aria-describedby': `gateway-${gateway.id}-test`,
                        }
                      : {})}
                    className="h-5 w-5 shrink-0 accent-brand-700 focus-visible:outline-none"
                  />
                  <img src={gateway.logo} alt="" width={96} height={36} className="h-9 w-24 shrink-0 object-contain" />
                  {gateway.id === testGatewayId ? (
                    <span className="min-w-0 rounded-md bg-amber-100 px-2 py-1 font-semibold text-amber-900 ring-1 ring-amber-700">
                      {testGatewayLabel}
                    </span>
                  ) : isRealInTestMode(gateway) ? (
                    <span className="grid min-w-0 justify-items-start gap-1">
                      <span id={`gateway-${gateway.id}-name`} className="font-semibold text-slate-900">
                        {gateway.name}
                      </span>
                      <span id={`gateway-${gateway.id}-test`} className="text-sm text-amber-900">
                        <span className="mr-1 inline-block rounded-md bg-amber-100 px-1.5 py-0.5 font-semibold ring-1 ring-amber-700">
                          {testModeNote.badge}
                          <span className="sr-only">.</span>
                        </span>
                        {testModeNote.detail}
                      </span>
                    </span>
                  ) : (
                    <span className="min-w-0 font-semibold text-slate-900">{gateway.name}</span>
                  )}
                </label>
              ))}
            </div>
            <div className="mt-2">
              <FieldMessage id="gateway-error" error={gatewayError ?? undefined} />
            </div>
          </fieldset>
        )}
        <p className="mt-4 flex items-center gap-2 text-sm font-semibold text-brand-700">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0" fill="currentColor">
            <path d="M2 5a2 2 0 0 1 2-2h12a2 2 0 0 1 2 2v1H2V5Zm0 3h16v7a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V8Zm3 5v1h4v-1H5Z" />
          </svg>
          Paga en hasta {instalmentOptions.length} cuotas sin interés
        </p>
        {/* The buyer picks the number on the card's page; here each option shows what it costs. */}
        <ul
          aria-label="Cuotas sin interés"
          className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-3"
        >
          {instalmentOptions.map((option) => (
            <li key={option.count} data-testid="instalment-option">
              {option.count === 1 ? '1 cuota' : `${option.count} cuotas`} de{' '}
              <span className="font-semibold text-slate-900">{option.amount}</span>
            </li>
          ))}
        </ul>
      </FormSection>

      {problems.length > 0 ? (
        <div role="alert" className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800">
          <p className="font-bold">No pudimos iniciar el pago</p>
          <ul className="mt-1 grid gap-1.5">
            {problems.map((problem) => (
              <li key={problem.message}>
                {problem.message}
                {problem.link ? (
                  <>
                    {' '}
                    <Link to={problem.link.to} className="font-semibold whitespace-nowrap underline underline-offset-2">
                      {problem.link.label}
                    </Link>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="grid gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-6">
        <p className="rounded-lg bg-brand-50 px-3 py-2 text-sm text-slate-800" data-testid="withdrawal-notice">
          {withdrawalNotice}{' '}
          <Link
            to="/terminos"
            target="_blank"
            rel="noopener"
            className="font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2"
          >
            Condiciones
            <span className="sr-only"> (se abre en una pestaña nueva)</span>
          </Link>{' '}
          <a
            href={generalConditionsPdfUrl}
            target="_blank"
            rel="noopener"
            className="font-semibold whitespace-nowrap text-brand-700 underline underline-offset-2"
            data-testid="conditions-pdf"
          >
            Condiciones generales (PDF)
            <span className="sr-only"> (se abre en una pestaña nueva)</span>
          </a>
        </p>
        {/* Neither box is ticked for the buyer: the first is required, the second is theirs to choose. */}
        <CheckboxField
          name="consentDataProcessing"
          label={consentTexts.dataProcessing}
          error={consentError ?? undefined}
        />
        <CheckboxField name="consentMarketing" label={consentTexts.marketing} />
        <button
          type="submit"
          disabled={submitting || leaving || blocked || gateways.length === 0}
          className="flex w-full items-center justify-center gap-2 rounded-xl bg-accent-700 px-6 py-4 text-lg font-bold text-white shadow hover:bg-accent-800 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
            <path d="M10 1.5a4.5 4.5 0 0 0-4.5 4.5v2H4.5A1.5 1.5 0 0 0 3 9.5v8A1.5 1.5 0 0 0 4.5 19h11a1.5 1.5 0 0 0 1.5-1.5v-8A1.5 1.5 0 0 0 15.5 8h-1V6A4.5 4.5 0 0 0 10 1.5ZM7.5 6a2.5 2.5 0 0 1 5 0v2h-5V6Z" />
          </svg>
          {submitting || leaving ? 'Conectando con el medio de pago...' : `Pagar ${totalClp}`}
        </button>
        <p className="text-center text-sm text-slate-500">
          Pago seguro: no guardamos los datos de tu tarjeta. Al pagar aceptas los términos y condiciones del servicio.
        </p>
      </div>
    </Form>
  );
}
