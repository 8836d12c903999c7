import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useShellModals } from '#app/components/shell-modals-context.ts';
import { CheckoutSteps } from './CheckoutSteps.tsx';
import type { CheckoutStep, CheckoutSummary } from './checkout.ts';
import { OrderSummary } from './OrderSummary.tsx';

type Props = {
  step: CheckoutStep;
  title: string;
  lead: string;
  summary: CheckoutSummary;
  travellers?: { name: string; band: string }[];
  /** Earlier steps whose data is still missing. */
  incomplete?: CheckoutStep[];
  children: ReactNode;
};

/** A purchase step: progress, heading, the step's form and the purchase summary beside it (above it on phones). */
export function CheckoutLayout({ step, title, lead, summary, travellers, incomplete, children }: Props) {
  return (
    // -mb-16 and the extra padding let the grey background reach the footer over its top margin (mt-16).
    <div className="-mb-16 bg-slate-50 pb-16">
      <div className="page-width pt-6 pb-12 sm:pt-8">
        <div className="mx-auto mb-6 max-w-md sm:mb-8">
          <CheckoutSteps
            current={step}
            planId={summary.planId}
            quotationId={summary.quotationId}
            incomplete={incomplete}
          />
        </div>
        {step === 'compra' ? (
          // Step 1 leads back to the plans of this quotation; choosing another there continues with that one.
          <Link
            to={`/comparador/${summary.quotationId}`}
            className="mb-3 inline-flex items-center gap-1 rounded text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
              <path d="M12.7 4.3 7 10l5.7 5.7-1.4 1.4L4.2 10l7.1-7.1 1.4 1.4Z" />
            </svg>
            Cambiar de plan
          </Link>
        ) : null}
        <div className="flex items-start justify-between gap-3">
          <h1 className="text-2xl font-bold text-brand-700 sm:text-3xl">{title}</h1>
          <HelpLink />
        </div>
        <p className="mt-1 mb-6 max-w-2xl text-slate-600">{lead}</p>
        {/* The summary comes first in the document, as phones show it: a browser that paints the page while it is
            still arriving never has to push the form down to fit the summary in above it (no layout shift). */}
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
          <aside aria-label="Resumen de la compra" className="lg:sticky lg:top-24 lg:col-start-2 lg:row-start-1">
            <OrderSummary summary={summary} travellers={travellers} />
          </aside>
          <div className="min-w-0 lg:col-start-1 lg:row-start-1">{children}</div>
        </div>
      </div>
    </div>
  );
}

/**
 * «¿Necesitas ayuda?» in the step's header on phones and tablets, where the menu hides the bar's own (the floating
 * WhatsApp button is left out of the purchase steps): it opens the help modal with every contact; without JavaScript
 * it leads to the contacts page.
 */
function HelpLink() {
  const { openHelp } = useShellModals();
  return (
    <a
      href="/contactanos"
      onClick={(event) => {
        event.preventDefault();
        openHelp();
      }}
      className="mt-1 inline-flex shrink-0 items-center gap-1 rounded-full border border-brand-700 px-3 py-1 text-sm font-semibold text-brand-700 hover:bg-brand-50 lg:hidden"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
        <path d="M10 2a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm.9 12.5H9.1v-1.8h1.8v1.8Zm1.7-5.6-.8.8c-.6.6-.9 1.1-.9 2.1H9.1v-.4c0-.9.3-1.7.9-2.3l1.1-1.1c.3-.3.5-.8.5-1.2 0-1-.8-1.8-1.8-1.8s-1.8.8-1.8 1.8H6.2a3.6 3.6 0 0 1 7.2 0c0 .8-.3 1.5-.8 2.1Z" />
      </svg>
      ¿Necesitas ayuda?
    </a>
  );
}
