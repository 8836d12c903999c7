import { expect, test } from './support/fixtures.ts';
import { chromeless, paths } from './support/routes.ts';
import { homeHeading, mainNav } from './support/shell.ts';

/** Headings of the root error boundary (components/PageError.tsx): a route that lands there has not rendered its page. */
const errorHeadings = /Algo salió mal|no está disponible por el momento|No encontramos esta página/;

test.describe('route table', () => {
  for (const path of paths) {
    const chrome = chromeless.has(path) ? 'without' : 'with';
    test(`${path} renders its page with an h1, its own title, ${chrome} nav and footer`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveURL(path);

      const h1 = page.getByRole('heading', { level: 1 });
      await expect(h1).toHaveCount(1);
      await expect(h1).toBeVisible();
      await expect(h1).toHaveText(/\S/);
      await expect(h1).not.toHaveText(errorHeadings);
      await expect(page).toHaveTitle(/^\S.* \| Travesía$/);

      if (chromeless.has(path)) {
        await expect(page.getByRole('banner')).toHaveCount(0);
        await expect(mainNav(page)).toHaveCount(0);
        await expect(page.getByRole('contentinfo')).toHaveCount(0);
        await expect(page.getByRole('link', { name: 'Escríbenos por WhatsApp' })).toHaveCount(0);
      } else {
        await expect(mainNav(page)).toBeVisible();
        await expect(page.getByRole('contentinfo')).toBeVisible();
      }
    });
  }

  test('pages set different titles', async ({ request }) => {
    // Paths that share a screen on purpose (/, /home, /home/:code; the quoter) are left out.
    const distinct = paths.filter((path) => !['/home', '/home/abc', '/cotizador/partner'].includes(path));
    const titles = new Map<string, string>();
    for (const path of distinct) {
      const html = await (await request.get(path)).text();
      const found = html.match(/<title>([^<]*)<\/title>/g) ?? [];
      expect(found, `one <title> in ${path}`).toHaveLength(1);
      titles.set(path, found[0] ?? '');
    }
    expect(titles.get('/faq')).not.toBe(titles.get('/contactanos'));
    expect(titles.get('/faq')).not.toBe(titles.get('/certificados'));
    expect(titles.get('/contactanos')).not.toBe(titles.get('/certificados'));
    const repeated = [...titles].filter(
      ([, title]) => [...titles.values()].filter((other) => other === title).length > 1,
    );
    expect(repeated, 'pages sharing a title').toEqual([]);
  });
});

/** Screens that are no placeholder: what each really shows, server-rendered (no JavaScript needed to see it). */
const realContent: [path: string, texts: string[]][] = [
  ['/contactanos', ['Asistencia en viaje 24/7', 'Emergencias 24/7', 'ventas@travesia.cl', 'Ir al formulario']],
  ['/contacto', ['Nombre y apellido', 'Asunto', 'Cotización y compra', 'Enviar solicitud']],
  ['/confirmacion', ['Te responderemos a la brevedad', 'Ver canales de contacto']],
];

test.describe('screens with their real content', () => {
  for (const [path, texts] of realContent) {
    test(`${path} shows its content in the server's HTML`, async ({ request }) => {
      const html = await (await request.get(path)).text();
      expect(html).not.toContain('Estamos preparando esta sección');
      for (const text of texts) expect(html, `${path} shows «${text}»`).toContain(text);
    });
  }
});

test.describe('page content', () => {
  test('/certificados is the certificate search, opening on Email', async ({ page }) => {
    await page.goto('/certificados');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Certificados');
    await expect(page.getByRole('radio', { name: 'Email' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'RUT' })).not.toBeChecked();
    await expect(page.getByRole('radio', { name: 'Pasaporte' })).not.toBeChecked();
    await expect(page.getByPlaceholder('Ingresa Email del titular')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buscar', exact: true })).toBeVisible();
  });
});

test.describe('unknown paths', () => {
  test('an unknown path lands on home', async ({ page }) => {
    await page.goto('/no-existe/xyz');
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(homeHeading);
    await expect(mainNav(page)).toBeVisible();
  });
});

test.describe('refund pages', () => {
  test('/reembolsos shows the request form and /reembolsos/seguimiento the look-up', async ({ page }) => {
    await page.goto('/reembolsos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Solicitud de reembolso');
    await expect(page.getByLabel('Adjunta tus documentos')).toHaveAttribute('accept', /application\/pdf/);
    await expect(page.getByRole('button', { name: 'Enviar solicitud' })).toBeVisible();
    await page.goto('/reembolsos/seguimiento?numero=r-7k3m9xq2');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seguimiento de reembolso');
    await expect(page.getByLabel('Número de solicitud')).toHaveValue('R-7K3M9XQ2');
  });
});

/** What each content page shows that a placeholder would not (the «Estamos preparando esta sección» page). */
const contentOfPage: Record<string, RegExp> = {
  '/faq': /¿Qué medios de pago aceptan\?/,
  '/quienes-somos': /Nuestros prestadores[\s\S]*Misión y visión[\s\S]*Nuestra oficina/,
  '/contratacion': /Pasajero 3[\s\S]*Contacto de emergencia[\s\S]*Detalle de compra/,
  '/europmembers': /no está disponible en este sitio/,
  '/error': /pago/,
};

test.describe('content pages have their real content', () => {
  for (const [path, content] of Object.entries(contentOfPage)) {
    test(`${path} shows its content in the server-rendered page`, async ({ page, request }) => {
      const html = await (await request.get(path)).text();
      expect(html).not.toContain('Estamos preparando esta sección');
      await page.goto(path);
      await expect(page.locator('#contenido')).toContainText(content);
    });
  }
});
