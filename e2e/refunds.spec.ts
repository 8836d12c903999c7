import { refundMessages } from '@travesia/domain/refunds';
import { changeStatus } from '../apps/api/src/modules/claims/service.ts';
import { expectNoViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { coveredClaim, fillRefundForm } from './support/refunds.ts';
import { openHydrated } from './support/shell.ts';

const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer\n%%EOF\n');
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR')]);

test.describe('refunds', () => {
  test('a refund with a file, then its tracking and the missing documents added', async ({
    page,
    request,
    storefront,
  }) => {
    test.setTimeout(150_000);
    const claim = await coveredClaim(request);
    await openHydrated(page, '/reembolsos');
    await expect(page.getByRole('heading', { level: 1, name: 'Solicitud de reembolso' })).toBeVisible();
    await expectNoViolations(page, '/reembolsos');

    // A certificate the document does not hold: the same message beside the number and the document, gone from
    // both as soon as the number is edited (issue 22).
    await fillRefundForm(page, 'ana.e2e@example.cl', claim);
    const certificateField = page.getByLabel('Número de certificado o de venta');
    await certificateField.fill('TRV-2026-999999999-1');
    await page
      .getByLabel('Adjunta tus documentos')
      .setInputFiles({ name: 'boleta.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    const notHeld = page.getByText(refundMessages.certificateNotHeld);
    await expect(notHeld).toHaveCount(2);
    await expect(certificateField).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Número de documento')).toHaveAttribute('aria-invalid', 'true');
    await certificateField.fill(claim.rutCertificate);
    await expect(notHeld).toHaveCount(0);
    await expect(page.getByLabel('Número de documento')).not.toHaveAttribute('aria-invalid', 'true');

    // A PNG under a .pdf name is refused by its content, the message beside the file input naming it.
    await page
      .getByLabel('Adjunta tus documentos')
      .setInputFiles({ name: 'informe.pdf', mimeType: 'application/pdf', buffer: png });
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(
      page.getByText(/El archivo «informe\.pdf» es una imagen PNG: su nombre debe terminar en \.png/),
    ).toBeVisible();
    await expect(page.getByLabel('Nombre y apellido')).toHaveValue('Ana María Pérez');
    await expectNoViolations(page, '/reembolsos with errors');

    // 2 MB: more than a form's action may read whole, so it is streamed (apps/api/src/web.ts refundPagePaths).
    const scan = Buffer.alloc(2 * 1024 * 1024, 0x20);
    pdf.copy(scan);
    await page
      .getByLabel('Adjunta tus documentos')
      .setInputFiles({ name: 'boleta.pdf', mimeType: 'application/pdf', buffer: scan });
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByRole('heading', { name: 'Recibimos tu solicitud' })).toBeVisible();
    const number = (await page.locator('strong').filter({ hasText: /^R-/ }).textContent()) ?? '';
    expect(number).toMatch(/^R-[0-9A-Z]{8}$/);
    await expect
      .poll(() => storefront.smtp.received.filter((m) => m.parsed.subject?.includes(number)).map((m) => m.to[0]))
      .toEqual(expect.arrayContaining(['ana.e2e@example.cl', 'reembolsos@travesia.cl']));

    await page.getByRole('link', { name: 'Ver el estado de mi solicitud' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Seguimiento de reembolso' })).toBeVisible();
    await expect(page.getByLabel('Número de solicitud')).toHaveValue(number);
    await page.getByLabel('Documento del titular').fill('11.111.111-1');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByText(/No encontramos una solicitud con ese número y documento/)).toBeVisible();

    await page.getByLabel('Documento del titular').fill('12345678-5');
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByRole('heading', { name: 'Estado: Recibida' })).toBeVisible();
    await expect(page.getByText('boleta.pdf')).toBeVisible();
    await expect(page.getByText('$185.000')).toBeVisible();

    await changeStatus(storefront.database.db, number, {
      status: 'faltan_documentos',
      missing: 'Boleta original de la clínica',
    });
    await page.getByRole('button', { name: 'Buscar' }).click();
    await expect(page.getByRole('heading', { name: 'Estado: Faltan documentos' })).toBeVisible();
    await expect(page.getByText('Para continuar necesitamos: Boleta original de la clínica')).toBeVisible();
    await expectNoViolations(page, '/reembolsos/seguimiento, documents missing');

    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: 'test-results/refunds-tracking-360.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    // The store's own file control, in Spanish whatever the browser's language; the keyboard reaches the input.
    const documents = page.getByLabel('Documentos', { exact: true });
    await expect(page.getByText('Ningún archivo elegido')).toBeVisible();
    await documents.focus();
    await expect(documents).toBeFocused();
    await documents.setInputFiles({
      name: 'boleta-original.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([png, Buffer.alloc(1024 * 1024)]),
    });
    await expect(page.getByText('boleta-original.png')).toBeVisible();
    await expect(page.getByText('Ningún archivo elegido')).toHaveCount(0);
    await page.getByRole('button', { name: 'Enviar documentos' }).click();
    await expect(page.getByText('Recibimos tu documento. Tu solicitud volvió a revisión.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Estado: En revisión' })).toBeVisible();
    await expect(page.getByText('boleta-original.png')).toBeVisible();
    await expectNoViolations(page, '/reembolsos/seguimiento, in review');
  });

  test('the form at 360 px', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await openHydrated(page, '/reembolsos');
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByText('Ingresa el nombre del titular')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/refunds-form-360.png', fullPage: true });
  });
});

test.describe('refunds without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form posts as multipart and shows the number; errors appear beside the fields', async ({
    page,
    request,
  }) => {
    const claim = await coveredClaim(request);
    await page.goto('/reembolsos');
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByText('Ingresa el nombre del titular')).toBeVisible();
    await expect(page.getByText(/Adjunta al menos un documento/)).toBeVisible();
    await fillRefundForm(page, 'sinjs@example.cl', claim);
    await page
      .getByLabel('Adjunta tus documentos')
      .setInputFiles({ name: 'boleta.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByRole('heading', { name: 'Recibimos tu solicitud' })).toBeVisible();
    await expect(page.locator('strong').filter({ hasText: /^R-[0-9A-Z]{8}$/ })).toBeVisible();
  });

  test('a document over 5 MB is refused as it streams: the message beside the file input, the fields kept', async ({
    page,
    request,
    storefront,
  }) => {
    const claim = await coveredClaim(request);
    const large = Buffer.alloc(6 * 1024 * 1024, 0x20);
    pdf.copy(large);
    await page.goto('/reembolsos');
    await fillRefundForm(page, 'grande@example.cl', claim);
    await page.getByLabel('Adjunta tus documentos').setInputFiles([
      { name: 'boleta.pdf', mimeType: 'application/pdf', buffer: pdf },
      { name: 'escaneo.pdf', mimeType: 'application/pdf', buffer: large },
    ]);
    const requests = async () =>
      (await storefront.database.db.execute('SELECT count(*)::int AS n FROM refund_requests')) as unknown as {
        rows: { n: number }[];
      };
    const before = (await requests()).rows[0]?.n;
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByText('El archivo «escaneo.pdf» pesa más de 5 MB')).toBeVisible();
    await expect(page.getByLabel('Correo electrónico del titular')).toHaveValue('grande@example.cl');
    expect((await requests()).rows[0]?.n).toBe(before);
  });

  test('DNI and Pasaporte are separate options; a passport is checked as the passenger form checks it', async ({
    page,
    request,
    storefront,
  }) => {
    const claim = await coveredClaim(request);
    await page.goto('/reembolsos');
    const type = page.getByLabel('Tipo de documento');
    await expect(type.locator('option')).toHaveText(['RUT', 'DNI', 'Pasaporte']);
    await fillRefundForm(page, 'pasaporte@example.cl', { ...claim, rutCertificate: claim.passportCertificate });
    await type.selectOption({ label: 'Pasaporte' });
    await page.getByLabel('Número de documento').fill('AB 12');
    await page
      .getByLabel('Adjunta tus documentos')
      .setInputFiles({ name: 'boleta.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByText('Pasaporte inválido')).toBeVisible();
    await expect(page.getByLabel('Tipo de documento')).toHaveValue('3');
    await page.getByLabel('Número de documento').fill('PA1234567');
    await page
      .getByLabel('Adjunta tus documentos')
      .setInputFiles({ name: 'boleta.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    const number = await page
      .locator('strong')
      .filter({ hasText: /^R-[0-9A-Z]{8}$/ })
      .textContent();
    await expect
      .poll(async () => {
        await storefront.app.runJobs();
        return storefront.smtp.received.find((m) => m.parsed.subject === `Nueva solicitud de reembolso ${number}`)
          ?.parsed.text;
      })
      .toContain('Documento: Pasaporte PA1234567');
  });
});
