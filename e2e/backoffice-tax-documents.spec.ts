import { eq } from 'drizzle-orm';
import { taxDocuments } from '../apps/api/src/db/schema.ts';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { paidThroughApi } from './support/checkout.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * «Documentos tributarios sin emitir» (issue 26): a sale's boleta the provider refused (its refusal itself is the API
 * suites' business: tax-documents-issuing.test.ts) shows on «Hoy» with the provider's words; a finance operator
 * opens the list from there, retries it by keyboard, and the boleta is issued; axe clean at 390 and 1280 px.
 */

test('a finance operator retries a refused boleta from «Hoy» by keyboard; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(120_000); // a payment, an enrolment, four axe runs
  const { db } = storefront.database;
  const sale = await paidThroughApi(request);
  const documentOf = async () => (await db.select().from(taxDocuments).where(eq(taxDocuments.saleId, sale)))[0];
  await expect.poll(async () => (await documentOf())?.id ?? null).not.toBeNull();
  await storefront.app.runJobs();
  const refusal = `El proveedor rechazó el documento: Folios agotados para la venta ${sale}`;
  // As the issue job leaves a refused document (markTryFailed): not issued, its error in words.
  await db
    .update(taxDocuments)
    .set({ state: 'fallido', lastError: refusal, folio: null, issuedAt: null, pdfKey: null, xmlKey: null })
    .where(eq(taxDocuments.saleId, sale));
  const document = await documentOf();
  if (!document) throw new Error('no tax document queued');

  await enrolByKeyboard(page, await invitation(storefront, `tributario-${sale}@travesia.cl`, ['finance']), 'Tomás');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: /Documentos tributarios sin emitir/ }).click();
  await expect(page).toHaveURL(/\/backoffice\/documentos-tributarios$/);
  await expect(page.getByRole('heading', { name: 'Documentos tributarios sin emitir', level: 1 })).toBeVisible();
  await waitForHydration(page);
  const row = page.getByRole('row').filter({ hasText: refusal });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: `N° ${sale}` })).toHaveAttribute('href', `/backoffice/ventas/${sale}`);
  await expect(row.getByText('Rechazado')).toBeVisible();
  await expectAccessible(page, 'a refused boleta listed');

  await tabTo(page, row.getByRole('button', { name: `Reintentar el documento ${document.id}` }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Documento ${document.id}` })).toContainText(
    'enviado de nuevo al proveedor',
  );
  await expectAccessible(page, 'a boleta retried');
  await storefront.app.runJobs();
  await expect.poll(async () => (await documentOf())?.state).toBe('emitido');
  const trail = await db
    .select()
    .from(auditEntries)
    .where(eq(auditEntries.targetId, String(document.id)));
  expect(trail.filter((entry) => entry.action === 'tax-document.retry')).toHaveLength(1);

  // Issued: no longer listed.
  await page.reload();
  await expect(page.getByRole('row').filter({ hasText: refusal })).toHaveCount(0);
});
