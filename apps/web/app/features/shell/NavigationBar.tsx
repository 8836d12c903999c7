import { isExternalLink } from '@travesia/domain/links';
import { uiMessages } from '@travesia/domain/messages';
import { type CSSProperties, useEffect, useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { SmartLink } from '#app/components/SmartLink.tsx';
import { useShellModals } from '#app/components/shell-modals-context.ts';
import { contrastRatio, readableOn, textContrast } from '#app/lib/contrast.ts';
import { useHydrated } from '#app/lib/hydrated.ts';
import type { NavigationBar as NavigationBarData } from '#app/lib/website.ts';

type Item = NavigationBarData['items'][number];

const itemClass =
  'block rounded-lg px-3 py-2 font-medium text-slate-700 hover:bg-brand-50 hover:text-brand-700 lg:inline-block';

/**
 * Spec §2 navigation bar: logo to /home, items from the server (dropdowns, external vs routed links, the
 * highlighted help button), Acceso Clientes when the virtual branch is on; collapses behind a toggle on phones.
 */
export function NavigationBar({ data, showClientAccess }: { data: NavigationBarData; showClientAccess: boolean }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const menuId = useId();

  // A navigation closes the mobile menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location.key is the trigger, not a value read
  useEffect(() => setOpen(false), [location.key]);

  const hydrated = useHydrated();
  const items = (
    <ul className="flex flex-col gap-1 py-2 lg:flex-row lg:items-center lg:gap-2 lg:py-0">
      {data.items.map((item) => (
        <li key={`${item.label}-${item.href}`} className="relative">
          <NavItem item={item} hydrated={hydrated} />
        </li>
      ))}
      {showClientAccess ? (
        <li>
          <Link
            to="/login"
            target="_blank"
            rel="noopener"
            className="block rounded-lg border border-brand-700 px-4 py-2 text-center font-semibold text-brand-700 hover:bg-brand-700 hover:text-white"
          >
            {uiMessages.clientAccess}
          </Link>
        </li>
      ) : null}
    </ul>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <nav
        aria-label="Principal"
        className="page-width relative flex flex-wrap items-center justify-between gap-2 py-3"
      >
        <Link to="/home" className="shrink-0" aria-label="Travesía, ir al inicio">
          <img src={data.logo} alt="Travesía" width={160} height={40} className="h-9 w-auto sm:h-10" />
        </Link>
        {hydrated ? (
          <>
            <button
              type="button"
              className={menuToggleClass}
              aria-expanded={open}
              aria-controls={menuId}
              onClick={() => setOpen((value) => !value)}
            >
              <span aria-hidden="true">☰</span> Menú
            </button>
            <div id={menuId} className={`${open ? 'block' : 'hidden'} w-full lg:block lg:w-auto`}>
              {items}
            </div>
          </>
        ) : (
          <>
            {/* Without JavaScript the phone menu is a <details>: it opens and closes with no script. */}
            <details className="group lg:hidden">
              <summary className={`${menuToggleClass} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>
                <span aria-hidden="true">☰</span> Menú
              </summary>
              <div className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 shadow-lg">
                {items}
              </div>
            </details>
            <div className="hidden lg:block">{items}</div>
          </>
        )}
      </nav>
    </header>
  );
}

const menuToggleClass = 'rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-slate-700 lg:hidden';

function NavItem({ item, hydrated }: { item: Item; hydrated: boolean }) {
  const { openHelp } = useShellModals();
  if (item.isButton) {
    // Configured colours stay as configured when white text reads on them; a lighter one (the brand coral is only 3:1)
    // is shaded just enough for 4.5:1. A light hover colour (white, say) gets the button's colour as its text.
    const background = item.colorPrimario ? readableOn(item.colorPrimario, '#ffffff') : 'var(--color-accent-700)';
    const hover = item.colorSecundario ?? 'var(--color-accent-800)';
    const hoverText =
      item.colorSecundario && (contrastRatio('#ffffff', item.colorSecundario) ?? textContrast) < textContrast
        ? readableOn(background, item.colorSecundario)
        : '#ffffff';
    const colours = {
      '--button-bg': background,
      '--button-hover': hover,
      '--button-hover-text': hoverText,
      '--button-ring': focusRingBeside(item.colorPrimario ? background : accent700),
    } as CSSProperties;
    const className = `${helpButtonClass} w-full lg:w-auto`;
    // Without JavaScript the help modal cannot open: the button is a link to the contact directory instead.
    if (!hydrated) {
      return (
        <Link to="/contactanos" style={colours} className={`${className} block text-center`}>
          {item.label}
        </Link>
      );
    }
    return (
      <button type="button" onClick={openHelp} style={colours} className={className} data-testid="help-button">
        {item.label}
      </button>
    );
  }
  if (item.isMenu) return hydrated ? <Dropdown item={item} /> : <DropdownWithoutScript item={item} />;
  return (
    <SmartLink href={item.href} target={item.target} isPlain={isExternalLink} className={itemClass}>
      {item.label}
    </SmartLink>
  );
}

const accent700 = '#cd4a2f';
const focusRingCandidates = ['#06323a', accent700, '#000000']; // brand-900, accent-700, black

/**
 * The help button's focus ring. The page's coral ring is the button's own colour (1:1 beside it, so it reads as a
 * wider button, not a ring): the first candidate with 3:1 against both the white bar and the button (WCAG 2.2
 * 1.4.11), else the one that comes closest. The demo's coral gets the darkest brand teal (3:1 and 13.8:1).
 */
function focusRingBeside(button: string): string {
  const worst = (ring: string) => Math.min(contrastRatio(ring, '#ffffff') ?? 0, contrastRatio(ring, button) ?? 0);
  return (
    focusRingCandidates.find((ring) => worst(ring) >= 3) ??
    focusRingCandidates.reduce((best, ring) => (worst(ring) > worst(best) ? ring : best))
  );
}

const helpButtonClass =
  'focus-visible:outline-(--button-ring) rounded-full border-2 border-(--button-bg) bg-(--button-bg) px-4 py-2 font-semibold text-white shadow-sm transition-colors hover:bg-(--button-hover) hover:text-(--button-hover-text)';

function SubItems({ item, onChoose }: { item: Item; onChoose?: () => void }) {
  return item.items1.map((sub) => (
    <li key={`${sub.label}-${sub.href}`}>
      <SmartLink
        href={sub.href}
        target={sub.target}
        isPlain={isExternalLink}
        onClick={onChoose}
        className="flex items-center gap-3 rounded-lg px-3 py-2 text-slate-700 hover:bg-brand-50 hover:text-brand-700"
      >
        <img src={sub.icon} alt="" loading="lazy" width={24} height={24} className="h-6 w-6" />
        <span>{sub.label}</span>
      </SmartLink>
    </li>
  ));
}

const dropdownListClass =
  'z-50 mt-1 min-w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg lg:absolute lg:left-0';

/** The dropdown as a <details> for a browser without JavaScript. */
function DropdownWithoutScript({ item }: { item: Item }) {
  return (
    <details className="group">
      <summary
        className={`${itemClass} flex w-full cursor-pointer list-none items-center justify-between gap-1 lg:w-auto [&::-webkit-details-marker]:hidden`}
      >
        {item.label}
        <span aria-hidden="true" className="text-xs group-open:rotate-180">
          ▾
        </span>
      </summary>
      <ul className={dropdownListClass}>
        <SubItems item={item} />
      </ul>
    </details>
  );
}

function Dropdown({ item }: { item: Item }) {
  const [open, setOpen] = useState(false);
  const container = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnOutside = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', closeOnOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('mousedown', closeOnOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);

  return (
    <div ref={container}>
      <button
        type="button"
        className={`${itemClass} flex w-full items-center justify-between gap-1 lg:w-auto`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {item.label}
        <span aria-hidden="true" className={`text-xs transition-transform ${open ? 'rotate-180' : ''}`}>
          ▾
        </span>
      </button>
      <ul id={listId} hidden={!open} className={dropdownListClass}>
        <SubItems item={item} onChoose={() => setOpen(false)} />
      </ul>
    </div>
  );
}
