import { useRouteLoaderData } from 'react-router';
import type { Operator } from './contract.ts';

/** The console layout's id (routes/consola.tsx) and what its loader gives every screen. */
export const consoleRouteId = 'routes/consola';
export type ConsoleData = { operator: Operator; csrfToken: string };

/** The signed-in operator and the CSRF token every state-changing form of a screen carries. */
export function useConsole(): ConsoleData {
  const found = useRouteLoaderData(consoleRouteId) as ConsoleData | undefined;
  if (!found) throw new Error('useConsole outside the console layout');
  return found;
}
