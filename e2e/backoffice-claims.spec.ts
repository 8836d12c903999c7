import type { Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, type Storefront, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { coveredClaim, fillRefundForm } from './support/refunds.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * The console's claims screen end to end (issue 24, «Reembolsos»): a traveller's claim made through the store's real
 * form with a receipt image and a PDF, then a `support` operator (enrolled by keyboard) finds it in the inbox, opens
 * it, sees the image in the viewer and the PDF in a sandboxed frame, and changes its status with a message the
 * holder receives by e-mail, all by keyboard; axe clean at 390 and 1280 px on each page.
 */

// A real 8×8 PNG: the viewer must show it as an image.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGPgTyvFihiGlgQAwpI6gWiCeKcAAAAASUVORK5CYII=',
  'base64',
);

/** A one-page PDF the viewer can show. */
async function receiptPdf(): Promise<Buffer> {
  const document = await PDFDocument.create();
  const page = document.addPage([400, 250]);
  page.drawText('Boleta de la clínica: $185.000', {
    x: 30,
    y: 120,
    size: 18,
    font: await document.embedFont(StandardFonts.Helvetica),
  });
  return Buffer.from(await document.save());
}

/** A claim through the store's own form (/reembolsos), with a receipt image and a PDF: answers its number. */
async function claimThroughTheStore(page: Page, storefront: Storefront, email: string): Promise<string> {
  const claim = await coveredClaim(page.request);
  await openHydrated(page, '/reembolsos');
  await fillRefundForm(page, email, claim);
  await page.getByLabel('Adjunta tus documentos').setInputFiles([
    { name: 'receta.png', mimeType: 'image/png', buffer: png },
    { name: 'boleta.pdf', mimeType: 'application/pdf', buffer: await receiptPdf() },
  ]);
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(page.getByRole('heading', { name: 'Recibimos tu solicitud' })).toBeVisible();
  const number = (await page.locator('strong').filter({ hasText: /^R-/ }).textContent()) ?? '';
  expect(number).toMatch(/^R-[0-9A-Z]{8}$/);
  await expect
    .poll(() => storefront.smtp.received.filter((m) => m.parsed.subject?.includes(number)).length)
    .toBeGreaterThanOrEqual(1);
  return number;
}

test.describe('console: claims', () => {
  test('a support operator opens a claim, views its documents and changes its status with a message, by keyboard', async ({
    page,
    browser,
    baseURL,
    storefront,
  }) => {
    test.setTimeout(120_000);
    const email = `ana.consola.${Date.now()}@example.cl`;
    const number = await claimThroughTheStore(page, storefront, email);

    const context = await browser.newContext({ baseURL });
    const desk = await context.newPage();
    const link = await invitation(storefront, `soporte.reembolsos.${Date.now()}@travesia.cl`, ['support']);
    await enrolByKeyboard(desk, link, 'Sara');
    await desk.getByRole('link', { name: 'Ir a la consola' }).click();
    await expect(desk.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();

    // «Hoy» links to the inbox filtered to the claims waiting for the insurer.
    await waitForHydration(desk);
    const figure = desk.getByRole('link', { name: /Reembolsos esperando a la aseguradora/ });
    await expect(figure).toHaveAttribute('href', '/backoffice/reembolsos?estado=esperando');
    await tabTo(desk, figure);
    await desk.keyboard.press('Enter');
    await expect(desk.getByRole('heading', { name: 'Reembolsos', level: 1 })).toBeVisible();
    await expect(desk.getByLabel('Estado')).toHaveValue('esperando');
    const row = desk.getByRole('link', { name: number });
    await expect(row).toBeVisible();
    await expectAccessible(desk, 'the claims inbox');

    // The claim, by keyboard from the inbox.
    await waitForHydration(desk);
    await tabTo(desk, row);
    await desk.keyboard.press('Enter');
    await expect(desk.getByRole('heading', { name: `Reembolso ${number}`, level: 1 })).toBeVisible();
    await expect(desk.getByText('Ana María Pérez').first()).toBeVisible();

    // The receipt image is shown in the viewer, loaded through its signed link.
    const image = desk.getByRole('img', { name: 'Documento receta.png' });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(8);
    const imageUrl = (await image.getAttribute('src')) ?? '';
    expect(imageUrl).toMatch(/^\/api\/backoffice\/claim-documents\/\d+\?expires=\d+&signature=[\w-]+$/);
    const served = await desk.request.get(imageUrl);
    expect(served.status()).toBe(200);
    expect(served.headers()['content-type']).toBe('image/png');
    expect(served.headers()['content-disposition']).toMatch(/^inline;/);
    expect(served.headers()['x-content-type-options']).toBe('nosniff');
    expect(served.headers()['content-security-policy']).toMatch(/^sandbox;/);
    // A changed signature opens nothing (its first character swapped for another one, whatever it was).
    const forged = imageUrl.replace(/signature=(.)/, (_, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);
    expect(forged).not.toBe(imageUrl);
    expect((await desk.request.get(forged)).status()).toBe(404);
    await expectAccessible(desk, 'a claim with its image');

    // «Asignarme», by keyboard.
    await waitForHydration(desk);
    await tabTo(desk, desk.getByRole('button', { name: 'Asignarme' }));
    await desk.keyboard.press('Enter');
    await expect(desk.getByText('Te asignaste este reembolso.')).toBeVisible();

    // The PDF, chosen by keyboard, in a frame whose document may run nothing (its answer's `sandbox` policy).
    await waitForHydration(desk);
    await tabTo(desk, desk.getByRole('link', { name: 'Ver boleta.pdf' }));
    await desk.keyboard.press('Enter');
    const frame = desk.locator('iframe[title="Documento boleta.pdf"]');
    await expect(frame).toBeVisible();
    const pdfAnswer = await desk.request.get((await frame.getAttribute('src')) ?? '');
    expect(pdfAnswer.headers()['content-type']).toBe('application/pdf');
    expect(pdfAnswer.headers()['content-security-policy']).toMatch(/^sandbox; default-src 'none';/);
    expect(pdfAnswer.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
    expect((await pdfAnswer.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Past the PDF viewer's controls by its skip link, to the actions.
    await tabTo(desk, desk.getByRole('link', { name: 'Saltar el documento e ir a las acciones' }));
    await desk.keyboard.press('Enter');

    // Then the status changed with a message, by keyboard: the select is the first stop after the skip link.
    const status = desk.getByLabel('Nuevo estado');
    await tabTo(desk, status, { max: 3 });
    await expect(status).toHaveValue('en_revision');
    await tabTo(desk, desk.locator('#campo-estado-mensaje'));
    await desk.keyboard.type('Estamos revisando tu boleta con la clínica.');
    await tabTo(desk, desk.getByRole('button', { name: 'Cambiar estado y avisar' }));
    await desk.keyboard.press('Enter');
    await expect(desk.getByText('Estado cambiado a «En revisión». Le enviamos un correo al titular.')).toBeVisible();
    await expect(desk.getByRole('cell', { name: 'Estamos revisando tu boleta con la clínica.' })).toBeVisible();
    await expectAccessible(desk, 'a claim after its status changed');

    // The holder receives the status and the operator's words.
    await expect
      .poll(
        () =>
          storefront.smtp.received.find(
            (m) => m.to.includes(email) && m.parsed.subject?.includes(`${number}: En revisión`),
          )?.parsed.text ?? '',
      )
      .toContain('Estamos revisando tu boleta con la clínica.');
    await context.close();
  });
});
