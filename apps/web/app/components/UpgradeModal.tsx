import { formatMoney } from '@travesia/domain/money';
import { Modal } from '#app/components/Modal.tsx';

const usd = (amount: number) => formatMoney(amount, { decimals: 0, symbol: 'USD ', dotThousands: true });

/** The covid upgrade table of spec §2, in USD. */
const upgradeRows: { benefit: string; limit: string }[] = [
  { benefit: 'Monto máximo global', limit: usd(3000) },
  {
    benefit: 'Reembolso por interrupción de viaje debido a diagnóstico positivo de COVID-19',
    limit: `Hasta ${usd(3000)}`,
  },
  {
    benefit: 'Gastos de hotel y alimentación por estadía prolongada',
    limit: `${usd(180)} por día, hasta ${usd(3000)}`,
  },
  { benefit: 'Diferencia de tarifa o penalidad por regreso demorado', limit: usd(2000) },
  { benefit: 'Traslado de un familiar (pasaje en clase económica)', limit: `Hasta ${usd(1500)}` },
  { benefit: 'Estadía de un familiar', limit: `${usd(180)} por día, hasta ${usd(1000)}` },
  { benefit: 'Cúmulo por evento múltiple', limit: usd(10000) },
];

export function UpgradeModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Upgrade COVID-19"
      description="Coberturas adicionales por COVID-19, en dólares estadounidenses."
      size="lg"
    >
      <table className="w-full text-left text-sm sm:text-base">
        <thead>
          <tr className="border-b border-slate-300">
            <th scope="col" className="py-2 pr-3 font-semibold">
              Beneficio
            </th>
            <th scope="col" className="py-2 font-semibold">
              Límite
            </th>
          </tr>
        </thead>
        <tbody>
          {upgradeRows.map((row) => (
            <tr key={row.benefit} className="border-b border-slate-100 align-top">
              <td className="py-2 pr-3">{row.benefit}</td>
              <td className="whitespace-nowrap py-2 font-medium text-brand-700">{row.limit}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
