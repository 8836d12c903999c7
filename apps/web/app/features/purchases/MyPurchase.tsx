import { CodeForm } from './CodeForm.tsx';
import { PurchaseDetail } from './PurchaseDetail.tsx';
import type { PurchasePageState } from './purchase.ts';
import { RequestForm } from './RequestForm.tsx';
import { TravellerPurchaseDetail } from './TravellerPurchase.tsx';

/**
 * «Mi compra»: ask for a code, type it, then see the purchase and its documents (the buyer), or one's own trip (a
 * traveller). No account, no JavaScript needed.
 */
export function MyPurchase({ state }: { state: PurchasePageState }) {
  return (
    <div className="page-width py-10 sm:py-14">
      {state.step === 'traveller' ? (
        <TravellerPurchaseDetail purchase={state.purchase} />
      ) : state.step === 'purchase' ? (
        <PurchaseDetail
          purchase={state.purchase}
          confirmWithdrawal={state.confirmWithdrawal ?? false}
          withdrawalError={state.withdrawalError ?? null}
          dateChange={state.dateChange}
          notice={state.notice ?? null}
          addOnsToBuy={state.addOnsToBuy ?? null}
          addOnsError={state.addOnsError ?? null}
        />
      ) : (
        <div className="mx-auto max-w-xl">
          <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Mi compra</h1>
          {state.step === 'request' ? (
            <RequestForm input={state.input} errors={state.errors} message={state.message} />
          ) : (
            <CodeForm input={state.input} error={state.error} />
          )}
        </div>
      )}
    </div>
  );
}
