import { verificationCodeOf } from '../apps/api/src/modules/certificates/repository.ts';
import { expectNoViolations } from './support/axe.ts';
import { payAsTheBuyer } from './support/checkout.ts';
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
  const verification = await verificationCodeOf(storefront.database.db, idVenta);

  const opened = new URL(link);
  await page.goto(opened.pathname + opened.search);
  await expect(page.getByText(`Venta N° ${idVenta}`)).toBeVisible();
  const section = page.getByRole('region', { name: 'Derecho a retracto' });
  await expect(section.getByText(/Puedes retractarte de esta compra hasta el \d{2}-\d{2}-\d{4}/)).toBeVisible();
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
