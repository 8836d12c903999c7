import { createContext, useContext } from 'react';

/**
 * The shell's modals as the pages open them. Apart from the provider (ShellModals.tsx), which lazy-loads the modals:
 * a modal's content may offer to open another (UpgradeCovid) without importing the provider that loads it.
 */
export type ShellModals = { openHelp: () => void; openUpgrade: () => void };

export const ShellModalsContext = createContext<ShellModals | null>(null);

export function useShellModals(): ShellModals {
  const value = useContext(ShellModalsContext);
  if (!value) throw new Error('useShellModals() outside ShellModalsProvider');
  return value;
}
