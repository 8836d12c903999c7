import { payAsTheBuyer } from './support/checkout.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * The console's «Ventas» (issue 24, screen 2) in the browser: a buyer pays, a support operator finds the sale by its
 * number from the keyboard, reads its page, resends the certificates, corrects a traveller's surname and withdraws on the buyer's behalf (a phone
 * request), each answered in words; the list and the sale's page are axe clean at 390 and 1280 px.
 */
test.describe('console «Ventas»', () => {
  test('find a sale by keyboard, read it, resend, correct a traveller and withdraw for the buyer', async ({
    page,
    browser,
    request,
    storefront,
  }) => {
    test.setTimeout(90_000);
    const buyer = await browser.newPage();
    const success = await payAsTheBuyer(buyer, request);
    await buyer.close();
    const saleId = new URL(success, 'http://x').searchParams.get('venta') ?? '';
    expect(saleId).toMatch(/^\d+$/);

    const link = await invitation(storefront, `ventas.${Date.now()}@travesia.cl`, ['support']);
    await enrolByKeyboard(page, link, 'Sofía Soporte');
    await page.goto('/backoffice/ventas');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Ventas', level: 1 })).toBeVisible();
    await expectAccessible(page, 'the sale list');

    // The number as the buyer reads it on the phone, typed and sent with Enter.
    await tabTo(page, page.getByRole('searchbox', { name: 'Buscar' }));
    await page.keyboard.type(saleId);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]q=${saleId}`));
    const row = page.getByRole('link', { name: saleId, exact: true });
    await expect(row).toHaveCount(1);
    await tabTo(page, row);
    await page.keyboard.press('Enter');

    await expect(page.getByRole('heading', { name: `Venta ${saleId}`, level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Viajeros' })).toBeVisible();
    await expect(page.getByRole('cell', { name: /^TRV-\d{4}-0*\d+-1$/ })).toBeVisible();
    await waitForHydration(page);
    await expectAccessible(page, "a sale's page");

    await tabTo(page, page.getByRole('button', { name: 'Reenviar certificados' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: /reenviados|hace menos de 10 minutos/ })).toBeVisible();

    // A typo in a traveller's surname: corrected from the keyboard, the certificates issued again (…-R2).
    const correct = page.locator('summary').filter({ hasText: 'Corregir' }).first();
    await tabTo(page, correct);
    await page.keyboard.press('Enter');
    await expectAccessible(page, 'the correction form');
    const surname = page.getByLabel('Apellidos').first();
    await tabTo(page, surname);
    await page.keyboard.press('End');
    await page.keyboard.type(' Vidal');
    await tabTo(page, page.getByLabel('Motivo (queda en la auditoría)').first());
    await page.keyboard.type('Segundo apellido faltante');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: /corregido/ })).toBeVisible();
    await expect(page.getByRole('cell', { name: /^TRV-\d{4}-0*\d+-1-R2$/ })).toBeVisible();
    await expect(page.getByRole('cell', { name: / Vidal$/ }).first()).toBeVisible();

    // The withdrawal needs its confirmation first; then the refund is on its way and the certificates are void.
    await tabTo(page, page.getByRole('checkbox', { name: /pidió retractarse/ }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: 'Retractar por el comprador' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Retracto registrado' })).toBeVisible();
    await expect(page.getByText(/anulado por retracto/).first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Retractar por el comprador' })).toHaveCount(0);
    await expectAccessible(page, 'a withdrawn sale');
  });
});
