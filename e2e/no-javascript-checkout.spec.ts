import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { expectNoValueIn, recordUrls } from './support/urls.ts';

/**
 * The checkout without JavaScript (a slow phone before its scripts load, or none at all): each step's form posts to
 * its route, the server saves it or renders it again with the values and the errors in words, and nothing the
 * visitor typed ever travels in a URL (history, Referer).
 */

type ApiPassengers = {
  shareEmergencyContact: boolean;
  emergencyContact: { firstName: string; lastName: string; phone: string } | null;
  passangers: { firstName: string; birthDate: string; document: { type: number; id: string }; email: string }[];
};

for (const width of [390, 1280]) {
  test.describe(`checkout without JavaScript at ${width} px`, () => {
    test.use({ javaScriptEnabled: false, viewport: { width, height: 900 } });

    test('passengers: a wrong RUT comes back in words with the values kept, then they are saved', async ({
      page,
      request,
    }, testInfo) => {
      testInfo.setTimeout(60_000); // two full page loads a submission, on a shared machine
      const id = await createQuotation(request);
      const urls = recordUrls(page);
      await page.goto(`/compra/411/${id}`);

      const first = page.getByRole('region', { name: /Pasajero 1/ });
      await first.getByLabel('Nombre', { exact: true }).fill('Camila');
      await first.getByLabel('Apellido', { exact: true }).fill('Rojas Soto');
      // Without JavaScript the date field is a text input: dd-mm-aaaa as typed.
      await first.getByLabel('Fecha de nacimiento', { exact: true }).fill('15-03-1990');
      await first.getByLabel('Género').selectOption('F');
      await first.getByLabel('RUT/DNI').fill('12.345.678-9'); // wrong check digit
      await first.getByLabel('E-mail').fill('camila@example.cl');
      await first.getByLabel('Teléfono').fill('+56 9 1234 5678');
      const second = page.getByRole('region', { name: /Pasajero 2/ });
      await second.getByLabel('Nombre', { exact: true }).fill('Jorge');
      await second.getByLabel('Apellido', { exact: true }).fill('Fernández');
      await second.getByLabel('Fecha de nacimiento', { exact: true }).fill('10-05-1946');
      await second.getByLabel('Género').selectOption('M');
      await second.getByLabel('Nacionalidad').selectOption({ label: 'Otro' });
      await second.getByLabel('Tipo de documento').selectOption({ label: 'DNI' });
      await second.getByLabel('RUT/DNI').fill('AB123456');
      await second.getByLabel('E-mail').fill('jorge@example.com');
      await second.getByLabel('Teléfono').fill('+54 11 5555 1234');
      const emergency = page.getByRole('region', { name: 'Contacto de emergencia' });
      await emergency.getByLabel('Nombre', { exact: true }).fill('Ana');
      await emergency.getByLabel('Apellido', { exact: true }).fill('Rojas');
      await emergency.getByLabel('Teléfono').fill('+56 2 2345 6789');
      await page.getByLabel('País de destino').selectOption({ label: 'España' });
      await page.getByLabel('Acepto los términos y condiciones').check();
      await page.getByRole('button', { name: 'Continuar a facturación' }).click();

      // The server renders the page again: the error beside its field, every value as typed.
      await expect(first.getByText('RUT inválido')).toBeVisible();
      await expect(first.getByLabel('RUT/DNI')).toHaveAttribute('aria-invalid', 'true');
      await expect(page).toHaveURL(new RegExp(`/compra/411/${id}$`));
      await expect(first.getByLabel('Nombre', { exact: true })).toHaveValue('Camila');
      await expect(first.getByLabel('Fecha de nacimiento', { exact: true })).toHaveValue('15-03-1990');
      await expect(first.getByLabel('Género')).toHaveValue('F');
      await expect(first.getByLabel('RUT/DNI')).toHaveValue('12.345.678-9');
      await expect(second.getByLabel('Tipo de documento')).toHaveValue('2');
      await expect(second.getByLabel('RUT/DNI')).toHaveValue('AB123456');
      await expect(emergency.getByLabel('Teléfono')).toHaveValue('+56 2 2345 6789');
      await expect(page.getByLabel('País de destino')).toHaveText(/España/);
      await expect(page.getByLabel('Acepto los términos y condiciones')).toBeChecked();
      const notSaved = await request.get(`/api/quotations/${id}/passangers`);
      expect(notSaved.status()).toBe(404);

      await first.getByLabel('RUT/DNI').fill('12345678-5');
      await page.getByRole('button', { name: 'Continuar a facturación' }).click();
      await expect(page).toHaveURL(new RegExp(`/facturacion/411/${id}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Datos de facturación');

      const saved = await request.get(`/api/quotations/${id}/passangers`);
      expect(saved.status()).toBe(200);
      const body = (await saved.json()) as ApiPassengers;
      expect(body.shareEmergencyContact).toBe(true);
      expect(body.emergencyContact).toEqual({ firstName: 'Ana', lastName: 'Rojas', phone: '+56 2 2345 6789' });
      const byName = new Map(body.passangers.map((p) => [p.firstName, p]));
      expect(byName.get('Camila')).toMatchObject({
        birthDate: '1990-03-15',
        document: { type: 1, id: '12.345.678-5' },
        email: 'camila@example.cl',
      });
      expect(byName.get('Jorge')).toMatchObject({ birthDate: '1946-05-10', document: { type: 2, id: 'AB123456' } });

      expectNoValueIn(urls, [
        'Camila',
        'Rojas',
        'Fernández',
        '12.345.678',
        '12345678',
        'AB123456',
        'camila@example.cl',
        'jorge@example.com',
        '1234 5678',
        '5555',
        '2345',
        '1990',
        '1946',
      ]);
    });

    test('billing: a wrong company RUT and a missing number come back in words, then the invoice is saved', async ({
      page,
      request,
    }, testInfo) => {
      testInfo.setTimeout(60_000); // two full page loads a submission, on a shared machine
      const id = await createQuotation(request);
      await savePassengersAndInvoice(request, id);
      const urls = recordUrls(page);
      await page.goto(`/facturacion/411/${id}`);

      // What was saved is in the page before any script.
      await expect(page.getByLabel('Dirección', { exact: true }).first()).toHaveValue('Los Leones');
      await page.getByLabel('Dirección', { exact: true }).first().fill('Av. Providencia');
      await page.getByLabel('Número').fill('');
      await page.getByLabel('Depto.').fill('1502');
      await page.getByLabel('Localidad / Comuna').fill('Ñuñoa');
      await page.getByLabel('Provincia / Región').selectOption('Valparaíso');
      // The company's fields appear with the box, by CSS alone.
      const company = page.getByRole('group', { name: 'Datos de la empresa' });
      await expect(company).toBeHidden();
      await page.getByLabel('Necesito factura').check();
      await expect(company).toBeVisible();
      await company.getByLabel('Razón social').fill('Viajes Andinos SpA');
      await company.getByLabel('RUT').fill('76.086.428-0'); // wrong check digit
      await company.getByLabel('Giro').fill('Agencia de viajes');
      await company.getByLabel('Dirección').fill('Av. Apoquindo 4500');
      await company.getByLabel('E-mail').fill('facturas@viajesandinos.cl');
      await page.getByRole('button', { name: 'Continuar al pago' }).click();

      await expect(page).toHaveURL(new RegExp(`/facturacion/411/${id}$`));
      await expect(company.getByText('RUT inválido')).toBeVisible();
      await expect(page.getByLabel('Número')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByText('Campo Obligatorio')).toBeVisible();
      await expect(page.getByLabel('Dirección', { exact: true }).first()).toHaveValue('Av. Providencia');
      await expect(page.getByLabel('Localidad / Comuna')).toHaveValue('Ñuñoa');
      await expect(page.getByLabel('Provincia / Región')).toHaveValue('Valparaíso');
      await expect(page.getByLabel('Necesito factura')).toBeChecked();
      await expect(company.getByLabel('Razón social')).toHaveValue('Viajes Andinos SpA');
      await expect(company.getByLabel('RUT')).toHaveValue('76.086.428-0');

      await page.getByLabel('Número').fill('1234');
      await company.getByLabel('RUT').fill('76086428-5');
      await page.getByRole('button', { name: 'Continuar al pago' }).click();
      await expect(page).toHaveURL(new RegExp(`/pago/411/${id}$`));

      const saved = await request.get(`/api/quotations/${id}/invoice-details`);
      expect(saved.status()).toBe(200);
      expect(await saved.json()).toMatchObject({
        personalInformation: {
          address: 'Av. Providencia',
          streetNumber: '1234',
          apartment: '1502',
          locality: 'Ñuñoa',
          province: 'Valparaíso',
        },
        generateInvoice: true,
        companyDetails: { name: 'Viajes Andinos SpA', id: '76.086.428-5', email: 'facturas@viajesandinos.cl' },
      });
      expectNoValueIn(urls, ['Providencia', 'Ñuñoa', 'Valparaíso', '1234', '1502', 'Andinos', '76.086', '76086']);
    });

    test('payment: no gateway preselected, the real one first; choosing the sandbox pays', async ({
      page,
      request,
    }, testInfo) => {
      testInfo.setTimeout(60_000); // two full page loads a submission, on a shared machine
      const id = await createQuotation(request);
      await savePassengersAndInvoice(request, id);
      await page.goto(`/pago/411/${id}`);

      const gateways = page.getByRole('radio');
      await expect(gateways.first()).toHaveAccessibleName('Webpay Plus');
      await expect(gateways.last()).toHaveAccessibleName('Pago de prueba (sin cargo real)');
      for (const gateway of await gateways.all()) await expect(gateway).not.toBeChecked();

      await page.getByRole('button', { name: /^Pagar / }).click();
      await expect(page.getByText('Elige un medio de pago')).toBeVisible();
      await expect(
        page.getByText('Debes autorizar el tratamiento de los datos de los pasajeros para contratar'),
      ).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`/pago/411/${id}$`));

      await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
      await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
      await page.getByRole('button', { name: /^Pagar / }).click();
      await page.waitForURL(/\/api\/payments\/sandbox\//);
      await page.getByRole('button', { name: 'Aprobar pago' }).click();
      await page.waitForURL(/\/exito\?venta=\d+&transaccion=\d+/);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Gracias');

      // The success page's own form works without JavaScript too: the certificate is sent again.
      await page.getByRole('button', { name: 'Enviar Certificado' }).click();
      await expect(page.getByText('Te enviamos el certificado a tu correo')).toBeVisible();
    });

    test('a resumed checkout shows what was saved in the HTML, before any script', async ({ page, request }) => {
      const id = await createQuotation(request);
      await savePassengersAndInvoice(request, id);

      const html = await (await request.get(`/compra/411/${id}`)).text();
      for (const value of ['Pedro', 'Jorge', 'Muñoz', '7.654.321-6', 'pedro@example.cl', '+56911112222', 'Ana']) {
        expect(html, value).toContain(`value="${value}"`);
      }

      await page.goto(`/compra/411/${id}`);
      const first = page.getByRole('region', { name: /Pasajero 1/ });
      await expect(first.getByLabel('Nombre', { exact: true })).toHaveValue('Pedro');
      await expect(first.getByLabel('Fecha de nacimiento', { exact: true })).toHaveValue('01-07-1985');
      await expect(first.getByLabel('Género')).toHaveValue('M');
      await expect(first.getByLabel('RUT/DNI')).toHaveValue('7.654.321-6');
      await expect(first.getByLabel('E-mail')).toHaveValue('pedro@example.cl');
      await expect(first.getByLabel('Teléfono')).toHaveValue('+56911112222');
      const emergency = page.getByRole('region', { name: 'Contacto de emergencia' });
      await expect(emergency.getByLabel('Nombre', { exact: true })).toHaveValue('Ana');
      await expect(page.getByLabel('Acepto los términos y condiciones')).toBeChecked();

      await page.goto(`/facturacion/411/${id}`);
      await expect(page.getByLabel('Dirección', { exact: true }).first()).toHaveValue('Los Leones');
      await expect(page.getByLabel('Número')).toHaveValue('100');
      await expect(page.getByLabel('Localidad / Comuna')).toHaveValue('Providencia');
      await expect(page.getByLabel('Provincia / Región')).toHaveValue('Metropolitana de Santiago');
      // Resubmitted as it is, without JavaScript, it saves and goes on.
      await page.getByRole('button', { name: 'Continuar al pago' }).click();
      await expect(page).toHaveURL(new RegExp(`/pago/411/${id}$`));
    });
  });
}

test.describe('the shared emergency contact without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 390, height: 900 } });

  test('unticking the box brings back one contact per traveller, filled with the contact typed', async ({
    page,
    request,
  }) => {
    const id = await createQuotation(request);
    await page.goto(`/compra/411/${id}`);
    const first = page.getByRole('region', { name: /Pasajero 1/ });
    await first.getByLabel('Nombre', { exact: true }).fill('Camila');
    const emergency = page.getByRole('region', { name: 'Contacto de emergencia' });
    await emergency.getByLabel('Nombre', { exact: true }).fill('Ana');
    await emergency.getByLabel('Teléfono').fill('+56 2 2345 6789');
    await page.getByLabel('Usar el mismo contacto de emergencia para todos los pasajeros').uncheck();
    await page.getByRole('button', { name: 'Continuar a facturación' }).click();

    await expect(page.getByRole('alert').filter({ hasText: 'Ingresa el contacto de emergencia' })).toBeVisible();
    await expect(first.getByLabel('Nombre', { exact: true })).toHaveValue('Camila');
    for (const index of [1, 2]) {
      const own = page.getByRole('group', { name: new RegExp(`Contacto de emergencia del pasajero ${index}`) });
      await expect(own.getByLabel('Nombre', { exact: true })).toHaveValue('Ana');
      await expect(own.getByLabel('Teléfono')).toHaveValue('+56 2 2345 6789');
    }
    expect((await request.get(`/api/quotations/${id}/passangers`)).status()).toBe(404);
  });
});
