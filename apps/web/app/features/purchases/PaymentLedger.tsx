import { chileDateOf } from '@travesia/domain/dates';
import { formatClp, formatUsd } from '@travesia/domain/money';
import { formatDay } from '#app/lib/format.ts';
import type { Purchase } from './purchase.ts';

type Ledger = Purchase['ledger'];
type Entry = Ledger['entries'][number];

/** «dd-mm-aaaa» of an instant, in Chile's time (the same text on the server and in the browser). */
const chileDay = (iso: string) => formatDay(chileDateOf(iso));

/** A payment adds, a refund takes away: «$183.825», «-$20.000». */
const signed = (entry: Entry) =>
  entry.kind === 'payment' ? formatClp(entry.amountClp) : `-${formatClp(entry.amountClp)}`;

const statusTone: Record<Entry['status'], string> = {
  authorized: 'bg-emerald-50 text-emerald-900',
  not_honoured: 'bg-slate-100 text-slate-700',
  pending: 'bg-amber-50 text-amber-900',
  retrying: 'bg-amber-50 text-amber-900',
  held: 'bg-amber-50 text-amber-900',
  refunded: 'bg-sky-50 text-sky-900',
};

/** How a payment was made, of that payment only: its type, its instalments (they add up to it), card and code. */
function paymentDetails(entry: Extract<Entry, { kind: 'payment' }>): string[] {
  const details: string[] = [];
  if (entry.paymentType) details.push(entry.paymentType);
  if (entry.instalments && entry.instalments > 1) {
    details.push(
      entry.instalmentAmountClp
        ? `${entry.instalments} cuotas de ${formatClp(entry.instalmentAmountClp)}`
        : `${entry.instalments} cuotas`,
    );
  } else details.push('Sin cuotas');
  if (entry.cardLastDigits) details.push(`Tarjeta terminada en ${entry.cardLastDigits}`);
  if (entry.authorizationCode) details.push(`Código de autorización ${entry.authorizationCode}`);
  return details;
}

function Total({ term, amount, strong = false }: { term: string; amount: string; strong?: boolean }) {
  return (
    <div className="flex justify-between gap-4 border-b border-slate-100 pb-2 last:border-0">
      <dt className={strong ? 'font-bold text-slate-900' : 'text-slate-600'}>{term}</dt>
      <dd
        className={`text-right tabular-nums ${strong ? 'font-extrabold text-slate-900' : 'font-semibold text-slate-900'}`}
      >
        {amount}
      </dd>
    </div>
  );
}

/**
 * «Tu pago»: the sale's ledger — every payment (the purchase, a dearer date change's difference) and every refund
 * (a cheaper date change, the withdrawal), each with its date, gateway, amount and state, instalments only beside the
 * payment they split — then «Total pagado» when nothing was given back, else what was paid, given back, still being
 * given back, and «Neto pagado». An annulled (withdrawn) purchase says so first.
 */
export function PaymentLedger({
  ledger,
  status,
  amountUsd,
}: {
  ledger: Ledger;
  status: Purchase['status'];
  amountUsd: number;
}) {
  const nothingGivenBack = ledger.entries.every((entry) => entry.kind === 'payment');
  return (
    <div className="grid gap-4 text-sm">
      {status !== 'paid' ? (
        <p className="rounded-lg bg-amber-50 px-3 py-2 font-semibold text-amber-900">
          {status === 'withdrawn'
            ? 'Compra anulada: te devolvimos lo pagado.'
            : 'Compra anulada: la devolución está en proceso.'}
        </p>
      ) : null}
      <ol aria-label="Pagos y devoluciones" className="grid gap-2">
        {ledger.entries.map((entry) => (
          <li key={`${entry.kind}-${entry.id}`} className="rounded-lg bg-slate-50 px-3 py-2">
            <div className="flex items-baseline justify-between gap-3">
              <span className="font-semibold text-slate-900">{entry.label}</span>
              <span className="font-semibold whitespace-nowrap text-slate-900 tabular-nums">{signed(entry)}</span>
            </div>
            <p className="mt-0.5 text-slate-600">
              {chileDay(entry.date)} · {entry.gatewayName}
            </p>
            {entry.kind === 'payment' ? (
              <ul className="mt-0.5 text-slate-600">
                {paymentDetails(entry).map((detail) => (
                  <li key={detail}>{detail}</li>
                ))}
              </ul>
            ) : null}
            <p className="mt-1">
              <span className={`rounded px-1.5 py-0.5 text-xs font-semibold ${statusTone[entry.status]}`}>
                {entry.kind === 'refund' && entry.status === 'refunded' && entry.refundedAt
                  ? `${entry.statusLabel} el ${chileDay(entry.refundedAt)}`
                  : entry.statusLabel}
              </span>
            </p>
          </li>
        ))}
      </ol>
      <dl className="grid gap-2">
        {nothingGivenBack ? (
          <Total
            term="Total pagado"
            // With nothing given back the total is the trip's price, whose dollar amount the purchase states.
            amount={`${formatClp(ledger.netClp)} (${formatUsd(amountUsd)})`}
            strong
          />
        ) : (
          <>
            <Total term="Pagado" amount={formatClp(ledger.paidClp)} />
            <Total term="Devuelto" amount={`-${formatClp(ledger.refundedClp)}`} />
            {ledger.pendingRefundClp > 0 ? (
              <Total term="Devolución en proceso" amount={`-${formatClp(ledger.pendingRefundClp)}`} />
            ) : null}
            <Total term="Neto pagado" amount={formatClp(ledger.netClp)} strong />
            {ledger.pendingRefundClp > 0 ? (
              <Total term="Neto pagado al completarse la devolución" amount={formatClp(ledger.netAfterPendingClp)} />
            ) : null}
          </>
        )}
      </dl>
    </div>
  );
}
