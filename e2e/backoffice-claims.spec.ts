import type { Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { inviteOperator, operatorDeps } from '../apps/api/src/modules/operators/service.ts';
import { expectNoViolations, viewports } from './support/axe.ts';
import { expect, type Storefront, test } from './support/fixtures.ts';
import { coveredClaim } from './support/refunds.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * The console's claims screen end to end (issue 24, «Reembolsos»): a traveller's claim made through the store's real
 * form with a receipt image and a PDF, then a `support` operator (enrolled by keyboard) finds it in the inbox, opens
 * it, sees the image in the viewer and the PDF in a sandboxed frame, and changes its status with a message the
 * holder receives by e-mail, all by keyboard; axe clean at 390 and 1280 px on each page.
 */

const password = 'marmota azul cruza el puente de noche';

// A real 8×8 PNG (the viewer must show it as an image) and a PDF's first bytes.
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

// Sign-in and enrolment helpers: as e2e/backoffice-journey.spec.ts has them.

function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

async function awayFromPeriodEnd(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

async function tabTo(page: Page, target: Locator): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function expectAccessible(page: Page, state: string): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await expectNoViolations(page, `${state} at ${viewport.width} px`);
  }
}

async function invitation(storefront: Storefront, email: string): Promise<string> {
  const deps = operatorDeps(storefront.database.db, storefront.app.config.backoffice.secretsKey);
  const { token } = await inviteOperator(deps, { label: 'cli:e2e', ip: null }, { email, roles: ['support'] });
  return `/backoffice/enrolar/${token}`;
}

async function enrolByKeyboard(page: Page, link: string, name: string): Promise<void> {
  await page.goto(link);
  await waitForHydration(page);
  const secret = (
    await page
      .getByText(/^Clave:/)
      .locator('code')
      .innerText()
  ).replace(/\s+/g, '');
  await tabTo(page, page.getByLabel('Nombre', { exact: true }));
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Tab');
  await awayFromPeriodEnd();
  await page.keyboard.type(totpCode(secret, -1));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Tus 10 códigos de recuperación' })).toBeFocused();
}

/** A claim through the store's own form (/reembolsos), with a receipt image and a PDF: answers its number. */
async function claimThroughTheStore(page: Page, storefront: Storefront, email: string): Promise<string> {
  const claim = await coveredClaim(page.request);
  await openHydrated(page, '/reembolsos');
  await page.getByLabel('Nombre y apellido').fill('Ana María Pérez');
  await page.getByLabel('Número de documento').fill('12.345.678-5');
  await page.getByLabel('Correo electrónico del titular').fill(email);
  await page.getByLabel('Teléfono del titular').fill('+56 9 1234 5678');
  await page.getByLabel('Número de certificado o de venta').fill(claim.rutCertificate);
  await page.getByLabel('Fecha del incidente').fill(claim.incident);
  await page.getByLabel('Cuéntanos qué pasó').fill('Consulta médica en Madrid por una gastroenteritis.');
  await page.getByLabel('Monto a reembolsar').fill('185.000');
  await page.getByLabel('Banco').selectOption({ label: 'BancoEstado' });
  await page.getByLabel('Tipo de cuenta').selectOption('vista');
  await page.getByLabel('Número de cuenta').fill('12345678');
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
    await enrolByKeyboard(desk, await invitation(storefront, `soporte.reembolsos.${Date.now()}@travesia.cl`), 'Sara');
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
    // A changed signature opens nothing.
    expect((await desk.request.get(imageUrl.replace(/signature=./, 'signature=0'))).status()).toBe(404);
    await expectAccessible(desk, 'a claim with its image');

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

    // «Asignarme», then the status changed with a message, all by keyboard.
    await waitForHydration(desk);
    await tabTo(desk, desk.getByRole('button', { name: 'Asignarme' }));
    await desk.keyboard.press('Enter');
    await expect(desk.getByText('Te asignaste este reembolso.')).toBeVisible();
    await waitForHydration(desk);
    const status = desk.getByLabel('Nuevo estado');
    await tabTo(desk, status);
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
