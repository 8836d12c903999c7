import { and, eq, sql } from 'drizzle-orm';
import { saleRefunds } from '../apps/api/src/db/schema.ts';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { signedLinkToken } from '../apps/api/src/modules/purchases/service.ts';
import { paidThroughApi } from './support/checkout.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * Screen 3 of the console, «Reembolsos de ventas» (issue 24): a buyer withdraws, the gateway refuses the refund (as
 * Webpay refuses a debit card's), and a finance operator — enrolled by keyboard — finds it in the queue, holds it with
 * a reason and records the bank transfer's reference, all by keyboard; the page is axe clean at 390 and 1280 px.
 */

test('a finance operator holds a refused sale refund and records its transfer by keyboard; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(120_000); // a payment, an enrolment, six axe runs
  const { db } = storefront.database;
  const sale = await paidThroughApi(request);
  const ledger = (refunded: 'all' | 'none') =>
    db.execute(
      sql`update sandbox_transactions set refunded_clp = ${refunded === 'all' ? sql`amount_clp` : sql`0`} where token = (select external_id from payments where sale_id = ${sale} and status = 'authorized')`,
    );
  // The test gateway refuses the refund (its ledger has nothing left to give back).
  await ledger('all');
  const link = await signedLinkToken(db, storefront.app.config.purchases, sale);
  const access = await request.post('/api/purchases/access/link', { data: { link } });
  expect(access.status()).toBe(200);
  const { token } = (await access.json()) as { token: string };
  const withdrawn = await request.post('/api/purchases/mine/withdrawal', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(withdrawn.status()).toBe(200);
  await storefront.app.sweepPayments();
  const refundOf = async () => (await db.select().from(saleRefunds).where(eq(saleRefunds.saleId, sale)))[0];
  await expect.poll(async () => (await refundOf())?.lastError ?? null).not.toBeNull();
  // The gateway's ledger back to nothing given (what the hold asks first), and no retry of the sweeper meanwhile.
  await db
    .update(saleRefunds)
    .set({ nextAttemptAt: sql`now() + interval '1 day'` })
    .where(eq(saleRefunds.saleId, sale));
  await ledger('none');
  const refund = await refundOf();
  if (!refund) throw new Error('no sale refund requested');

  await enrolByKeyboard(page, await invitation(storefront, `finanzas-${sale}@travesia.cl`, ['finance']), 'Fernanda');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
  // «Hoy»'s figure of pending refunds opens the screen on them.
  await page.getByRole('link', { name: /Devoluciones pendientes/ }).click();
  await expect(page).toHaveURL(/\/backoffice\/reembolsos-de-ventas\?estado=pendiente$/);
  await expect(page.getByRole('heading', { name: 'Reembolsos de ventas', level: 1 })).toBeVisible();
  await waitForHydration(page);
  const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(sale), exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell', { name: /^\$\d{1,3}(\.\d{3})+$/ })).toBeVisible();
  await expect(row.getByText('Pendiente con error')).toBeVisible();
  await expectAccessible(page, 'the queue of pending sale refunds');

  // Hold, by keyboard: the reason, then Enter.
  await tabTo(page, page.getByLabel(`Motivo (reembolso ${refund.id})`));
  await page.keyboard.type('Tarjeta de débito: la pasarela no devuelve');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Reembolso ${refund.id}` })).toContainText('retenido');
  await expect.poll(async () => (await refundOf())?.heldAt ?? null).not.toBeNull();
  await expectAccessible(page, 'a sale refund held');

  // The held ones: the transfer's reference, then Enter.
  await page.goto('/backoffice/reembolsos-de-ventas?estado=retenida');
  await waitForHydration(page);
  const reference = `TRF-E2E-${sale}`;
  await tabTo(page, page.getByLabel(`Referencia de la transferencia (reembolso ${refund.id})`));
  await page.keyboard.type(reference);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Transferencia ${reference} registrada` })).toBeVisible();
  await expectAccessible(page, 'a transfer recorded');
  expect(await refundOf()).toMatchObject({
    status: 'refunded',
    method: 'manual',
    transferReference: reference,
    markedBy: `finanzas-${sale}@travesia.cl`,
  });
  const trail = await db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.targetType, 'sale_refund'), eq(auditEntries.targetId, String(refund.id))));
  expect(trail.map((entry) => entry.action).sort()).toStrictEqual(['sale_refund.hold', 'sale_refund.transfer']);

  // Among the transferred ones, with its reference; none left to act on.
  await page.goto('/backoffice/reembolsos-de-ventas?estado=transferida');
  const done = page.getByRole('row').filter({ has: page.getByRole('cell', { name: reference }) });
  await expect(done).toHaveCount(1);
  await expect(done.getByRole('button')).toHaveCount(0);
  await expectAccessible(page, 'the transferred sale refunds');
});
