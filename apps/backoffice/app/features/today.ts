import type { TodayFigure } from '#app/lib/contract.ts';
import { consoleBase } from '#app/lib/paths.ts';

/**
 * The figures of GET /api/backoffice/today, whether the API lists them bare or as `{ figures }`; entries without a
 * key, a label or a value are left out rather than shown broken.
 */
export function figuresOf(answer: unknown): TodayFigure[] {
  const list = Array.isArray(answer)
    ? answer
    : answer && typeof answer === 'object' && Array.isArray((answer as { figures?: unknown }).figures)
      ? (answer as { figures: unknown[] }).figures
      : [];
  return list.filter(
    (item): item is TodayFigure =>
      !!item &&
      typeof item === 'object' &&
      typeof (item as TodayFigure).key === 'string' &&
      typeof (item as TodayFigure).label === 'string' &&
      (typeof (item as TodayFigure).value === 'number' || typeof (item as TodayFigure).value === 'string'),
  );
}

/**
 * A figure's link as a path inside the console (for <Link>): `/backoffice/…` or a console path (`/ventas?…`), never
 * the API's own paths nor another site; null when it is none of those.
 */
export function figureTarget(href: string | undefined): string | null {
  if (!href?.startsWith('/') || href.startsWith('//') || href.includes('\\')) return null;
  if (href === consoleBase) return '/';
  if (href.startsWith(`${consoleBase}/`) || href.startsWith(`${consoleBase}?`)) {
    const rest = href.slice(consoleBase.length);
    return rest.startsWith('?') ? `/${rest}` : rest;
  }
  if (href.startsWith(consoleBase) || href === '/api' || href.startsWith('/api/')) return null;
  return href;
}
