import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';
import { HelpModal } from './HelpModal.tsx';
import { UpgradeModal } from './UpgradeModal.tsx';

type ShellModals = { openHelp: () => void; openUpgrade: () => void };

const ShellModalsContext = createContext<ShellModals | null>(null);

/** The shell's two modals, openable from anywhere (nav button, quoter's covid option…). */
export function ShellModalsProvider({ children }: { children: ReactNode }) {
  const [helpOpen, setHelpOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const value = useMemo(() => ({ openHelp: () => setHelpOpen(true), openUpgrade: () => setUpgradeOpen(true) }), []);
  return (
    <ShellModalsContext.Provider value={value}>
      {children}
      <HelpModal open={helpOpen} onOpenChange={setHelpOpen} />
      <UpgradeModal open={upgradeOpen} onOpenChange={setUpgradeOpen} />
    </ShellModalsContext.Provider>
  );
}

export function useShellModals(): ShellModals {
  const value = useContext(ShellModalsContext);
  if (!value) throw new Error('useShellModals() outside ShellModalsProvider');
  return value;
}
