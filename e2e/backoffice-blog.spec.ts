import sharp from 'sharp';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * «Blog» (issue 25 item 7): a content operator writes a new post in Markdown with a cover image and an image in its
 * text, sees the live preview, opens the preview link (banner «Vista previa»), and the storefront shows the article
 * only once it is published; then retires it (the store hides it again). axe at 390 and 1280 px.
 */

const title = 'Cinco cosas para tu viaje a Japón';

test('a content operator writes a post with an image; the storefront shows it after publishing, not before', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(120_000);
  const email = `blog-${Date.now()}@travesia.cl`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['content']), 'Bea');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Blog', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Blog', level: 1 })).toBeVisible();
  await expectAccessible(page, '«Blog» list');
  if (process.env.SCREENSHOT_DIR) {
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/blog-lista-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  await page.getByLabel('Título').fill(title);
  await page.getByLabel('Categoría').selectOption({ label: 'Destinos' });
  await page.getByRole('button', { name: 'Crear borrador' }).click();
  await expect(page.getByRole('heading', { name: `${title} (no se muestra)`, level: 1 })).toBeVisible();
  await waitForHydration(page);
  const consolePage = page.url();
  const postId = Number(new URL(consolePage).pathname.split('/').at(-1));
  const slug = 'cinco-cosas-para-tu-viaje-a-japon';
  await expect(page.getByLabel(/^Slug/)).toHaveValue(slug);

  // The text in Markdown, its preview live as it is typed; a cover and an image for the text.
  await page.getByLabel(/^Descripción/).fill('Adaptadores, efectivo y un seguro de viaje: lo esencial.');
  await page
    .getByLabel('Texto (Markdown)')
    .fill('## Antes de salir\n\nLleva **efectivo**: muchos locales no aceptan tarjeta.');
  await expect(page.getByRole('region', { name: /Vista previa/ })).toContainText('Antes de salir');
  await expect(page.getByRole('region', { name: /Vista previa/ }).locator('strong')).toHaveText('efectivo');
  const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#c2410c' } })
    .png()
    .toBuffer();
  await page.getByLabel(/^Nueva portada/).setInputFiles({ name: 'templo.png', mimeType: 'image/png', buffer: png });
  await page
    .getByLabel(/^Imagen para el texto/)
    .setInputFiles({ name: 'tokio.png', mimeType: 'image/png', buffer: png });
  await page.getByLabel(/^Mostrar en la tienda/).check();
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Portada actual' })).toBeVisible();
  await expect(page.getByLabel('Texto (Markdown)')).toHaveValue(
    /!\[tokio\]\(\/api\/blog-images\/[0-9a-f-]+\/large\.webp\)/,
  );
  await expectAccessible(page, '«Blog» editor with a draft');
  const shots = process.env.SCREENSHOT_DIR;
  if (shots) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${shots}/blog-${width}.png`, fullPage: true });
    }
  }

  // Not published: the store has no such article.
  expect((await request.get(`/blog-interior/${postId}/${slug}`)).status()).toBe(404);

  // The preview link: the article page with the draft and the banner, never indexed.
  await page.getByRole('button', { name: 'Crear enlace de vista previa' }).click();
  const previewLink = page.getByRole('link', { name: 'Abrir la vista previa' });
  await expect(previewLink).toBeVisible();
  const previewUrl = new URL(String(await previewLink.getAttribute('href')));
  const previewed = await request.get(`${previewUrl.pathname}${previewUrl.search}`);
  expect(previewed.headers()['x-robots-tag']).toBe('noindex');
  await page.goto(`${previewUrl.pathname}${previewUrl.search}`);
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toBeVisible();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/blog-vista-previa.png`, fullPage: true });

  // Published now: the store shows it, with its cover and the image in its text.
  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Artículo publicado' })).toBeVisible();
  await openHydrated(page, `/blog-interior/${postId}/${slug}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Antes de salir' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'tokio' })).toBeVisible();
  await expect(page.locator('article img[src^="/api/blog-images/"]')).toHaveCount(2);
  await expect(page.getByRole('status').filter({ hasText: 'Vista previa' })).toHaveCount(0);

  // The sitemap lists it now (at PUBLIC_URL), and not once it is retired.
  expect(await (await request.get('/sitemap.xml')).text()).toContain(`/blog-interior/${postId}/${slug}</loc>`);

  // Retired: unticked and published, the store hides it again (and the demo blog is left as found).
  await page.goto(consolePage);
  await waitForHydration(page);
  await page.getByLabel(/^Mostrar en la tienda/).uncheck();
  await page.getByRole('button', { name: 'Guardar borrador' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Borrador guardado' })).toBeVisible();
  await page.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Artículo publicado' })).toBeVisible();
  expect((await request.get(`/blog-interior/${postId}/${slug}`)).status()).toBe(404);
  expect(await (await request.get('/sitemap.xml')).text()).not.toContain(`/blog-interior/${postId}/`);
});
