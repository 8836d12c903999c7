import { chileDateOf } from '@travesia/domain/dates';
import { Form } from 'react-router';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { formatDay } from '#app/lib/format.ts';
import { AddOnPurchaseCard } from './AddOnPurchaseCard.tsx';
import { PriceBreakdown } from './AddOns.tsx';
import { Card } from './Card.tsx';
import { DateChangeCard } from './DateChangeCard.tsx';
import { DocumentsCard } from './DocumentsCard.tsx';
import { PassengersCard } from './PassengersCard.tsx';
import { PaymentLedger } from './PaymentLedger.tsx';
import type { AddOnsToBuy, DateChangeForm, Purchase } from './purchase.ts';
import { secondaryButton } from './styles.ts';
import { TestPaymentNotice } from './TestPaymentNotice.tsx';
import { TripCard } from './TripCard.tsx';
import { useBusy } from './useBusy.ts';
import { Withdrawal } from './Withdrawal.tsx';

/** The buyer's «Mi compra»: the trip, the payment, the travellers, the documents, withdrawal and date change. */
export function PurchaseDetail({
  purchase,
  confirmWithdrawal,
  withdrawalError,
  dateChange,
  notice,
  addOnsToBuy,
  addOnsError,
}: {
  purchase: Purchase;
  confirmWithdrawal: boolean;
  withdrawalError: string | null;
  dateChange: DateChangeForm | undefined;
  notice: string | null;
  addOnsToBuy: AddOnsToBuy | null;
  addOnsError: string | null;
}) {
  const leaving = useBusy('salir');
  const withdrawn = purchase.status !== 'paid';
  return (
    <>
      <header className="mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Mi compra</h1>
          <p className="mt-2 text-slate-600">
            Venta N° {purchase.idVenta} · pagada el {formatDay(chileDateOf(purchase.paidAt))}
          </p>
        </div>
        <Form method="post">
          <input type="hidden" name="intent" value="salir" />
          <SubmitButton busy={leaving} label="Salir" busyLabel="Saliendo..." className={secondaryButton} />
        </Form>
      </header>
      {withdrawn ? (
        <p role="status" className="mb-6 rounded-lg bg-amber-50 px-4 py-3 font-semibold text-amber-900">
          {purchase.status === 'withdrawn'
            ? 'Compra anulada y reembolsada: te devolvimos lo pagado y los certificados quedaron anulados.'
            : 'Compra anulada. Retracto en proceso: anulamos tus certificados y estamos devolviendo lo pagado.'}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="mb-6 rounded-lg bg-emerald-50 px-4 py-3 font-semibold text-emerald-900">
          {notice}
        </p>
      ) : null}
      {purchase.testPayment ? <TestPaymentNotice certificates="all" /> : null}
      <div className="grid gap-6 md:grid-cols-2">
        <TripCard trip={purchase} />
        <Card id="mi-compra-pago" title="Tu pago">
          <PriceBreakdown breakdown={purchase.priceBreakdown} />
          <PaymentLedger ledger={purchase.ledger} status={purchase.status} amountUsd={purchase.amountUsd} />
        </Card>
        <PassengersCard travellers={purchase.travellers} />
        <DocumentsCard purchase={purchase} withdrawn={withdrawn} />
        <Withdrawal purchase={purchase} confirm={confirmWithdrawal} error={withdrawalError} />
        <DateChangeCard purchase={purchase} form={dateChange} />
        {addOnsToBuy && !withdrawn ? <AddOnPurchaseCard toBuy={addOnsToBuy} error={addOnsError} /> : null}
      </div>
    </>
  );
}
