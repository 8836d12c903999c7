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

  // A draft: the store does not show it…
  await page.goto('/');
  await expect(footerLink('Quiénes somos')).toBeVisible();
  await expect(footerLink('Trabaja con nosotros')).toHaveCount(0);

  // …except through the preview link: the home page with the draft and «Vista previa», kept by no cache.
  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewUrl = await page.getByRole('link', { name: 'Abrir la vista previa' }).getAttribute('href');
  const preview = await page.goto(new URL(previewUrl ?? '/').pathname + new URL(previewUrl ?? '/').search);
  expect(preview?.headers()['cache-control']).toBe('no-store');
  expect(preview?.headers()['x-robots-tag']).toBe('noindex');
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toBeVisible();
  await expect(footerLink('Trabaja con nosotros')).toBeVisible();

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

/** «Geografía» (issue 25, item 5): the form, keyboard-reachable, with axe at 390 and 1280 px; a draft saved. */
test('a content operator opens «Geografía» and saves a draft; axe', async ({ page, storefront }) => {
  test.setTimeout(90_000);
  await enrolByKeyboard(page, await invitation(storefront, `geo-${Date.now()}@travesia.cl`, ['content']), 'Gabriel');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Geografía', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Geografía', level: 1 })).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page, '«Geografía»');
  const newOrigin = page.getByLabel('Agregar (nombre)').last();
  await newOrigin.focus();
  await page.keyboard.type('Punta Arenas');
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Qué cambia el borrador' })).toContainText('Punta Arenas');
  await expectAccessible(page, '«Geografía» with a draft');

  // The preview link opens the home page, whose quoter offers the draft's new origin; the store itself does not.
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewUrl = new URL(
    (await page.getByRole('link', { name: 'Abrir la vista previa' }).getAttribute('href')) ?? '/',
  );
  await page.goto(previewUrl.pathname + previewUrl.search);
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toBeVisible();
  await expect(page.getByLabel('Origen').locator('option', { hasText: 'Punta Arenas' })).toHaveCount(1);
  await page.goto('/');
  await expect(page.getByLabel('Origen').locator('option', { hasText: 'Punta Arenas' })).toHaveCount(0);
});

/**
 * «Contactos y ayuda» (issue 25, item 6): a form, not a JSON document; a contact renamed by keyboard is saved as a
 * draft, which only the preview link shows on /contactanos (with «Vista previa»); the form is checked with axe.
 */
test('a content operator renames a contact in the form and previews /contactanos; axe', async ({
  page,
  storefront,
}) => {
  test.setTimeout(120_000);
  await enrolByKeyboard(page, await invitation(storefront, `contactos-${Date.now()}@travesia.cl`, ['content']), 'Inés');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'El sitio', exact: true }).click();
  await page.getByRole('link', { name: /Contactos y ayuda/ }).click();
  await expect(page.getByRole('heading', { name: 'Contactos y ayuda', level: 1 })).toBeVisible();
  await waitForHydration(page);
  const consolePage = page.url();
  const name = page.getByLabel('Nombre (Contacto del directorio 1)', { exact: true });
  const liveName = await name.inputValue();
  await name.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Mesa de ayuda en borrador');
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Qué cambia el borrador' })).toContainText('Mesa de ayuda en borrador');
  await expectAccessible(page, '«Contactos y ayuda» with a draft');

  await page.goto('/contactanos');
  await expect(page.getByText(liveName, { exact: true }).first()).toBeVisible();
  await expect(page.getByText('Mesa de ayuda en borrador')).toHaveCount(0);

  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewUrl = new URL(
    (await page.getByRole('link', { name: 'Abrir la vista previa' }).getAttribute('href')) ?? '/',
  );
  expect(previewUrl.pathname).toBe('/contactanos');
  const preview = await page.goto(previewUrl.pathname + previewUrl.search);
  expect(preview?.headers()['cache-control']).toBe('no-store');
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toBeVisible();
  await expect(page.getByText('Mesa de ayuda en borrador').first()).toBeVisible();

  // The draft back as the live directory, so other journeys see the store as seeded.
  await page.goto(consolePage);
  await waitForHydration(page);
  await name.fill(liveName);
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
});
