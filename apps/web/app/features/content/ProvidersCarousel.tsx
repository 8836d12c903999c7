import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel from 'embla-carousel-react';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { ProviderLogo } from './about.server.ts';
import { carousel } from './carousel-settings.ts';

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

/** The visitor's «reduce motion» setting, followed live; false on the server. */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(reducedMotionQuery);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    () => window.matchMedia(reducedMotionQuery).matches,
    () => false,
  );
}

function Arrow({
  direction,
  onClick,
  disabled,
}: {
  direction: 'prev' | 'next';
  onClick: () => void;
  disabled: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={direction === 'prev' ? 'Prestador anterior' : 'Prestador siguiente'}
      className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full border border-brand-700 bg-white text-brand-700 shadow-sm hover:bg-brand-50 disabled:cursor-not-allowed disabled:border-slate-300 disabled:bg-slate-100 disabled:text-slate-400 disabled:shadow-none"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none">
        <path
          d={direction === 'prev' ? 'm12 5-5 5 5 5' : 'm8 5 5 5-5 5'}
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}

/**
 * The providers' logos (embla-carousel with its autoplay plugin). It stops while the pointer is over it, while
 * keyboard focus is inside it, when the visitor presses «Pausar», and never starts for «reduce motion» (the
 * arrows then jump without animation). Without JavaScript the first logos show and every logo is in the HTML.
 */
export function ProvidersCarousel({ logos, label }: { logos: ProviderLogo[]; label: string }) {
  const scrolls = logos.length > carousel.visible;
  const reducedMotion = usePrefersReducedMotion();
  const autoplay = useMemo(
    () =>
      Autoplay({
        delay: carousel.autoplayMs,
        playOnInit: false,
        stopOnInteraction: true,
        stopOnMouseEnter: false,
        stopOnFocusIn: false,
      }),
    [],
  );
  const [viewportRef, api] = useEmblaCarousel(
    { loop: true, align: 'start', duration: carousel.emblaDuration, active: scrolls },
    scrolls ? [autoplay] : [],
  );
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const shouldPlay = scrolls && !paused && !hovered && !focused && !reducedMotion;
  const shouldPlayRef = useRef(shouldPlay);
  shouldPlayRef.current = shouldPlay;

  const sync = useCallback(() => {
    if (shouldPlayRef.current) autoplay.play();
    else autoplay.stop();
  }, [autoplay]);

  useEffect(() => {
    if (!api) return;
    // A drag stops the autoplay (stopOnInteraction); it goes on afterwards unless something else holds it.
    api.on('pointerUp', sync).on('reInit', sync);
    // Hover and keyboard focus hold it (WCAG 2.2.2 asks for a way to stop it; «Pausar» is the lasting one).
    const root = api.rootNode();
    const enter = () => setHovered(true);
    const leave = () => setHovered(false);
    const focusIn = () => setFocused(true);
    const focusOut = (event: FocusEvent) => {
      if (!root.contains(event.relatedTarget as Node | null)) setFocused(false);
    };
    root.addEventListener('mouseenter', enter);
    root.addEventListener('mouseleave', leave);
    root.addEventListener('focusin', focusIn);
    root.addEventListener('focusout', focusOut);
    return () => {
      api.off('pointerUp', sync).off('reInit', sync);
      root.removeEventListener('mouseenter', enter);
      root.removeEventListener('mouseleave', leave);
      root.removeEventListener('focusin', focusIn);
      root.removeEventListener('focusout', focusOut);
    };
  }, [api, sync]);

  useEffect(() => {
    if (!api) return;
    if (shouldPlay) autoplay.play();
    else autoplay.stop();
  }, [api, autoplay, shouldPlay]);

  const move = (direction: 'prev' | 'next') => {
    if (!api) return;
    if (direction === 'prev') api.scrollPrev(reducedMotion);
    else api.scrollNext(reducedMotion);
    autoplay.reset();
  };

  return (
    <div>
      {/* On a phone the arrows go below the logos, which get the whole width. */}
      <div className="flex flex-wrap items-center justify-center gap-3 sm:flex-nowrap sm:gap-4">
        <Arrow direction="prev" onClick={() => move('prev')} disabled={!scrolls} />
        <div ref={viewportRef} className="order-first w-full min-w-0 overflow-hidden sm:order-none sm:w-auto sm:flex-1">
          <ul aria-label={label} className={`flex ${scrolls ? '' : 'flex-wrap justify-center'}`}>
            {logos.map((logo) => (
              <li
                key={`${logo.logo}-${logo.label}`}
                className="min-w-0 shrink-0 grow-0 basis-1/3 px-1 max-sm:basis-1/2 sm:px-2 min-[992px]:basis-1/4"
                data-provider-logo
              >
                <div className="flex h-20 items-center justify-center rounded-xl border border-slate-200 bg-white p-2 sm:h-24 sm:p-3">
                  <img
                    src={logo.logo}
                    alt={logo.label}
                    loading="lazy"
                    width={196}
                    height={64}
                    className="h-auto max-h-16 w-full object-contain"
                  />
                </div>
              </li>
            ))}
          </ul>
        </div>
        <Arrow direction="next" onClick={() => move('next')} disabled={!scrolls} />
      </div>
      {scrolls && !reducedMotion ? (
        <div className="mt-3 text-center">
          <button
            type="button"
            onClick={() => setPaused((value) => !value)}
            className="rounded-lg px-3 py-2 text-sm font-semibold text-brand-700 underline underline-offset-4"
          >
            {paused ? 'Reanudar carrusel' : 'Pausar carrusel'}
          </button>
        </div>
      ) : null}
    </div>
  );
}
