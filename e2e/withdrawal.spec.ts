import { eq, sql } from 'drizzle-orm';
import { saleRefunds, sales } from '../apps/api/src/db/schema.ts';
import { currentVerificationCode } from '../apps/api/src/modules/certificates/repository.ts';
import { createApiKey, operatorDeps } from '../apps/api/src/modules/operators/service.ts';
import { signedLinkToken } from '../apps/api/src/modules/purchases/service.ts';
import { runRefundsCli } from '../apps/api/src/refunds-cli.ts';
import { expectNoViolations } from './support/axe.ts';
import { paidThroughApi, payAsTheBuyer } from './support/checkout.ts';
import { expect, test } from './support/fixtures.ts';

/**
 * Withdrawal (derecho a retracto, issue #12): a buyer pays, opens «Mi compra» from the purchase e-mail's link,
 * withdraws after one confirmation, sees the refund, and the certificate's verification page says «anulado».
 */

test('a buyer withdraws from «Mi compra» and the verification page says the certificate is cancelled; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.setTimeout(120_000); // a payment, four axe runs
  const success = await payAsTheBuyer(page, request);
  const idVenta = Number(new URL(success, 'http://x').searchParams.get('venta'));
  expect(idVenta).toBeGreaterThan(0);

  // The purchase e-mail carries the signed link to «Mi compra» (and the certificate with its verification code).
  let mail = '';
  await expect
    .poll(() => {
      mail = storefront.smtp.received.find((m) => m.parsed.subject?.includes(`venta N° ${idVenta}`))?.parsed.text ?? '';
      return mail;
    })
    .not.toBe('');
  const link = /(https?:\/\/\S+\/mi-compra\?enlace=[\w.-]+)/.exec(mail)?.[1] ?? '';
  expect(link).not.toBe('');
  // The code printed (with its QR code) on the certificate PDF.
  const verification = await currentVerificationCode(storefront.database.db, idVenta);

  const opened = new URL(link);
  await page.goto(opened.pathname + opened.search);
  await expect(page.getByText(`Venta N° ${idVenta}`)).toBeVisible();
  const section = page.getByRole('region', { name: 'Derecho a retracto' });
  await expect(
    section.getByText(
      /Puedes retractarte de esta compra hasta el \d{2}-\d{2}-\d{4} a las 23:59, hora de Chile \(10\s+días corridos/,
    ),
  ).toBeVisible();
  await expectNoViolations(page, '«Mi compra» with «Retractarme» available');

  await section.getByRole('button', { name: 'Retractarme' }).click();
  const confirmation = section.getByRole('heading', { name: '¿Confirmas que quieres retractarte de esta compra?' });
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toBeFocused();
  await expectNoViolations(page, 'the withdrawal confirmation');

  await section.getByRole('button', { name: 'Sí, retractarme' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /Retracto en proceso|Compra anulada y reembolsada/ }),
  ).toBeVisible();
  // The refund runs at once in the background (and the sweeper retries it): reload until it is done.
  await expect
    .poll(
      async () => {
        await storefront.app.sweepPayments();
        await page.reload();
        return page.getByText('Compra anulada y reembolsada.').isVisible();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect(page.getByRole('definition').filter({ hasText: 'Anulada y reembolsada' })).toBeVisible();
  await expect(page.getByText('(anulado)').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Descargar certificado' })).toHaveCount(0);
  await expectNoViolations(page, '«Mi compra» withdrawn and refunded');

  await page.goto(`/verificar/${verification}`);
  await expect(page.getByText('Certificado ANULADO')).toBeVisible();
  await expectNoViolations(page, 'the verification page of a cancelled certificate');
});

test('after the 10 days the page says why and how to reach the company; axe', async ({ page, request, storefront }) => {
  test.slow(); // a payment first
  const { db } = storefront.database;
  const late = await paidThroughApi(request);
  await db.update(sales).set({ paidAt: sql`now() - interval '12 days'` }).where(eq(sales.id, late));
  await page.goto(`/mi-compra?enlace=${await signedLinkToken(db, storefront.app.config.purchases, late)}`);
  const section = page.getByRole('region', { name: 'Derecho a retracto' });
  await expect(section.getByText('El retracto ya no está disponible para esta compra.')).toBeVisible();
  await expect(section.getByText('El plazo de 10 días para retractarte de esta compra ya venció.')).toBeVisible();
  await expect(section.getByRole('link', { name: 'Escríbenos desde el formulario de contacto' })).toBeVisible();
  await expect(section.getByRole('button', { name: 'Retractarme' })).toHaveCount(0);
  await expectNoViolations(page, '«Mi compra» when the withdrawal is no longer available');
});

test('a refund the gateway refused, transferred by the company: «Reembolsado por transferencia»; axe', async ({
  page,
  request,
  storefront,
}) => {
  test.slow(); // a payment first
  const { db } = storefront.database;
  const sale = await paidThroughApi(request);
  // The test gateway refuses the refund (its ledger has nothing left to give back), as Webpay refuses a debit card's.
  await db.execute(
    sql`update sandbox_transactions set refunded_clp = amount_clp where token = (select external_id from payments where sale_id = ${sale} and status = 'authorized')`,
  );
  await page.goto(`/mi-compra?enlace=${await signedLinkToken(db, storefront.app.config.purchases, sale)}`);
  const section = page.getByRole('region', { name: 'Derecho a retracto' });
  await section.getByRole('button', { name: 'Retractarme' }).click();
  await section.getByRole('button', { name: 'Sí, retractarme' }).click();
  await expect(section.getByText('Retracto en proceso.')).toBeVisible();
  await storefront.app.sweepPayments();
  const refundOf = async () => (await db.select().from(saleRefunds).where(eq(saleRefunds.saleId, sale)))[0];
  await expect.poll(async () => (await refundOf())?.lastError ?? null).not.toBeNull();

  // The operator holds it (the gateway asked first: the test gateway's ledger back to nothing given, as a debit
  // card's payment Webpay refused), transfers the money, and records it (the CLI, a client of the console API with
  // a finance API key).
  await db.execute(
    sql`update sandbox_transactions set refunded_clp = 0 where token = (select external_id from payments where sale_id = ${sale} and status = 'authorized')`,
  );
  const refund = await refundOf();
  const deps = operatorDeps(db, storefront.app.config.backoffice.secretsKey);
  const { secret } = await createApiKey(
    deps,
    { label: 'e2e', ip: null },
    { name: 'tesoreria-e2e', roles: ['finance'], expiresAt: new Date(Date.now() + 86_400_000) },
  );
  const cli = { TRAVESIA_API_URL: storefront.baseURL, TRAVESIA_API_KEY: secret };
  expect(await runRefundsCli(['sale-refund-hold', String(refund?.id)], cli)).toBe(0);
  expect((await refundOf())?.heldAt).not.toBeNull();
  expect(await runRefundsCli(['sale-refund-transferred', String(refund?.id), '--reference', 'TRF-E2E-1'], cli)).toBe(0);
  await page.reload();
  await expect(section.getByText('Compra anulada. Reembolsado por transferencia.')).toBeVisible();
  await expect(
    section.getByText(/Te devolvimos \$[\d.]+ por transferencia bancaria el \d{2}-\d{2}-\d{4}/),
  ).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: 'Anulada y reembolsada' })).toBeVisible();
  await expectNoViolations(page, '«Mi compra» refunded by transfer');
});

test.describe('withdrawal without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('«Retractarme» and its confirmation are plain form posts', async ({ page, request, storefront }) => {
    test.slow(); // a payment first
    const sale = await paidThroughApi(request);
    const link = await signedLinkToken(storefront.database.db, storefront.app.config.purchases, sale);
    await page.goto(`/mi-compra?enlace=${link}`);
    const section = page.getByRole('region', { name: 'Derecho a retracto' });
    await section.getByRole('button', { name: 'Retractarme' }).click();
    await section.getByRole('button', { name: 'Sí, retractarme' }).click();
    await expect(page).toHaveURL(/\/mi-compra$/);
    await expect(
      page.getByRole('status').filter({ hasText: /Retracto en proceso|Compra anulada y reembolsada/ }),
    ).toBeVisible();
  });
});
