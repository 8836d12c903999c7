import { formatClp, formatUsd } from '@travesia/domain/money';
import { Link, useFetcher } from 'react-router';
import { useShellModals } from '#app/components/shell-modals-context.ts';
import type { components } from '#app/lib/api-schema.d.ts';
import { formatDay } from '#app/lib/format.ts';
import { generalConditionsPdfUrl, instalmentsLabel, travellerCertificateUrl } from './format.ts';

type PaymentResult = components['schemas']['PaymentResult'];

export type SendCertificateResult = { sent: true } | { sent: false; error: string };

type Props = {
  result: PaymentResult;
  certificateUrl: string | null;
  planLabel: string | null;
  trip: { departureDate: string; returnDate: string; destination: string | null } | null;
  /** The answer of a send posted without JavaScript (a whole-page post renders it as the action's data). */
  postedSend?: SendCertificateResult | undefined;
};

/** «¡Gracias por tu compra!»: the paid sale, its certificates, and the certificate to download or send again. */
export function PaymentSuccess({ result, certificateUrl, planLabel, trip, postedSend }: Props) {
  const { openHelp } = useShellModals();
  const sender = useFetcher<SendCertificateResult>();
  const sending = sender.state !== 'idle';
  const sendAnswer = sender.data ?? postedSend;
  const sent = sender.state === 'idle' && sendAnswer?.sent === true;
  const sendError = sender.state === 'idle' && sendAnswer && !sendAnswer.sent ? sendAnswer.error : null;

  const rows: { term: string; detail: string }[] = [
    { term: 'N° de venta', detail: String(result.idVenta) },
    { term: 'Plan', detail: planLabel ?? 'Asistencia en viaje' },
    ...(trip?.destination ? [{ term: 'Destino', detail: trip.destination }] : []),
    ...(trip
      ? [{ term: 'Vigencia', detail: `${formatDay(trip.departureDate)} al ${formatDay(trip.returnDate)}` }]
      : []),
    { term: 'Monto pagado', detail: `${formatClp(result.amountClp)} (${formatUsd(result.amountUsd)})` },
    ...(result.paymentType ? [{ term: 'Tipo de pago', detail: result.paymentType }] : []),
    { term: 'Cuotas', detail: instalmentsLabel(result.instalments, result.instalmentAmountClp) },
    ...(result.authorizationCode ? [{ term: 'Código de autorización', detail: result.authorizationCode }] : []),
    ...(result.cardLastDigits ? [{ term: 'Tarjeta', detail: `terminada en ${result.cardLastDigits}` }] : []),
  ];

  return (
    // -mb-16 and the extra padding let the grey background reach the footer over its top margin (mt-16).
    <div className="-mb-16 bg-slate-50 pb-16">
      <section className="bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 text-white">
        <div className="page-width pt-10 pb-24 text-center sm:pt-12">
          <span className="mx-auto mb-4 flex h-16 w-16 items-center justify-center rounded-full bg-white text-emerald-600 shadow-lg">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-9 w-9" fill="none">
              <path
                d="m5 12.5 4.5 4.5L19 7.5"
                stroke="currentColor"
                strokeWidth="2.6"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
          </span>
          {result.testPayment ? (
            <p className="mx-auto mb-4 max-w-2xl rounded-xl bg-red-700 px-4 py-3 font-bold text-white" role="note">
              SIN VALOR — PAGO DE PRUEBA: esta compra se pagó en la pasarela de prueba; no se cobró dinero y el
              certificado no otorga cobertura.
            </p>
          ) : null}
          <h1 className="text-3xl font-extrabold sm:text-4xl">¡Gracias por tu compra!</h1>
          <p className="mx-auto mt-3 max-w-2xl text-lg text-brand-50">
            Tu pago fue aprobado y tu asistencia en viaje ya está contratada. También enviamos el certificado
            automáticamente al correo de cada pasajero.
          </p>
        </div>
      </section>

      <div className="page-width -mt-16 grid gap-6 pb-12 md:grid-cols-2">
        <section
          aria-labelledby="resumen-venta"
          className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
        >
          <h2 id="resumen-venta" className="mb-4 text-lg font-bold text-brand-700">
            Resumen de la compra
          </h2>
          <dl className="grid gap-3 text-sm">
            {rows.map((row) => (
              <div key={row.term} className="flex justify-between gap-4 border-b border-slate-100 pb-2 last:border-0">
                <dt className="text-slate-500">{row.term}</dt>
                <dd className="text-right font-semibold break-words text-slate-900">{row.detail}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section
          aria-labelledby="certificados"
          className="flex flex-col rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
        >
          <h2 id="certificados" className="mb-1 text-lg font-bold text-brand-700">
            {result.certificates.length === 1 ? 'Tu certificado' : 'Tus certificados'}
          </h2>
          <p className="mb-4 text-sm text-slate-600">Llévalo contigo durante el viaje: en él están tus coberturas.</p>
          <ul className="mb-5 grid gap-2">
            {result.certificates.map((certificate) => (
              <li
                key={certificate.number}
                className="flex flex-wrap items-center justify-between gap-x-3 gap-y-0.5 rounded-lg bg-slate-50 px-3 py-2"
              >
                <span className="font-semibold text-slate-900">
                  {certificate.name} {certificate.lastName}
                </span>
                <span className="font-mono text-sm text-slate-600">
                  <span className="sr-only">Certificado N° </span>
                  {certificate.number}
                </span>
                {certificateUrl ? (
                  <a
                    href={travellerCertificateUrl(certificateUrl, certificate.number)}
                    download={`certificado-${certificate.number}.pdf`}
                    className="basis-full text-sm font-semibold text-brand-700 underline underline-offset-2"
                    data-testid="traveller-certificate"
                    // The name is beside it already: said to screen readers, not printed twice.
                    aria-label={`Descargar el certificado de ${certificate.name} ${certificate.lastName}`}
                  >
                    Descargar el certificado
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
          <div className="mt-auto grid gap-3">
            {certificateUrl ? (
              <a
                href={certificateUrl}
                download="certificado.pdf"
                className="flex items-center justify-center gap-2 rounded-xl bg-accent-700 px-4 py-3 font-bold text-white shadow hover:bg-accent-800"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
                  <path d="M9 2h2v8.6l3.3-3.3 1.4 1.4L10 14.4 4.3 8.7l1.4-1.4L9 10.6V2ZM3 16h14v2H3v-2Z" />
                </svg>
                Descargar Certificado
              </a>
            ) : null}
            <a
              href={generalConditionsPdfUrl}
              target="_blank"
              rel="noopener"
              className="text-center text-sm font-semibold text-brand-700 underline underline-offset-4"
            >
              Condiciones generales (PDF)
              <span className="sr-only"> (se abre en una pestaña nueva)</span>
            </a>
            <sender.Form method="post">
              <button
                type="submit"
                disabled={sending}
                className="flex w-full items-center justify-center gap-2 rounded-xl border-2 border-brand-700 px-4 py-2.5 font-bold text-brand-700 hover:bg-brand-700 hover:text-white disabled:cursor-wait disabled:opacity-60 disabled:hover:bg-transparent disabled:hover:text-brand-700"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
                  <path d="M2 4h16v12H2V4Zm2 2.4V14h12V6.4l-6 4-6-4Zm1.2-.4L10 9.2 14.8 6H5.2Z" />
                </svg>
                {sending ? 'Enviando...' : 'Enviar Certificado'}
              </button>
            </sender.Form>
          </div>
          <div aria-live="polite" className="mt-3 empty:hidden">
            {sent ? (
              <p className="flex items-center gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm font-semibold text-emerald-800">
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0" fill="currentColor">
                  <path d="M10 1.5a8.5 8.5 0 1 1 0 17 8.5 8.5 0 0 1 0-17Zm-1.2 11.8 5.6-5.6-1.3-1.3-4.3 4.3-2-2-1.3 1.3 3.3 3.3Z" />
                </svg>
                Te enviamos el certificado a tu correo
              </p>
            ) : null}
            {sendError ? (
              <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm font-semibold text-red-800">
                {sendError}
              </p>
            ) : null}
          </div>
        </section>

        <section className="rounded-2xl border border-accent-500/40 bg-orange-50 p-5 md:col-span-2 sm:flex sm:items-center sm:justify-between sm:gap-6 sm:p-6">
          <div>
            <h2 className="font-bold text-slate-900">¿Una emergencia durante el viaje?</h2>
            <p className="text-sm text-slate-700">
              Nuestra central de asistencia te atiende las 24 horas, todos los días. Ten a mano tu N° de certificado.
            </p>
          </div>
          <button
            type="button"
            onClick={openHelp}
            className="mt-3 w-full shrink-0 rounded-xl bg-white px-4 py-2.5 font-semibold text-brand-700 shadow-sm ring-1 ring-brand-700 hover:bg-brand-700 hover:text-white sm:mt-0 sm:w-auto"
          >
            Ver teléfonos de asistencia
          </button>
        </section>

        <p className="text-center text-slate-700 md:col-span-2">
          Revisa tu compra y descarga tu comprobante cuando quieras en{' '}
          <Link to="/mi-compra" className="font-semibold text-brand-700 underline underline-offset-4">
            Mi compra
          </Link>
          .
        </p>

        <p className="text-center md:col-span-2">
          <Link to="/" className="font-semibold text-brand-700 underline underline-offset-4">
            Volver al inicio
          </Link>
        </p>
      </div>
    </div>
  );
}
