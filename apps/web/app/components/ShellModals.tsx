import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { ShellModalsContext } from './shell-modals-context.ts';

// The modals (Radix dialog, ~15 KB gzip) are fetched on their first opening, not with every page.
const HelpModal = lazy(() => import('./HelpModal.tsx').then((module) => ({ default: module.HelpModal })));
const UpgradeModal = lazy(() => import('./UpgradeModal.tsx').then((module) => ({ default: module.UpgradeModal })));

/** The shell's two modals, openable from anywhere (nav button, quoter's covid option…). */
export function ShellModalsProvider({ children }: { children: ReactNode }) {
  const [helpOpen, setHelpOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  // Each modal is mounted from its first opening on (so closing keeps Radix's focus return), never before.
  const [mounted, setMounted] = useState({ help: false, upgrade: false });
  const value = useMemo(
    () => ({
      openHelp: () => {
        setMounted((current) => (current.help ? current : { ...current, help: true }));
        setHelpOpen(true);
      },
      openUpgrade: () => {
        setMounted((current) => (current.upgrade ? current : { ...current, upgrade: true }));
        setUpgradeOpen(true);
      },
    }),
    [],
  );
  return (
    <ShellModalsContext.Provider value={value}>
      {children}
      <Suspense fallback={null}>
        {mounted.help ? <HelpModal open={helpOpen} onOpenChange={setHelpOpen} /> : null}
      </Suspense>
      <Suspense fallback={null}>
        {mounted.upgrade ? <UpgradeModal open={upgradeOpen} onOpenChange={setUpgradeOpen} /> : null}
      </Suspense>
    </ShellModalsContext.Provider>
  );
}
