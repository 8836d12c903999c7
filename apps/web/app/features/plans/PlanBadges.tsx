import type { ComparatorPlan, PreviewPlan } from './types.ts';

export type BadgeKind = 'plan' | 'coverage' | 'bestseller' | 'senior';
export type Badge = { kind: BadgeKind; label: string; color?: string };

const hexColor = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const fallbackColor = '#0b5563';

/** The plan's accent: `arrowColor` when it is a colour (it can be the '+' over-75 mark), else `color`. */
export function planColor(plan: Pick<ComparatorPlan, 'arrowColor' | 'color'>): string {
  if (plan.arrowColor && hexColor.test(plan.arrowColor)) return plan.arrowColor;
  return hexColor.test(plan.color) ? plan.color : fallbackColor;
}

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

function luminance(hex: string): number {
  const full =
    hex.length === 4
      ? hex
          .slice(1)
          .split('')
          .map((c) => c + c)
          .join('')
      : hex.slice(1);
  const [r = 0, g = 0, b = 0] = [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16));
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** White or near-black, whichever reads better on the background (WCAG contrast). */
export function readableTextOn(background: string): string {
  if (!hexColor.test(background)) return '#ffffff';
  const l = luminance(background);
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / (0.0116 + 0.05);
  return onWhite >= onDark || onWhite >= 4.5 ? '#ffffff' : '#0f172a';
}

const normalized = (label: string) => label.trim().toLocaleLowerCase('es-CL');

function unique(badges: Badge[]): Badge[] {
  const seen = new Set<string>();
  return badges.filter((badge) => {
    const key = normalized(badge.label);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A comparator plan's badges, the same on its card and in the comparison table: its own label in its colour, then
 * «Mejor cobertura» and «Más vendido» (the best seller, `mejorPlan`). A label already shown is not repeated.
 */
export function comparatorBadges(plan: ComparatorPlan): Badge[] {
  const badges: Badge[] = [];
  if (plan.bestOptionLabel) badges.push({ kind: 'plan', label: plan.bestOptionLabel, color: planColor(plan) });
  if (plan.mejorCobertura) badges.push({ kind: 'coverage', label: 'Mejor cobertura' });
  if (plan.mejorPlan) badges.push({ kind: 'bestseller', label: 'Más vendido' });
  return unique(badges);
}

/** The preview's badges: best coverage, best seller, over 75 (arrowColor '+'). */
export function previewBadges(plan: PreviewPlan): Badge[] {
  const badges: Badge[] = [];
  if (plan.mejorCobertura) badges.push({ kind: 'coverage', label: 'Mejor cobertura' });
  if (plan.mejorPlan) badges.push({ kind: 'bestseller', label: 'Más vendido' });
  if (plan.arrowColor === '+') badges.push({ kind: 'senior', label: 'Mayores de 75' });
  return unique(badges);
}

const kindClass: Record<BadgeKind, string> = {
  plan: '',
  coverage: 'bg-brand-900 text-white',
  bestseller: 'bg-amber-100 text-amber-900 ring-1 ring-amber-300',
  senior: 'bg-violet-100 text-violet-900 ring-1 ring-violet-300',
};

function BadgeIcon({ kind }: { kind: BadgeKind }) {
  const common = {
    viewBox: '0 0 20 20',
    className: 'h-3.5 w-3.5 shrink-0',
    fill: 'currentColor',
  } as const;
  switch (kind) {
    case 'coverage':
      return (
        <svg aria-hidden="true" {...common}>
          <path d="M10 1.5 3 4.2v5.1c0 4.3 3 8 7 9.2 4-1.2 7-4.9 7-9.2V4.2L10 1.5Zm-1 12.1-3.2-3.2 1.4-1.4L9 10.8l3.9-3.9 1.4 1.4L9 13.6Z" />
        </svg>
      );
    case 'bestseller':
      return (
        <svg aria-hidden="true" {...common}>
          <path d="m10 1.8 2.5 5.2 5.7.8-4.1 4 1 5.6-5.1-2.7-5.1 2.7 1-5.6-4.1-4 5.7-.8L10 1.8Z" />
        </svg>
      );
    case 'senior':
      return (
        <svg aria-hidden="true" {...common}>
          <path d="M10 2a3 3 0 1 1 0 6 3 3 0 0 1 0-6Zm-5 15c0-3.3 2.2-6 5-6s5 2.7 5 6H5Z" />
        </svg>
      );
    default:
      return (
        <svg aria-hidden="true" {...common}>
          <path d="M3 3h7.6l6.9 6.9-7.6 7.6L3 10.6V3Zm3.5 2a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3Z" />
        </svg>
      );
  }
}

/** Badges as text with an icon, never colour alone; a list so screen readers count them. */
export function PlanBadges({ badges, className = '' }: { badges: Badge[]; className?: string }) {
  if (badges.length === 0) return null;
  return (
    <ul className={`flex flex-wrap gap-1.5 ${className}`} aria-label="Distinciones del plan">
      {badges.map((badge) => (
        <li
          key={badge.label}
          className={`inline-flex items-center gap-1 rounded-full px-2.5 py-1 text-xs font-bold tracking-wide uppercase shadow-sm ${kindClass[badge.kind]}`}
          style={
            badge.kind === 'plan' && badge.color
              ? { backgroundColor: badge.color, color: readableTextOn(badge.color) }
              : undefined
          }
        >
          <BadgeIcon kind={badge.kind} />
          {badge.label}
        </li>
      ))}
    </ul>
  );
}
