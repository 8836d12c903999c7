import { Modal } from '#app/components/Modal.tsx';
import { UpgradePrice, UpgradeTable } from '#app/components/UpgradeCovid.tsx';

export function UpgradeModal({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Upgrade COVID-19"
      description="Coberturas adicionales por COVID-19, en dólares estadounidenses."
      size="lg"
    >
      <UpgradeTable />
      <UpgradePrice />
    </Modal>
  );
}
