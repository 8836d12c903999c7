import { and, eq } from 'drizzle-orm';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * Content through the publishing model (issue 25 item 7): a content operator rewrites an FAQ answer in the console
 * (axe at 390 and 1280 px through expectAccessible → expectNoViolations); the storefront's FAQ shows it after publish
 * and not before, and its preview link shows the draft; a rollback puts the seeded answer back (the worker's database
 * is shared by its tests). The blog's half of the journey is backoffice-blog.spec.ts.
 */
test('a content operator edits an FAQ answer; the storefront shows it after publish, not before; axe', async ({
  page,
  storefront,
}) => {
  test.setTimeout(120_000);
  const email = `contenido-${Date.now()}@travesia.cl`;
  const newAnswer = `Respuesta revisada ${Date.now()}`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['content']), 'Coni');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Preguntas frecuentes', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Preguntas frecuentes', level: 1 })).toBeVisible();
  await waitForHydration(page);
  const consolePage = page.url();

  await page.getByLabel('Respuesta (HTML)').first().fill(`<p>${newAnswer}<script>alert(1)</script></p>`);
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Qué cambia el borrador' })).toContainText('Respuesta de');
  await expectAccessible(page, '«Preguntas frecuentes» with a draft');

  // Saved, not published: the storefront's FAQ does not show it.
  await openHydrated(page, '/faq');
  await expect(page.getByText(newAnswer)).toHaveCount(0);

  // The preview link opens the real FAQ page with the draft and says so; nobody keeps or indexes it.
  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewLink = page.getByRole('link', { name: 'Abrir la vista previa' });
  await expect(previewLink).toBeVisible();
  const previewUrl = new URL(String(await previewLink.getAttribute('href')));
  const previewAnswer = await page.goto(`${previewUrl.pathname}${previewUrl.search}`);
  expect(previewAnswer?.headers()['cache-control']).toBe('no-store');
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa: contenido del borrador' })).toBeVisible();
  await expect(page.locator('main')).toContainText(newAnswer);

  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Preguntas frecuentes publicadas' })).toBeVisible();
  await openHydrated(page, '/faq');
  await expect(page.locator('main')).toContainText(newAnswer);
  expect(await page.locator('main script').count()).toBe(0);

  // Rollback: the seeded answer again.
  await page.goto(consolePage);
  await waitForHydration(page);
  await page
    .getByRole('region', { name: 'Historial' })
    .getByRole('button', { name: /Volver a la versión anterior/ })
    .first()
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'la tienda volvió a esa versión' })).toBeVisible();
  await openHydrated(page, '/faq');
  await expect(page.getByText(newAnswer)).toHaveCount(0);

  const trail = await storefront.database.db
    .select({ action: auditEntries.action })
    .from(auditEntries)
    .where(and(eq(auditEntries.actorLabel, email), eq(auditEntries.targetType, 'faq')));
  expect(trail.map((row) => row.action)).toEqual(
    expect.arrayContaining(['publishing.draft_saved', 'publishing.published', 'publishing.rolled_back']),
  );
});
