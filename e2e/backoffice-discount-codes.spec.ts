import { addDays, todayInChile } from '../packages/domain/src/dates.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { fillQuoter, submitQuoter, tripDates } from './support/quote.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * «Códigos de descuento» (issue 25 item 3): a pricing operator creates a fixed-amount code limited to one plan; the
 * storefront's comparator applies it on that plan and says in words, on another plan's card, that it does not apply.
 */

test('a pricing operator creates a USD code for one plan; the comparator applies it there and refuses it in words elsewhere', async ({
  page,
  storefront,
}) => {
  test.setTimeout(120_000); // an enrolment, a quotation, four axe runs
  const code = `E2EFIJO${Date.now() % 1_000_000}`;
  await enrolByKeyboard(page, await invitation(storefront, `precios-${code}@travesia.cl`, ['pricing']), 'Pía');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Códigos de descuento' }).first().click();
  await expect(page.getByRole('heading', { name: 'Códigos de descuento', level: 1 })).toBeVisible();
  await waitForHydration(page);

  const form = page.getByRole('form', { name: 'Nuevo código' });
  await form.getByLabel('Código', { exact: true }).fill(code);
  await form.getByLabel('Monto fijo en USD').check();
  await form.getByLabel('Monto en USD (si es monto fijo)').fill('10');
  await form.getByLabel('Válido desde (hora de Chile)').fill(todayInChile());
  await form.getByLabel('Válido hasta, inclusive').fill(addDays(todayInChile(), 30));
  await form.getByLabel('Límite total de usos').fill('100');
  await form.getByLabel('Solo los marcados').check();
  await form.getByLabel('Travesía Esencial').check();
  await form.getByRole('button', { name: 'Crear código' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Código ${code} creado` })).toBeVisible();
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: code, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('USD 10,00');
  await expect(row).toContainText('Activo');
  await expect(row).toContainText('Travesía Esencial');
  await expectAccessible(page, 'the discount codes with a new one');

  // The storefront: 2 adults and 1 senior to Europe for 10 days, with the code.
  const { departure, back } = tripDates(10, 10);
  await fillQuoter(page, { destination: 'Europa', departure, back, adults: 2, seniors: 1, code: code.toLowerCase() });
  await submitQuoter(page);
  await expect(page.getByRole('status').filter({ hasText: 'código de descuento' })).toHaveText(
    'Código de descuento aplicado: USD 10,00 de descuento',
  );
  const esencial = page.getByRole('article', { name: 'Travesía Esencial' });
  const plus = page.getByRole('article', { name: 'Travesía Plus' });
  await expect(esencial).not.toContainText('no aplica a este plan');
  await expect(plus).toContainText('El código de descuento no aplica a este plan.');
  await expectAccessible(page, 'the comparator with a code for one plan');
});
