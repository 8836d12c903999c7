/**
 * Spec §2/§9: 4 logos visible (3 below 992 px), autoplay every 6000 ms, a slide takes 800 ms, infinite; with 4 or
 * fewer logos the arrows are disabled and greyed (and, all logos being in view, nothing moves). Below 640 px two are
 * in view (issue 27 §5): at three, a 390 px phone drew a provider's name at 7 px, which no one could read.
 */
export const carousel = {
  visible: 4,
  autoplayMs: 6000,
  /**
   * Embla's `duration` is not in milliseconds but the strength of its scroll spring (20–60 advised). At 25 a logo
   * is within 1 px of its place 800 ms after the arrow (e2e/content-pages.spec.ts measures it on a paused clock).
   */
  emblaDuration: 25,
} as const;
