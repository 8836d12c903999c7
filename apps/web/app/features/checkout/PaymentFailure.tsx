import { formatClp } from '@travesia/domain/money';
import { Link } from 'react-router';
import { useShellModals } from '#app/components/shell-modals-context.ts';
import type { components } from '#app/lib/api-schema.d.ts';

type Status = components['schemas']['PaymentResult']['resultTransaction'];

export type PaymentFailureData =
  | { state: 'generic' }
  | {
      state: 'result';
      status: Status;
      /** Null when this browser did not start the payment (it cannot know the quotation). */
      retryUrl: string | null;
      successUrl: string;
      idVenta: number;
      amountClp: number;
      /** An attempt on a test gateway (the sandbox, Webpay's integration environment): said on the page. */
      testPayment: boolean;
    };

/** What a failed test attempt adds: the visitor is on a test store, where no money moves either way. */
export const failedTestPaymentNote =
  'Pago de prueba: este intento se hizo en un ambiente de prueba; no se cobra dinero real.';

const reasons: Record<Status, { title: string; detail: string }> = {
  DECLINED: {
    title: 'Tu banco rechazó el pago',
    detail:
      'No se realizó ningún cargo. Revisa el saldo o cupo de tu tarjeta, o intenta con otra tarjeta o medio de pago.',
  },
  ABORTED: {
    title: 'Anulaste el pago antes de completarlo',
    detail: 'No se realizó ningún cargo. Tus datos siguen guardados: puedes pagar cuando quieras.',
  },
  TIMEOUT: {
    title: 'Se agotó el tiempo para pagar',
    detail: 'La página de pago estuvo abierta demasiado tiempo y se cerró por seguridad. No se realizó ningún cargo.',
  },
  ERROR: {
    title: 'Hubo un problema al procesar el pago',
    detail:
      'El medio de pago no pudo confirmar la transacción. Si ves un cargo en tu tarjeta, contáctanos y lo revisamos.',
  },
  PENDING: {
    title: 'Tu pago aún no se completa',
    detail: 'El medio de pago todavía no nos confirma el resultado. Revisa nuevamente en unos minutos.',
  },
  CONFIRMING: {
    title: 'Estamos confirmando tu pago',
    detail: 'El medio de pago todavía no nos confirma el resultado. Revisa nuevamente en unos minutos.',
  },
  AUTHORIZED: { title: 'Tu pago fue aprobado', detail: '' },
};

/** «No pudimos completar tu pago»: what happened, in words, and the ways forward (retry, help, home). */
export function PaymentFailure({ data }: { data: PaymentFailureData }) {
  const { openHelp } = useShellModals();
  const reason = data.state === 'result' ? reasons[data.status] : null;
  const pending = data.state === 'result' && (data.status === 'PENDING' || data.status === 'CONFIRMING');

  return (
    // -mb-16 and the extra padding let the grey background reach the footer over its top margin (mt-16).
    <section className="-mb-16 bg-slate-50 pb-16">
      <div className="mx-auto max-w-2xl px-4 py-10 sm:py-16">
        <div className="rounded-2xl bg-white p-6 text-center shadow-lg ring-1 ring-slate-900/5 sm:p-10">
          <span className="mx-auto mb-5 flex h-16 w-16 items-center justify-center rounded-full bg-red-50 text-red-600">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-9 w-9" fill="none">
              <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeWidth="2" />
              <path d="M12 7v6M12 16.2v.3" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
            </svg>
          </span>
          {data.state === 'result' && data.testPayment ? (
            <p
              className="mx-auto mb-4 max-w-lg rounded-lg bg-amber-100 px-3 py-2 font-semibold text-amber-900 ring-1 ring-amber-700"
              role="note"
            >
              {failedTestPaymentNote}
            </p>
          ) : null}
          <h1 className="text-2xl font-bold text-brand-700 sm:text-3xl">No pudimos completar tu pago</h1>
          {reason ? (
            <>
              <p className="mt-4 text-xl font-semibold text-slate-900">{reason.title}</p>
              <p className="mx-auto mt-2 max-w-lg text-slate-600">{reason.detail}</p>
            </>
          ) : (
            <p className="mx-auto mt-4 max-w-lg text-slate-600">
              No recibimos la confirmación del pago. Si se hizo un cargo en tu tarjeta, contáctanos y lo revisamos; si
              no, puedes volver a intentarlo desde tu cotización.
            </p>
          )}
          {data.state === 'result' ? (
            <p className="mt-4 inline-block rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-600">
              Venta N° {data.idVenta} · {formatClp(data.amountClp)}
            </p>
          ) : null}

          <div className="mt-8 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
            {data.state === 'result' ? (
              <Link
                to={pending ? data.successUrl : (data.retryUrl ?? '/')}
                className="rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800"
              >
                {pending ? 'Revisar nuevamente' : data.retryUrl ? 'Intentar nuevamente' : 'Volver al inicio'}
              </Link>
            ) : (
              <Link
                to="/"
                className="rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800"
              >
                Volver al inicio
              </Link>
            )}
            <button
              type="button"
              onClick={openHelp}
              className="rounded-xl border-2 border-brand-700 px-6 py-2.5 font-bold text-brand-700 hover:bg-brand-700 hover:text-white"
            >
              Contactar a soporte
            </button>
          </div>
          {data.state === 'result' ? (
            <p className="mt-6 flex flex-wrap justify-center gap-x-6 gap-y-2">
              {pending && data.retryUrl ? (
                <Link to={data.retryUrl} className="font-semibold text-brand-700 underline underline-offset-4">
                  Intentar nuevamente
                </Link>
              ) : null}
              <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
                Volver al inicio
              </Link>
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
