import type { Page } from '@playwright/test';
import { createQuotation } from './support/checkout.ts';
import { enrolByKeyboard, expectAccessible, invitation, rollBackNewest } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * «Planes» (issue 25 item 1): a content operator renames a plan and changes its «para quién», previews the draft on
 * the real comparator («Vista previa» banner), publishes, and the storefront's comparator shows it; axe at 390 and
 * 1280 px. The plan is «Travesía Protección Especial» (418); a rollback leaves it as it was found.
 */

const planId = 418;
const planLabel = 'Travesía Protección Especial';
const newLabel = 'Travesía Aventura';
const newAudience = 'Para quienes viajan a hacer deporte y aventura';

const planCard = (page: Page, label: string) => page.getByRole('article', { name: label });

test('a content operator renames a plan and its «para quién», previews, publishes; the storefront shows it; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(120_000);
  const quotationId = await createQuotation(request, planId);
  const email = `contenido-${Date.now()}@travesia.cl`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['content']), 'Coni');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Planes', exact: true }).click();
  await page.getByRole('link', { name: new RegExp(planLabel) }).click();
  await expect(page.getByRole('heading', { name: planLabel, level: 1 })).toBeVisible();
  await waitForHydration(page);

  await page.getByLabel('Nombre', { exact: true }).fill(newLabel);
  await page.getByLabel(/^Para quién/).fill(newAudience);
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Qué cambia el borrador' })).toContainText(`«${newLabel}»`);
  await expectAccessible(page, '«Planes» with a draft');
  const shots = process.env.SCREENSHOT_DIR;
  if (shots) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/planes-${width}.png`, fullPage: true });
    }
  }

  // The preview link: the real comparator with the draft plan and the banner; the live store unchanged.
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewLink = page.getByRole('link', { name: 'Abrir la vista previa' });
  await expect(previewLink).toBeVisible();
  const previewUrl = new URL(String(await previewLink.getAttribute('href')));
  const consolePage = page.url();
  await page.goto(`${previewUrl.pathname}${previewUrl.search}`);
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toBeVisible();
  await expect(planCard(page, newLabel)).toContainText(newAudience);

  // Publish now: the storefront's comparator shows the plan's new name and line.
  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Plan publicado' })).toBeVisible();
  await openHydrated(page, `/comparador/${quotationId}`);
  await expect(planCard(page, newLabel)).toContainText(newAudience);
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toHaveCount(0);
  // The comparison table says it too, under the plan's name.
  await openHydrated(page, `/comparador/${quotationId}?vista=comparar`);
  await expect(page.getByRole('columnheader', { name: new RegExp(newLabel) })).toContainText(newAudience);
  await openHydrated(page, `/comparador/${quotationId}`);
  if (shots) await planCard(page, newLabel).screenshot({ path: `${shots}/tarjeta-publicada.png` });

  // Left as found: back to the version before the publication.
  await rollBackNewest(page, consolePage, 'volvió a esa versión');
});
