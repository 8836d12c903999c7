import { Link } from 'react-router';
import { type CheckoutStep, stepPath } from './checkout.ts';

const steps: { step: CheckoutStep; label: string }[] = [
  { step: 'compra', label: 'Pasajeros' },
  { step: 'facturacion', label: 'Facturación' },
  { step: 'pago', label: 'Pago' },
];

/** «Pasajeros · Facturación · Pago»: where the visitor is (aria-current="step"); steps already done are links. */
export function CheckoutSteps({
  current,
  planId,
  quotationId,
  incomplete = [],
}: {
  current: CheckoutStep;
  planId: number;
  quotationId: string;
  /** Earlier steps whose data is still missing: links, without the check mark. */
  incomplete?: CheckoutStep[];
}) {
  const currentIndex = steps.findIndex((s) => s.step === current);
  return (
    <nav aria-label="Pasos de la compra">
      <ol className="flex items-start">
        {steps.map((item, index) => {
          const before = index < currentIndex;
          const done = before && !incomplete.includes(item.step);
          const active = index === currentIndex;
          const circle = (
            <span
              aria-hidden="true"
              className={`relative z-10 flex h-9 w-9 shrink-0 items-center justify-center rounded-full border-2 text-sm font-bold ${
                active
                  ? 'border-brand-700 bg-brand-700 text-white'
                  : done
                    ? 'border-brand-700 bg-white text-brand-700'
                    : 'border-slate-300 bg-white text-slate-500'
              }`}
            >
              {done ? (
                <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
                  <path d="m8.2 14.6-4.3-4.3 1.4-1.4 2.9 2.9 6.5-6.5 1.4 1.4-7.9 7.9Z" />
                </svg>
              ) : (
                index + 1
              )}
            </span>
          );
          const text = (
            <span
              className={`text-xs font-semibold sm:text-sm ${active ? 'text-brand-700' : done ? 'text-slate-700' : 'text-slate-500'}`}
            >
              <span className="sr-only">Paso {index + 1} de 3: </span>
              {item.label}
              {done ? <span className="sr-only"> (completado)</span> : null}
              {before && !done ? <span className="sr-only"> (pendiente)</span> : null}
            </span>
          );
          return (
            <li
              key={item.step}
              aria-current={active ? 'step' : undefined}
              className="relative flex flex-1 flex-col items-center gap-1.5 text-center"
            >
              {index > 0 ? (
                <span
                  aria-hidden="true"
                  className={`absolute top-[1.05rem] right-1/2 h-0.5 w-full ${index <= currentIndex ? 'bg-brand-700' : 'bg-slate-200'}`}
                />
              ) : null}
              {before ? (
                <Link
                  to={stepPath(item.step, planId, quotationId)}
                  className="group flex flex-col items-center gap-1.5 rounded-lg px-2 hover:text-brand-700"
                >
                  {circle}
                  <span className="group-hover:underline">{text}</span>
                </Link>
              ) : (
                <>
                  {circle}
                  {text}
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
