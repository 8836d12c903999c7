import { eq } from 'drizzle-orm';
import { blogPosts } from '../apps/api/src/db/schema.ts';
import { demoCompany } from '../apps/api/src/db/seed/demo-company.ts';
import { findLegalPage, publishLegalPage } from '../apps/api/src/modules/legal/repository.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

const posts = demoCompany.blog.posts;
const schengen = posts.find((post) => post.id === 4);
if (!schengen) throw new Error('The demo blog has no Schengen article');

test.describe('blog', () => {
  test('an article reached from the list has its title, description and absolute canonical URL', async ({
    page,
    baseURL,
  }) => {
    await openHydrated(page, '/blog');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Blog');
    const cards = page.getByRole('main').getByRole('heading', { level: 2 });
    // Newest first.
    const newest = [...posts].sort((a, b) => Date.parse(b.publishedAt) - Date.parse(a.publishedAt))[0];
    await expect(cards.first()).toHaveText(newest?.title ?? '');

    await page.getByRole('link', { name: schengen.title }).click();
    await expect(page).toHaveURL(`/blog-interior/4/${schengen.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(schengen.title);
    await expect(page).toHaveTitle(`${schengen.title} | Travesía`);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', schengen.summary);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      'href',
      `${baseURL}/blog-interior/4/${schengen.slug}`,
    );
    await expect(page.getByText('90 días dentro de cualquier período de 180 días')).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Ruta de navegación' }).getByRole('link', { name: 'Destinos' }),
    ).toBeVisible();
    // It ends with the way to quote: the home quoter.
    await page
      .getByRole('complementary', { name: '¿Viajas pronto?' })
      .getByRole('link', { name: 'Cotiza tu viaje' })
      .click();
    await expect(page).toHaveURL(/\/home#cotizar$/);
    await expect(page.getByRole('button', { name: 'Cotizar' }).first()).toBeVisible();
  });

  test('the article is server-rendered with one title, its description and canonical link', async ({
    request,
    baseURL,
  }) => {
    const html = await (await request.get(`/blog-interior/4/${schengen.slug}`)).text();
    expect(html.match(/<title>([^<]*)<\/title>/g)).toEqual([`<title>${schengen.title} | Travesía</title>`]);
    expect(html).toContain(`<link rel="canonical" href="${baseURL}/blog-interior/4/${schengen.slug}"/>`);
    expect(html).toContain('Qué pueden pedirte en la frontera');
  });

  test('a wrong title in the path is a 301 to the canonical path; an unknown id is the 404 page', async ({
    page,
    request,
  }) => {
    const moved = await request.get('/blog-interior/4/titulo-viejo?x=1', { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe(`/blog-interior/4/${schengen.slug}`);

    const missing = await page.goto('/blog-interior/999/algo');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esta página');
    expect((await request.get('/blog-interior/abc/algo')).status()).toBe(404);
  });

  test('a stored body with a script or an event handler reaches the page sanitised', async ({
    page,
    request,
    storefront,
  }) => {
    await storefront.database.db.insert(blogPosts).values({
      id: 700,
      companyId: 1,
      categoryId: 1,
      slug: 'prueba-de-contenido',
      title: 'Prueba de contenido',
      summary: 'Un artículo con HTML peligroso guardado.',
      image: null,
      bodyHtml:
        '<p>Texto visible</p><script>window.__xss = 1</script><img src="/img/logo.svg" onerror="window.__xss = 2" alt="logo"><a href="javascript:window.__xss = 3">enlace</a>',
      publishedAt: new Date('2026-01-01T12:00:00Z'),
    });
    try {
      const html = await (await request.get('/blog-interior/700/prueba-de-contenido')).text();
      expect(html).toContain('Texto visible');
      expect(html).not.toContain('window.__xss');
      expect(html).not.toContain('onerror');
      await openHydrated(page, '/blog-interior/700/prueba-de-contenido');
      await expect(page.getByText('Texto visible')).toBeVisible();
      expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    } finally {
      // The other tests count the seeded posts.
      await storefront.database.db.delete(blogPosts).where(eq(blogPosts.id, 700));
    }
  });

  test('the category links filter the list, and say which one is current', async ({ page }) => {
    await openHydrated(page, '/blog');
    const categories = page.getByRole('navigation', { name: 'Categorías del blog' });
    await categories.getByRole('link', { name: /Asistencia y coberturas/ }).click();
    await expect(page).toHaveURL('/blog?categoria=asistencia-y-coberturas');
    await expect(categories.getByRole('link', { name: /Asistencia y coberturas/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const titles = page.getByRole('main').getByRole('list').last().getByRole('heading', { level: 2 });
    await expect(titles).toHaveText([
      '¿Qué cubre una asistencia en viaje?',
      '¿Basta con la asistencia de tu tarjeta de crédito?',
      'Cómo pedir un reembolso paso a paso',
    ]);
    await expect(page).toHaveTitle('Blog: Asistencia y coberturas | Travesía');

    await categories.getByRole('link', { name: /Todos/ }).click();
    await expect(page).toHaveURL('/blog');
    await expect(titles).toHaveCount(posts.length);
  });
});

test.describe('legal pages', () => {
  for (const legal of demoCompany.legalPages) {
    test(`/${legal.slug} shows its stored text with its title and description`, async ({ page }) => {
      await page.goto(`/${legal.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(legal.title);
      await expect(page).toHaveTitle(`${legal.title} | Travesía`);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', legal.description);
      const firstHeading = /<h2>([^<]+)<\/h2>/.exec(legal.bodyHtml)?.[1] ?? '';
      await expect(page.getByRole('heading', { level: 2, name: firstHeading })).toBeVisible();
      await expect(page.getByText(/^Versión \d+, vigente desde el \d{1,2} de \w+ de \d{4}$/)).toBeVisible();
    });
  }

  test('an earlier version of a legal page says so and links to the one in force; an unknown one is the 404 page', async ({
    page,
    storefront,
  }) => {
    const { db } = storefront.database;
    // A new version of the policies, as the console publishes one (its own suites cover the console).
    const current = await findLegalPage(db, 1, 'politicas');
    if (!current) throw new Error('no politicas page');
    const version = await publishLegalPage(db, 1, 'politicas', {
      title: current.title,
      description: current.description,
      bodyHtml: `${current.bodyHtml}<p>Agregado en la versión nueva.</p>`,
    });
    await storefront.app.invalidateReadCache();
    const earlier = current.version;
    await page.goto(`/politicas?version=${earlier}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(current.title);
    await expect(page.getByText('Agregado en la versión nueva.')).toHaveCount(0);
    const note = page.getByRole('note');
    await expect(note).toContainText(`Estás leyendo la versión ${earlier}, publicada el`);
    await note.getByRole('link', { name: 'Ver la versión vigente' }).click();
    await expect(page).toHaveURL('/politicas');
    await expect(page.getByText('Agregado en la versión nueva.')).toBeVisible();
    await expect(page.getByText(`Versión ${version}, vigente desde el`, { exact: false })).toBeVisible();
    await expect(page.getByRole('note')).toHaveCount(0);
    const missing = await page.goto('/politicas?version=999');
    expect(missing?.status()).toBe(404);
  });

  test('/informacion-legal names the seller: legal name, RUT, legal address, e-mail and phone', async ({ page }) => {
    await page.goto('/informacion-legal');
    const seller = page.getByRole('region', { name: 'Identificación del proveedor' });
    const { company } = demoCompany;
    await expect(seller).toContainText(company.legalName);
    await expect(seller).toContainText(company.rut);
    await expect(seller).toContainText(company.address);
    await expect(seller.getByRole('link', { name: 'contacto@travesia.cl' })).toHaveAttribute(
      'href',
      'mailto:contacto@travesia.cl',
    );
    await expect(seller.getByRole('link', { name: '+56 (2) 2640 2000' })).toHaveAttribute('href', 'tel:+56226402000');
    await expect(page.getByText('Ley N° 19.496').first()).toBeVisible();
  });
});
