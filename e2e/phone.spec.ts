import { expect, test } from './support/fixtures.ts';
import { mainNav, openHydrated, seed } from './support/shell.ts';

const helpButtonLabel = seed.navigation.items.find((item) => item.isButton)?.label ?? '';
const linkLabels = seed.navigation.items.filter((item) => !item.isMenu && !item.isButton).map((item) => item.label);

// The `phone` project runs these in a mobile Chromium; the desktop project runs them in a 360 px window.
test.describe('phone layout', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the nav collapses behind «Menú», whose aria-expanded reveals the items @phone', async ({ page }) => {
    await openHydrated(page, '/');
    const nav = mainNav(page);
    const toggle = nav.getByRole('button', { name: 'Menú' });
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    for (const label of linkLabels) await expect(nav.getByRole('link', { name: label, exact: true })).toBeHidden();
    await expect(nav.getByRole('button', { name: helpButtonLabel, exact: true })).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    await expect(menu).toBeVisible();
    for (const label of linkLabels) await expect(menu.getByRole('link', { name: label, exact: true })).toBeVisible();
    await expect(menu.getByRole('button', { name: helpButtonLabel, exact: true })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Acceso Clientes' })).toBeVisible();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
  });

  test('home has no horizontal scroll at 360 px @phone', async ({ page }) => {
    await openHydrated(page, '/');
    await expect(page.getByRole('contentinfo')).toBeVisible();
    const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY);
    expect(width).toBeLessThanOrEqual(360);

    // Still none with the menu open.
    await mainNav(page).getByRole('button', { name: 'Menú' }).click();
    await expect(mainNav(page).getByRole('link', { name: linkLabels[0], exact: true })).toBeVisible();
    const widthOpen = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY);
    expect(widthOpen).toBeLessThanOrEqual(360);
  });

  test('the help modal fits on the screen @phone', async ({ page }) => {
    await openHydrated(page, '/');
    const nav = mainNav(page);
    await nav.getByRole('button', { name: 'Menú' }).click();
    await nav.getByRole('button', { name: helpButtonLabel, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: '¿Necesitas ayuda o información?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveCount(seed.contactInfos.length);
    await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeInViewport();

    const box = await dialog.boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.y + box.height).toBeLessThanOrEqual(740);
  });
});
