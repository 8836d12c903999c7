import { enrolByKeyboard, expectAccessible, invitation, rollBackNewest } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * «El sitio» (issue 25, item 6): a content operator adds a link to the footer; the storefront shows it after the
 * publication and not before (the kept home page is cleared by it); the rollback leaves the footer as it was. The
 * console screen is checked with axe at 390 and 1280 px.
 */
test('a content operator edits the footer; the store shows it after publishing, not before; axe', async ({
  page,
  storefront,
}) => {
  test.setTimeout(120_000);
  const footerLink = (name: string) => page.getByRole('contentinfo').getByRole('link', { name });
  const email = `sitio-${Date.now()}@travesia.cl`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['content']), 'Sofía');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'El sitio', exact: true }).click();
  await page.getByRole('link', { name: /Pie de página/ }).click();
  await expect(page.getByRole('heading', { name: 'Pie de página', level: 1 })).toBeVisible();
  await waitForHydration(page);
  const consolePage = page.url();

  await page.getByLabel('Nuevo enlace: texto (columna 1)').fill('Trabaja con nosotros');
  await page.getByLabel('Nuevo enlace: dirección (columna 1)').fill('/quienes-somos#empleos');
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Qué cambia el borrador' })).toContainText('Trabaja con nosotros');
  await expectAccessible(page, '«Pie de página» with a draft');

  // A draft: the store does not show it.
  await page.goto('/');
  await expect(footerLink('Quiénes somos')).toBeVisible();
  await expect(footerLink('Trabaja con nosotros')).toHaveCount(0);

  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'publicado' })).toBeVisible();
  await page.goto('/');
  await expect(footerLink('Trabaja con nosotros')).toHaveAttribute('href', '/quienes-somos#empleos');

  // Back as it was, for the other journeys.
  await rollBackNewest(page, consolePage, 'la tienda volvió a esa versión');
  await page.goto('/');
  await expect(footerLink('Trabaja con nosotros')).toHaveCount(0);
});
