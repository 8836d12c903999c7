import { and, eq } from 'drizzle-orm';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * Content through the publishing model (issue 25 item 7): a content operator rewrites an FAQ answer in the console
 * (axe at 390 and 1280 px through expectAccessible → expectNoViolations); the storefront's FAQ shows it after publish
 * and not before; a rollback puts the seeded answer back (the worker's database is shared by its tests). Then the
 * blog: a post with an image written in Markdown, previewed, listed by the store only once published, rolled back.
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

test('a content operator writes a blog post with an image in Markdown; the store shows it after publish, not before; axe', async ({
  page,
  storefront,
}) => {
  test.setTimeout(120_000);
  const email = `blog-${Date.now()}@travesia.cl`;
  const title = `Qué llevar a la nieve ${Date.now()}`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['content']), 'Bea');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Blog', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Blog', level: 1 })).toBeVisible();
  await waitForHydration(page);
  await expect(
    page
      .getByRole('table', { name: /Artículos del borrador/ })
      .getByRole('row')
      .nth(1),
  ).toBeVisible();
  await expectAccessible(page, '«Blog», the list of posts');

  await page.getByRole('link', { name: 'Nuevo artículo' }).click();
  await expect(page.getByRole('heading', { name: 'Nuevo artículo', level: 2 })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel('Título', { exact: true }).fill(title);
  await page.getByLabel(/^Resumen/).fill('Ropa, seguro y lo que no puede faltar.');
  await page.getByLabel(/^Imagen/).fill('/img/blog/equipaje-de-mano.svg');
  await page
    .getByLabel(/^Texto \(Markdown/)
    .fill('# En la maleta\n\n- **Guantes** y gorro\n- Tu certificado de asistencia\n\n[Cotiza tu viaje](/cotizador)');
  await page.getByRole('button', { name: 'Vista previa del texto' }).click();
  const preview = page.getByRole('region', { name: 'Así se verá el texto' });
  await expect(preview.getByRole('heading', { name: 'En la maleta', level: 2 })).toBeVisible();
  await expect(preview.getByRole('link', { name: 'Cotiza tu viaje' })).toHaveAttribute('href', '/cotizador');
  await page.getByRole('button', { name: 'Guardar en el borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expectAccessible(page, '«Blog», a new post saved');

  // Saved, not published: the store's blog does not list it.
  await openHydrated(page, '/blog');
  await expect(page.getByText(title)).toHaveCount(0);

  await page.goto('/backoffice/blog');
  await waitForHydration(page);
  await expect(page.getByRole('region', { name: 'Qué cambia el borrador' })).toContainText(
    `Artículo nuevo: «${title}»`,
  );
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Blog publicado' })).toBeVisible();
  await openHydrated(page, '/blog');
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: title, level: 2 }) });
  await expect(card).toBeVisible();
  await expect(card.locator('img')).toHaveAttribute('src', /equipaje-de-mano\.svg/);
  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'En la maleta', level: 2 })).toBeVisible();
  await expect(page.locator('main strong').filter({ hasText: 'Guantes' })).toBeVisible();

  // Rollback: the post is gone from the store again.
  await page.goto('/backoffice/blog');
  await waitForHydration(page);
  await page
    .getByRole('region', { name: 'Historial' })
    .getByRole('button', { name: /Volver a la versión anterior/ })
    .first()
    .click();
  await expect(page.getByRole('status').filter({ hasText: 'el blog volvió a esa versión' })).toBeVisible();
  await openHydrated(page, '/blog');
  await expect(page.getByText(title)).toHaveCount(0);
});
