import type { Locator, Page } from '@playwright/test';
import { contrastRatio } from '../../apps/web/app/lib/contrast.ts';
import { expect } from './fixtures.ts';

const isFocused = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement, undefined, { timeout: 2_000 }).catch(() => false);

/**
 * Moves the focus with Tab (or Shift+Tab) alone until `target` has it, as a keyboard user would; fails after
 * `max` presses. The locator only names the goal: nothing is clicked or focused by script.
 */
export async function tabTo(page: Page, target: Locator, { backwards = false, max = 120 } = {}): Promise<void> {
  await expect(target).toBeVisible();
  for (let presses = 0; presses <= max; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target}; focus on ${focused}`);
}

/** Tabs to a text field and types into it with the keyboard (selecting what it held first). */
export async function typeInto(page: Page, target: Locator, text: string): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/**
 * The focused element shows where the focus is (WCAG 2.2 AA 2.4.7 and 1.4.11): it matches :focus-visible and draws
 * a solid outline at least 2 px wide, with 3:1 against the first opaque background behind it. Read once the
 * element's colour transitions have settled. Soft: one journey lists every place where the focus is hard to see.
 */
export async function expectVisibleFocus(page: Page, what: string): Promise<void> {
  const focus = await page.evaluate(async () => {
    const element = document.activeElement;
    if (!element || element === document.body) return null;
    await Promise.all(element.getAnimations().map((animation) => animation.finished));
    // Any CSS colour (Tailwind's are oklch) as #rrggbb, painted over white as the browser would.
    const paint = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    const hex = (colour: string) => {
      if (!paint) return '#000000';
      paint.fillStyle = '#ffffff';
      paint.fillRect(0, 0, 1, 1);
      paint.fillStyle = colour;
      paint.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0] = paint.getImageData(0, 0, 1, 1).data;
      return `#${[r, g, b].map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
    };
    const opaque = (colour: string) => colour !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(colour);
    let behind = '#ffffff';
    for (let node = (element.closest('label') ?? element).parentElement; node; node = node.parentElement) {
      const background = getComputedStyle(node).backgroundColor;
      if (opaque(background)) {
        behind = hex(background);
        break;
      }
    }
    // A radio card draws the ring on its label (has-focus-visible), the input itself staying plain.
    const ringed = [element, element.closest('label')].find(
      (candidate) => candidate && getComputedStyle(candidate).outlineStyle !== 'none',
    );
    const style = getComputedStyle(ringed ?? element);
    return {
      element: element.outerHTML.slice(0, 160),
      matches: element.matches(':focus-visible'),
      outlineStyle: style.outlineStyle,
      outlineWidth: Number.parseFloat(style.outlineWidth),
      outline: opaque(style.outlineColor) ? hex(style.outlineColor) : 'transparent',
      behind,
    };
  });
  expect.soft(focus, `${what}: something has the focus`).not.toBeNull();
  if (!focus) return;
  const ring = `${what}: the focus ring of ${focus.element}`;
  expect.soft(focus.matches, `${ring} (:focus-visible)`).toBe(true);
  expect.soft(focus.outlineStyle, ring).not.toBe('none');
  expect.soft(focus.outlineWidth, ring).toBeGreaterThanOrEqual(2);
  expect
    .soft(contrastRatio(focus.outline, focus.behind) ?? 0, `${ring}: ${focus.outline} on ${focus.behind}`)
    .toBeGreaterThanOrEqual(3);
}
