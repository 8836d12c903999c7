import { addDays, todayInChile } from '@travesia/domain/dates';
import { eq } from 'drizzle-orm';
import { invoiceDetails, quotations } from '../apps/api/src/db/schema.ts';
import { createQuotation, savePassengersAndInvoice } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

/**
 * The storefront decides what to show from the API's field error codes (decision 007), never from the Spanish text:
 * these journeys make the API answer a code and check the page that follows from it.
 */
test.describe('the storefront branches on field error codes', () => {
  test('a refused payment start (billing_missing) links to the billing step', async ({ page, request, storefront }) => {
    const id = await createQuotation(request);
    await savePassengersAndInvoice(request, id);
    await openHydrated(page, `/pago/411/${id}`);
    // The billing details disappear after the page was shown: the API refuses the start with billing_missing.
    await storefront.database.db.delete(invoiceDetails).where(eq(invoiceDetails.quotationId, id));
    await page.getByRole('radio', { name: 'Pago de prueba (sin cargo real)' }).check();
    await page.getByRole('checkbox', { name: /^Autorizo el tratamiento/ }).check();
    await page.getByRole('button', { name: /^Pagar / }).click();

    const alert = page.getByRole('alert').filter({ hasText: 'No pudimos iniciar el pago' });
    await expect(alert).toContainText('Completa los datos de facturación antes de pagar');
    await expect(alert.getByRole('link', { name: 'Completar facturación' })).toHaveAttribute(
      'href',
      `/facturacion/411/${id}`,
    );
  });

  test('a quotation whose departure has passed (departure_in_past) gets its own page, not an error', async ({
    page,
    request,
    storefront,
  }) => {
    const id = await createQuotation(request);
    const yesterday = addDays(todayInChile(), -1);
    await storefront.database.db.update(quotations).set({ departureDate: yesterday }).where(eq(quotations.id, id));

    await openHydrated(page, `/comparador/${id}`);
    await expect(page.getByRole('heading', { name: 'La fecha de salida de esta cotización ya pasó' })).toBeVisible();
    await openHydrated(page, `/compra/411/${id}`);
    await expect(page.getByRole('heading', { name: 'La fecha de salida de esta cotización ya pasó' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cotizar de nuevo' })).toHaveAttribute('href', `/?cotizacion=${id}`);
  });
});
