import { PassengerType } from '@travesia/domain/ids';
import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { apiOutage } from './support/outage.ts';
import { tripDates } from './support/quote.ts';
import { mainNav, openHydrated } from './support/shell.ts';

type Post = { headers: Record<string, string>; data: string };

/** Posts that no page of the storefront sends: they are a 400, never the 500 of a crashed action. */
const bodies: (Post & { name: string })[] = [
  { name: 'form-encoded', headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: 'origin=1&x=%00' },
  { name: 'empty', headers: {}, data: '' },
  { name: 'empty with a JSON content type', headers: { 'content-type': 'application/json' }, data: '' },
  { name: 'JSON that is not an object', headers: { 'content-type': 'application/json' }, data: 'null' },
];

test.describe('unexpected posts to the quoter and the comparator', () => {
  // `/?index` is how a form on the home page reaches its action (a bare `/` posts to the root layout, which has none).
  for (const path of ['/?index', '/home', '/cotizador', '/cotizador/partner']) {
    for (const body of bodies) {
      test(`POST ${path} with a ${body.name} body → 400, not 500`, async ({ request }) => {
        const response = await request.post(path, { headers: body.headers, data: body.data, maxRedirects: 0 });
        expect(response.status()).toBe(400);
        expect(await response.text()).toContain('Revisa los datos de tu viaje.');
      });
    }
  }

  test('POST / (the root layout, no action) is a client error too, never a 500', async ({ request }) => {
    for (const body of bodies) {
      const response = await request.post('/', { headers: body.headers, data: body.data, maxRedirects: 0 });
      expect(response.status(), body.name).toBeGreaterThanOrEqual(400);
      expect(response.status(), body.name).toBeLessThan(500);
    }
  });

  test('POST /comparador/<id> with a form-encoded, empty or JSON body → 400, not 500', async ({ request }) => {
    const { departure, back } = tripDates(20, 5);
    const created = await request.post('/api/quotations/1', {
      data: {
        origin: 1,
        destination: 3,
        modality: 1,
        departureDate: departure,
        returnDate: back,
        passangerTypes: [{ passengerTypeId: PassengerType.upTo74, quantity: 1 }],
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const path = `/comparador/${id}`;
    const posts: Post[] = [
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: 'planId=abc' },
      { headers: { 'content-type': 'application/x-www-form-urlencoded' }, data: '' },
      { headers: {}, data: '' },
      { headers: { 'content-type': 'application/json' }, data: '{"planId":410}' },
      { headers: { 'content-type': 'application/json' }, data: '' },
    ];
    for (const post of posts) {
      const response = await request.post(path, { ...post, maxRedirects: 0 });
      expect(response.status(), JSON.stringify(post)).toBe(400);
    }
  });
});

test.describe('the quoter by keyboard', () => {
  test('pressing «Quitar» down to 0 keeps the focus on the button, which says it is disabled', async ({ page }) => {
    await openHydrated(page, '/');
    const remove = page.getByRole('button', { name: 'Quitar pasajero de 0 a 74 años' });
    const count = page.getByRole('status', { name: /^Pasajero de 0 a 74 años: \d+$/i });
    await page.getByRole('button', { name: 'Agregar pasajero de 0 a 74 años' }).click();
    await expect(count).toHaveText('2');
    await remove.focus();
    for (let press = 0; press < 4; press += 1) await page.keyboard.press('Enter');
    await expect(count).toHaveText('0');
    await expect(remove).toBeFocused();
    await expect(remove).toHaveAttribute('aria-disabled', 'true');
    await expect(remove).not.toHaveAttribute('disabled');
  });

  test('pressing «Agregar» up to the maximum of 9 keeps the focus on the button', async ({ page }) => {
    await openHydrated(page, '/');
    const add = page.getByRole('button', { name: 'Agregar pasajero de 0 a 74 años' });
    const count = page.getByRole('status', { name: /^Pasajero de 0 a 74 años: \d+$/i });
    await add.focus();
    for (let press = 0; press < 12; press += 1) await page.keyboard.press('Enter');
    await expect(count).toHaveText('9');
    await expect(add).toBeFocused();
    await expect(add).toHaveAttribute('aria-disabled', 'true');
  });

  test('the discount code names its error as its description', async ({ page }) => {
    await openHydrated(page, '/');
    const code = page.getByLabel('Código de descuento');
    await code.fill('X'.repeat(31));
    await page.getByRole('button', { name: 'Cotizar', exact: true }).click();
    await expect(code).toHaveAttribute('aria-invalid', 'true');
    await expect(code).toHaveAccessibleDescription('El código puede tener hasta 30 caracteres');
  });
});

test.describe('an API outage', () => {
  test('an unreachable API shows the one error page in words, inside the shell, and «Intentar nuevamente» recovers', async ({
    page,
    request,
    storefront,
  }) => {
    const id = await createQuotation(request);
    const end = apiOutage(storefront.app, (url) => url.startsWith(`/api/quotations/1/${id}`), 'unreachable');
    try {
      const response = await page.goto(`/compra/411/${id}`);
      expect(response?.status()).toBe(503);
    } finally {
      end();
    }
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Esta página no está disponible por el momento');
    await expect(page.getByText('No pudimos cargar la compra.')).toBeVisible();
    await expect(page.getByText(/Por favor intenta nuevamente en unos minutos/)).toBeVisible();
    await expect(mainNav(page)).toBeVisible();
    await expect(page.getByRole('contentinfo')).toBeVisible();
    await expect(page).toHaveTitle('Página no disponible | Travesía');

    await page.getByRole('link', { name: 'Intentar nuevamente' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Datos de los pasajeros');
  });

  test('an API answering 500 for the payment gateways shows the same page, naming what is missing', async ({
    page,
    request,
    storefront,
  }) => {
    const id = await createQuotation(request);
    await savePassengersAndInvoice(request, id);
    const end = apiOutage(storefront.app, (url) => url.startsWith('/api/companies/1/payment-gateways'), 500);
    try {
      const response = await page.goto(`/pago/411/${id}`);
      expect(response?.status()).toBe(503);
    } finally {
      end();
    }
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Esta página no está disponible por el momento');
    await expect(page.getByText('No pudimos cargar los medios de pago.')).toBeVisible();
    await expect(mainNav(page)).toBeVisible();
  });

  test('a form sent while the API is unreachable stays on its page, with what was typed, and says so', async ({
    page,
    request,
    storefront,
  }) => {
    const id = await createQuotation(request);
    await savePassengersAndInvoice(request, id);
    await openHydrated(page, `/facturacion/411/${id}`);
    await page.getByLabel('Número').fill('4321');
    const end = apiOutage(
      storefront.app,
      (url) => url.endsWith(`/api/quotations/${id}/invoice-details`),
      'unreachable',
    );
    try {
      await page.getByRole('button', { name: 'Continuar al pago' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'No pudimos guardar tus datos' })).toBeVisible();
    } finally {
      end();
    }
    await expect(page).toHaveURL(`/facturacion/411/${id}`);
    await expect(page.getByLabel('Número')).toHaveValue('4321');
  });

  test('the success page tells a buyer whose payment result cannot be read that the certificate still arrives', async ({
    page,
    storefront,
  }) => {
    const end = apiOutage(storefront.app, (url) => url.startsWith('/api/companies/7/payment-result/9'), 'unreachable');
    try {
      const response = await page.goto('/exito?venta=9&transaccion=7');
      expect(response?.status()).toBe(503);
    } finally {
      end();
    }
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No pudimos cargar tu compra');
    await expect(page.getByText(/el certificado llegará al correo de cada pasajero/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Intentar nuevamente' })).toHaveAttribute(
      'href',
      '/exito?venta=9&transaccion=7',
    );
  });

  test('when the shell’s own data cannot load, the error page still says so in words, without the shell', async ({
    page,
    storefront,
  }) => {
    const end = apiOutage(storefront.app, (url) => url.startsWith('/api/companies/1/website-parameters'), 503);
    try {
      // A page rendered on every request: home, the FAQ and a comparator may be answered from the pages kept whole by
      // an earlier test (README «Pages kept whole»), which is not what this checks.
      const response = await page.goto('/quienes-somos');
      expect(response?.status()).toBe(503);
    } finally {
      end();
    }
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Esta página no está disponible por el momento');
    await expect(page.getByText('No pudimos cargar la tienda.')).toBeVisible();
    await expect(mainNav(page)).toHaveCount(0);
  });
});

test.describe('bodies larger than any form', () => {
  // Page actions read a body whole into memory: the storefront refuses a larger one before reading it.
  test('a post declaring more than a form can carry → 413, nothing read', async ({ storefront }) => {
    const { storefrontBodyLimitBytes } = await import('../apps/api/src/web.ts');
    const status = await rawPost(storefront.baseURL, '/contacto', {
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': String(storefrontBodyLimitBytes + 1),
    });
    expect(status).toBe(413);
  });

  test('the refund form streams its documents, but a post declaring more than 5 of 5 MB → 413, nothing read', async ({
    storefront,
  }) => {
    const { maxUploadRequestBytes } = await import('../apps/api/src/modules/claims/uploads.ts');
    const status = await rawPost(storefront.baseURL, '/reembolsos', {
      'content-type': 'multipart/form-data; boundary=x',
      'content-length': String(maxUploadRequestBytes + 1),
    });
    expect(status).toBe(413);
  });

  test('a chunked post of unknown length → 411', async ({ storefront }) => {
    const status = await rawPost(storefront.baseURL, '/contacto', {
      'content-type': 'application/x-www-form-urlencoded',
      'transfer-encoding': 'chunked',
    });
    expect(status).toBe(411);
  });

  test('a form of ordinary size still reaches its action', async ({ request }) => {
    const response = await request.post('/?index', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'origin=1',
      maxRedirects: 0,
    });
    expect(response.status()).toBe(400);
  });
});

/** Sends only the headers of a post (and a first chunk), and answers the status the server replies with. */
async function rawPost(baseURL: string, path: string, headers: Record<string, string>): Promise<number> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, baseURL), { method: 'POST', headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.write('x');
  });
}
