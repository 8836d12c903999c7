import { formatClp, formatUsd } from '@travesia/domain/money';
import { Form } from 'react-router';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { formatDay } from '#app/lib/format.ts';
import { Rows } from './Card.tsx';
import type { DateChangePreview, Purchase } from './purchase.ts';
import { primaryButton } from './styles.ts';
import { useBusy } from './useBusy.ts';

const actionTexts = {
  pay: (difference: number) => `Debes pagar la diferencia de ${formatClp(difference)}.`,
  refund: (difference: number) =>
    `Te devolveremos ${formatClp(-difference)} en tu medio de pago. Si la pasarela no permite devoluciones parciales (por ejemplo, con tarjeta de débito), te contactaremos para devolverte la diferencia por transferencia.`,
  none: () => 'El precio no cambia: no hay nada que pagar.',
} as const;

/** «Cambiar fechas», second step: the new price, the difference and the button that pays it or applies the change. */
export function DateChangeNewPrice({ purchase, preview }: { purchase: Purchase; preview: DateChangePreview }) {
  const confirming = useBusy('cambiar-fechas');
  const datesMove = preview.departureDate !== purchase.departureDate || preview.returnDate !== purchase.returnDate;
  return (
    <div role="status" className="mt-5 rounded-xl bg-slate-50 p-4 lg:max-w-2xl">
      <Rows
        rows={[
          {
            term: 'Nuevas fechas',
            detail: `${formatDay(preview.departureDate)} al ${formatDay(preview.returnDate)} (${preview.days} días)`,
          },
          ...(preview.destinationCountry
            ? [{ term: 'País de destino', detail: preview.destinationCountry.label }]
            : []),
          { term: 'Nuevo precio', detail: `${formatClp(preview.amountClp)} (${formatUsd(preview.amountUsd)})` },
          { term: 'Pagado', detail: formatClp(preview.paidClp) },
          {
            term: 'Diferencia',
            detail: `${preview.differenceClp > 0 ? '+' : ''}${formatClp(preview.differenceClp)}`,
          },
        ]}
      />
      <p className="mt-3 text-sm font-semibold text-slate-800">{actionTexts[preview.action](preview.differenceClp)}</p>
      <Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="cambiar-fechas" />
        <input type="hidden" name="departureDate" value={preview.departureDate} />
        <input type="hidden" name="returnDate" value={preview.returnDate} />
        {preview.destinationCountry ? (
          <input type="hidden" name="countryDestination" value={String(preview.destinationCountry.id)} />
        ) : null}
        <SubmitButton
          busy={confirming}
          label={
            preview.action === 'pay'
              ? `Pagar diferencia de ${formatClp(preview.differenceClp)}`
              : datesMove
                ? 'Confirmar cambio de fechas'
                : 'Confirmar cambio de país de destino'
          }
          busyLabel="Confirmando..."
          className={primaryButton}
        />
      </Form>
    </div>
  );
}
