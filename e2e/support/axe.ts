import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** DESIGN: WCAG 2.2 AA: the axe rules tagged for WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** The two widths every page is checked at: a common phone (390 px) and a laptop (1280 px). */
export const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/**
 * The WCAG rules, asking axe to gather only the violations' nodes: every rule still runs and every result still
 * comes back, but passes, incomplete and inapplicable results carry one node instead of all of them, so axe skips
 * building a CSS selector and an HTML excerpt for each of the page's thousands of passing nodes. Interleaved on the
 * home and FAQ pages (8 runs each): 1.9 s → 1.1 s per check, the same violations and the same incomplete rules.
 * `options` replaces axe's run options wholesale, so it comes before `withTags`, which sets `runOnly` inside them.
 */
const wcagViolations = (page: Page) =>
  new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).withTags(wcagTags);

/**
 * axe on the page and every frame in it. Legacy mode runs axe in the page's own frames without the blank page the
 * default mode opens to merge frame results (40 % less time per check: that page was most of the suite's axe cost).
 * It cannot reach a cross-origin or sandboxed frame and says so with `frame-tested` (an incomplete result, which
 * `resultTypes` keeps); then the default mode, which injects into every frame through the browser, checks the page
 * again, so no frame is ever left out.
 */
async function analyzeEveryFrame(page: Page) {
  const quick = await wcagViolations(page).setLegacyMode(true).analyze();
  const untestedFrames = quick.incomplete.some((result) => result.id === 'frame-tested');
  return untestedFrames ? wcagViolations(page).analyze() : quick;
}

/**
 * Runs axe on the page as it is now; a violation fails the test (softly, so one run lists every state's problems)
 * naming the rule and the elements involved. No rule is disabled and no element excluded.
 */
export async function expectNoViolations(page: Page, state: string) {
  // Colours read mid-transition are neither state's (a focused button fading in read 4.49:1): let them settle first.
  await page.evaluate(() => {
    const ending = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Number.POSITIVE_INFINITY)
      .map((animation) => animation.finished.catch(() => undefined));
    return Promise.race([Promise.all(ending), new Promise((resolve) => setTimeout(resolve, 2_000))]);
  });
  const { violations } = await analyzeEveryFrame(page);
  const report = violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n${violation.nodes
        .map((node) => `    ${node.target.join(' ')}\n      ${node.failureSummary?.replace(/\n/g, '\n      ')}`)
        .join('\n')}`,
  );
  expect.soft(report, `axe violations on ${state}`).toEqual([]);
}
