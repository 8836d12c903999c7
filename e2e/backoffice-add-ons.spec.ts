import type { Page } from '@playwright/test';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo, typeInto } from './support/keyboard.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * «Adicionales» (issue 27 §1): a pricing operator edits an add-on with the keyboard alone, on a phone and on a desktop:
 * its price per day and who may buy it; the list then says the new price in words. Axe at both widths.
 */

const addOn = 'Deportes y aventura';

/** Opens the add-on's editor from the list, changes its price and the 75–84 age band, and saves: keyboard only. */
async function editByKeyboard(page: Page, price: string) {
  await tabTo(page, page.getByRole('link', { name: `Editar ${addOn}` }));
  await page.keyboard.press('Enter');
  const form = page.getByRole('form', { name: `Editar «${addOn}»` });
  await expect(form).toBeVisible();
  await waitForHydration(page);
  await typeInto(page, form.getByLabel('USD por viajero por día (si es por día)'), price);
  await tabTo(page, form.getByRole('checkbox', { name: 'Pasajero de 75 a 84 años' }));
  await page.keyboard.press('Space');
  await tabTo(page, form.getByRole('button', { name: 'Guardar cambios' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Adicional «${addOn}» guardado.` })).toBeVisible();
  return form;
}

test('a pricing operator edits an add-on by keyboard at 390 and 1280 px; the list says the new price in words', async ({
  page,
  storefront,
}) => {
  test.setTimeout(120_000); // an enrolment, two saves, three pairs of axe runs
  const email = `adicionales-${Date.now() % 1_000_000}@travesia.cl`;
  await enrolByKeyboard(page, await invitation(storefront, email, ['pricing']), 'Rosa');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Adicionales' }).first().click();
  await expect(page.getByRole('heading', { name: 'Adicionales', level: 1 })).toBeVisible();
  await waitForHydration(page);
  const row = page.getByRole('row').filter({ hasText: addOn });
  await expect(row).toContainText('USD 2,50 por viajero por día');
  await expect(row).toContainText('Edad: Pasajero de 0 a 74 años');
  await expectAccessible(page, 'the add-ons with the create form');

  // On a phone: 3,10 a day, and travellers of 75 to 84 too.
  await page.setViewportSize({ width: 390, height: 844 });
  const form = await editByKeyboard(page, '3,10');
  await expect(row).toContainText('USD 3,10 por viajero por día');
  await expect(row).toContainText('Edad: Pasajero de 0 a 74 años, Pasajero de 75 a 84 años');
  // The form shows the saved version, ready for the next change.
  await expect(form.getByLabel('USD por viajero por día (si es por día)')).toHaveValue('3,10');
  await expectAccessible(page, 'an add-on just saved, its editor open');

  // On a desktop: back to 2,50 for travellers up to 74 (the demo's own), from the list again.
  await page.getByRole('link', { name: 'Cancelar' }).click();
  await expect(form).toBeHidden();
  await editByKeyboard(page, '2,50');
  await expect(row).toContainText('USD 2,50 por viajero por día');
  await expect(row).not.toContainText('75 a 84');
  await expectAccessible(page, 'an add-on saved again');
});
