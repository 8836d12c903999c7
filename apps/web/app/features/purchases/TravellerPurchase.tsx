import { Form } from 'react-router';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { AddOnList } from './AddOns.tsx';
import { Card, Rows } from './Card.tsx';
import type { TravellerPurchase } from './purchase.ts';
import { downloadLink, secondaryButton } from './styles.ts';
import { TestPaymentNotice } from './TestPaymentNotice.tsx';
import { TripCard } from './TripCard.tsx';
import { useBusy } from './useBusy.ts';

const textLink = 'font-semibold text-brand-700 underline underline-offset-4';

/**
 * «Mi compra» opened by a traveller who did not buy (her own document, a code sent to her own address): her trip, her
 * certificate and where to verify it. No other traveller, no payment, no receipt, nothing to withdraw or change: the
 * API answers none of it to her access (docs/my-purchase.md), and the page offers none of it.
 */
export function TravellerPurchaseDetail({ purchase }: { purchase: TravellerPurchase }) {
  const leaving = useBusy('salir');
  const { traveller } = purchase;
  const live = purchase.status === 'paid' && traveller.certificate !== null && !traveller.certificateVoided;
  return (
    <>
      <header className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Mi compra</h1>
          <p className="mt-2 text-slate-600">
            Venta N° {purchase.idVenta} · viaje de {traveller.name}
          </p>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="salir" />
          <SubmitButton busy={leaving} label="Salir" busyLabel="Saliendo..." className={secondaryButton} />
        </Form>
      </header>
      <p role="status" className="mb-6 rounded-lg bg-sky-50 px-4 py-3 text-sky-950">
        Entraste como pasajero: aquí ves tu viaje y tu certificado. Los pagos, el comprobante, el retracto y el cambio
        de fechas los gestiona quien hizo la compra.
      </p>
      {purchase.status !== 'paid' ? (
        <p className="mb-6 rounded-lg bg-amber-50 px-4 py-3 font-semibold text-amber-900">
          Quien hizo la compra se retractó: tu certificado quedó anulado y ya no otorga cobertura para este viaje.
        </p>
      ) : null}
      {purchase.testPayment ? <TestPaymentNotice certificates="own" /> : null}
      <div className="grid gap-6 md:grid-cols-2">
        <TripCard trip={purchase} />
        <Card id="mi-compra-certificado" title="Tu certificado">
          <Rows
            rows={[
              { term: 'Pasajero', detail: traveller.name },
              { term: 'Documento', detail: `${traveller.documentType} ${traveller.document}` },
              ...(traveller.certificate
                ? [
                    {
                      term: 'Certificado N°',
                      detail: `${traveller.certificate}${traveller.certificateVoided ? ' (anulado)' : ''}`,
                    },
                  ]
                : []),
            ]}
          />
          <div className="text-sm">
            <AddOnList addOns={traveller.addOns} label="Tus adicionales" />
          </div>
          <div className="mt-4 grid gap-3">
            {live && traveller.certificate ? (
              <a
                href={`/mi-compra/certificado-${traveller.certificate}.pdf`}
                download={`certificado-${traveller.certificate}.pdf`}
                className={downloadLink}
              >
                Descargar mi certificado
              </a>
            ) : null}
            {live && traveller.verificationUrl ? (
              <a href={traveller.verificationUrl} className={`text-center ${textLink}`}>
                Verificar mi certificado
              </a>
            ) : null}
            <a
              href={purchase.generalConditionsPdfUrl}
              target="_blank"
              rel="noopener"
              className={`text-center ${textLink}`}
            >
              Condiciones generales (PDF)
              <span className="sr-only"> (se abre en una pestaña nueva)</span>
            </a>
          </div>
          <p className="mt-4 text-xs text-slate-600">
            Vendido por {purchase.seller.legalName}, RUT {purchase.seller.rut}, {purchase.seller.address}.
          </p>
        </Card>
      </div>
    </>
  );
}
