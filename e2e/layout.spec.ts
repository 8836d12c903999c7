import type { Page } from '@playwright/test';
import { contrastRatio } from '../apps/web/app/lib/contrast.ts';
import { createQuotation, payAsTheBuyer, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { chromeless, paths } from './support/routes.ts';
import { homeHeading, mainNav, openHydrated, seed } from './support/shell.ts';

const widths = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
];

/** The WhatsApp button's widths: a small phone, a common phone (both: floating, stepping aside), a laptop (margin). */
const whatsappWidths = [{ name: 'small phone', viewport: { width: 360, height: 740 } }, ...widths];

/**
 * What lies under the WhatsApp button, sampled on a 5×5 grid over its box: for each point, the topmost element that
 * is not the button, and whether it is a control (or inside one), an image, or text painted at that point. Empty
 * when the button sits on page background only, or has stepped aside (hidden). `floating`: the phone's button, which
 * floats over the page as it scrolls: text and pictures pass under it, only a control counts.
 */
function whatIsUnderTheButton(page: Page, floating: boolean) {
  return page.evaluate((controlsOnly) => {
    const button = document.querySelector<HTMLElement>('[data-testid="whatsapp-button"]');
    if (!button || getComputedStyle(button).visibility === 'hidden') return [];
    const box = button.getBoundingClientRect();
    const controls = 'a, button, input, select, textarea, label, summary, [role="button"], [tabindex]';
    const found: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      for (let j = 0; j < 5; j += 1) {
        const x = box.left + 1 + ((box.width - 2) * i) / 4;
        const y = box.top + 1 + ((box.height - 2) * j) / 4;
        const beneath = document.elementsFromPoint(x, y).find((element) => !button.contains(element));
        if (!beneath) continue;
        const describe = (why: string) =>
          `${why} <${beneath.tagName.toLowerCase()}> «${(beneath.textContent ?? '').trim().slice(0, 40)}» at ${Math.round(x)},${Math.round(y)}`;
        if (beneath.closest(controls)) found.push(describe('control'));
        else if (controlsOnly) continue;
        else if (beneath.matches('img, svg, svg *, video, canvas, iframe')) found.push(describe('image'));
        else {
          const onText = [...beneath.childNodes].some((node) => {
            if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) return false;
            const range = document.createRange();
            range.selectNodeContents(node);
            return [...range.getClientRects()].some(
              (rect) => x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom,
            );
          });
          if (onText) found.push(describe('text'));
        }
      }
    }
    return [...new Set(found)];
  }, floating);
}

/** Two frames: what the page's observers report about a scroll has reached the button. */
const settled = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/**
 * Scrolls to the top, the middle and the end of the page and answers what the button covers at each; on a phone also
 * with the page's first field focused (the on-screen keyboard up), where the button must have stepped aside.
 */
async function coveredWhileScrolling(page: Page, floating: boolean): Promise<string[]> {
  const covered: string[] = [];
  for (const position of ['top', 'middle', 'bottom'] as const) {
    await page.evaluate((where) => {
      const end = document.documentElement.scrollHeight - window.innerHeight;
      window.scrollTo(0, where === 'top' ? 0 : where === 'middle' ? end / 2 : end);
    }, position);
    if (floating) await settled(page);
    covered.push(...(await whatIsUnderTheButton(page, floating)).map((what) => `${position}: ${what}`));
  }
  const field = page
    .locator('main')
    .locator(
      'input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"]):visible, select:visible, textarea:visible',
    );
  if (floating && (await field.count()) > 0) {
    await field.first().focus();
    await settled(page);
    if (await page.getByTestId('whatsapp-button').isVisible()) covered.push('a field has focus: the button is shown');
    await field.first().blur();
  }
  return covered;
}

/** The routes with the shell, checkout steps aside (the button is left out there), in groups of a few. */
const shellRoutes = paths.filter((path) => !chromeless.has(path) && !/^\/(compra|facturacion|pago)\//.test(path));
const routeGroups = Array.from({ length: Math.ceil(shellRoutes.length / 8) }, (_, index) =>
  shellRoutes.slice(index * 8, index * 8 + 8),
);

/**
 * Opens each route and answers what the button covers there while scrolling. On a phone the button floats once the
 * page runs its JavaScript (then it steps aside from controls and focused fields): that page is the one checked.
 */
async function problemsOn(page: Page, routes: string[]): Promise<string[]> {
  const problems: string[] = [];
  const floating = (page.viewportSize()?.width ?? 0) < 1280;
  for (const path of routes) {
    if (floating) await openHydrated(page, path);
    // Wide, the layout is the server's HTML: no need to wait for hydration.
    else await page.goto(path);
    await expect(page.getByTestId('whatsapp-button'), path).toBeAttached();
    if (floating) await expect(page.getByTestId('whatsapp-button')).toHaveAttribute('data-floating', /shown|aside/);
    else await expect(page.getByTestId('whatsapp-button'), path).toBeVisible();
    problems.push(...(await coveredWhileScrolling(page, floating)).map((what) => `${path} ${what}`));
  }
  return problems;
}

for (const { name, viewport } of whatsappWidths) {
  test.describe(`floating WhatsApp button at ${viewport.width} px`, () => {
    test.use({ viewport });

    // Every route at three scroll positions is many page loads: a few routes per test, so each has time to spare.
    routeGroups.forEach((group, index) => {
      test(`covers nothing on the routes, part ${index + 1} of ${routeGroups.length} (${name})`, async ({ page }) => {
        test.setTimeout(180_000);
        expect(await problemsOn(page, group)).toEqual([]);
      });
    });

    test(`covers nothing on a quotation's plans and a paid sale's success page (${name})`, async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const quotation = await createQuotation(request);
      expect(await problemsOn(page, [`/comparador/${quotation}`, await payAsTheBuyer(page, request)])).toEqual([]);
    });

    test(`is left out of the checkout steps, where the help button lists the contacts (${name})`, async ({
      page,
      request,
    }) => {
      test.slow(); // three pages
      const id = await createQuotation(request);
      await savePassengersAndInvoice(request, id);
      for (const step of ['compra', 'facturacion', 'pago']) {
        await page.goto(`/${step}/411/${id}`);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.getByTestId('whatsapp-button')).toHaveCount(0);
        // Help one tap away in the step's header where the bar folds its own into the menu; wide, the bar shows it.
        const help = page.getByRole('main').getByRole('link', { name: '¿Necesitas ayuda?' });
        if (viewport.width < 1024) await expect(help).toBeVisible();
        else await expect(help).toBeHidden();
      }
      if (viewport.width < 1024) {
        await openHydrated(page, `/pago/411/${id}`);
        await page.getByRole('main').getByRole('link', { name: '¿Necesitas ayuda?' }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await expect(page).toHaveURL(new RegExp(`/pago/411/${id}$`));
      }
    });

    test(`header, hero, sections, checkout and footer share one left edge (${name})`, async ({ page, request }) => {
      test.slow(); // two pages
      const left = async (locator: ReturnType<Page['locator']>) => Math.round((await locator.boundingBox())?.x ?? -1);
      // The layout is the server's HTML: no need to wait for hydration.
      await page.goto('/');
      const edges: Record<string, number> = {
        'header logo': await left(page.getByRole('banner').getByRole('img', { name: 'Travesía' })),
        'hero heading': await left(page.getByRole('heading', { level: 1, name: homeHeading })),
        'section heading': await left(page.getByRole('heading', { level: 2, name: 'Coberturas que te acompañan' })),
        'footer logo': await left(page.getByRole('contentinfo').getByRole('img', { name: 'Travesía' })),
      };
      const id = await createQuotation(request);
      await page.goto(`/compra/411/${id}`);
      edges['checkout heading'] = await left(page.getByRole('heading', { level: 1 }));
      const reference = edges['header logo'] ?? -1;
      expect(reference).toBeGreaterThan(0);
      for (const [what, x] of Object.entries(edges))
        expect(Math.abs(x - reference), `${what} at ${x}`).toBeLessThanOrEqual(1);
    });
  });
}

test.describe('covid upgrade modal', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('fits a 360 px phone and states the upgrade’s price @phone', async ({ page }) => {
    await openHydrated(page, '/');
    await page.getByRole('button', { name: 'Conoce el upgrade COVID-19' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade COVID-19' });
    await expect(dialog).toBeVisible();
    // The demo plans charge USD 0,90 to 1,50 per passenger and per day for it (db/seed/demo-plans.ts).
    await expect(dialog.getByTestId('upgrade-price')).toContainText(
      /desde USD 0,90 \(\$[\d.]+\) hasta USD 1,50 \(\$[\d.]+\) por pasajero y por día/,
    );
    const overflowing = await dialog.evaluate((box) => {
      const right = box.getBoundingClientRect().right;
      return [box, ...box.querySelectorAll('*')]
        .filter(
          (element) =>
            element.scrollWidth > element.clientWidth + 1 || element.getBoundingClientRect().right > right + 1,
        )
        .map((element) => `<${element.tagName.toLowerCase()}> «${(element.textContent ?? '').slice(0, 40)}»`);
    });
    expect(overflowing).toEqual([]);
  });
});

test.describe('help button', () => {
  test('its keyboard focus ring has 3:1 against the white bar and against the button', async ({ page }) => {
    await openHydrated(page, '/');
    const help = page.getByTestId('help-button');
    // Keyboard focus (Tab), so :focus-visible applies as it does for a keyboard user.
    for (let i = 0; i < 30 && !(await help.evaluate((element) => element === document.activeElement)); i += 1) {
      await page.keyboard.press('Tab');
    }
    await expect(help).toBeFocused();
    const ring = await help.evaluate(async (element) => {
      // The button's colours ease in (transition-colors): read them once they have settled.
      await Promise.all(element.getAnimations().map((animation) => animation.finished));
      const style = getComputedStyle(element);
      const hex = (rgb: string) =>
        `#${(rgb.match(/\d+/g) ?? [])
          .slice(0, 3)
          .map((channel) => Number(channel).toString(16).padStart(2, '0'))
          .join('')}`;
      return {
        outline: hex(style.outlineColor),
        outlineStyle: style.outlineStyle,
        outlineWidth: Number.parseFloat(style.outlineWidth),
        button: hex(style.backgroundColor),
      };
    });
    expect(ring.outlineStyle).not.toBe('none');
    expect(ring.outlineWidth).toBeGreaterThanOrEqual(2);
    expect(contrastRatio(ring.outline, '#ffffff'), `${ring.outline} on white`).toBeGreaterThanOrEqual(3);
    // The ring must also stand apart from the button it surrounds, or it reads as a wider button.
    expect(contrastRatio(ring.outline, ring.button), `${ring.outline} beside ${ring.button}`).toBeGreaterThanOrEqual(3);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const helpLabel = seed.navigation.items.find((item) => item.isButton)?.label ?? '';
  const dropdown = seed.navigation.items.find((item) => item.isMenu);

  test('the phone menu and the «Planes» dropdown open as <details>, the help button leads to the contacts', async ({
    page,
  }) => {
    await page.goto('/');
    const nav = mainNav(page);
    const menu = nav.locator('details').filter({ has: page.locator('summary', { hasText: 'Menú' }) });
    await expect(nav.getByRole('link', { name: helpLabel })).toBeHidden();
    await menu.locator('summary').first().click();
    const help = nav.getByRole('link', { name: helpLabel, exact: true });
    await expect(help).toBeVisible();
    await expect(help).toHaveAttribute('href', '/contactanos');

    expect(dropdown).toBeDefined();
    const first = dropdown?.items1[0];
    const subLink = nav.getByRole('link', { name: first?.label ?? '', exact: true });
    await expect(subLink).toBeHidden();
    await menu.locator('summary', { hasText: dropdown?.label ?? '' }).click();
    await expect(subLink).toBeVisible();

    await help.click();
    await expect(page).toHaveURL(/\/contactanos$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Contáctanos' })).toBeVisible();
  });

  test('the covid upgrade table opens in place', async ({ page }) => {
    await page.goto('/');
    const summary = page.locator('summary', { hasText: 'Conoce el upgrade COVID-19' });
    const table = page.getByRole('table');
    await expect(table).toBeHidden();
    await summary.click();
    await expect(table).toBeVisible();
    await expect(table).toContainText('Cúmulo por evento múltiple');
    await expect(page.getByTestId('upgrade-price')).toContainText('desde USD 0,90');
  });
});

test('«Planes ▸ Cotiza tu viaje» leads to the home quoter, with the navigation', async ({ page }) => {
  await openHydrated(page, '/faq');
  const nav = mainNav(page);
  await nav.getByRole('button', { name: 'Planes' }).click();
  await nav.getByRole('link', { name: 'Cotiza tu viaje' }).click();
  await expect(page.getByRole('heading', { name: 'Cotiza tu viaje' })).toBeVisible();
  await expect(nav).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
});

test('/exito without a sale has a title that says so', async ({ page }) => {
  await page.goto('/exito');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos el detalle de tu compra');
  await expect(page).toHaveTitle(/^No encontramos el detalle de tu compra \| Travesía$/);
});
