import type { Page } from '@playwright/test';
import { ruleMessages } from '@travesia/domain/rules';
import { eq } from 'drizzle-orm';
import { contactRequests } from '../apps/api/src/db/schema.ts';
import { expectNoViolations } from './support/axe.ts';
import { expect, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

const form = (page: Page) => page.getByRole('form', { name: 'Completa tu solicitud' });
const field = (page: Page, label: string) => form(page).getByLabel(label, { exact: true });

async function fillValid(page: Page, email: string) {
  await field(page, 'Nombre y apellido').fill('Camila Rojas Soto');
  await field(page, 'Email').fill(email);
  await field(page, 'Teléfono').fill('+56 9 1234 5678');
  await field(page, 'Asunto').selectOption({ label: 'Certificados' });
  await field(page, 'Detalle de tu solicitud').fill('Necesito el certificado en inglés para el consulado.');
}

test.describe('Contáctanos', () => {
  test('two large cards (emergency with WhatsApp links and its label), small cards, the form card and the banner', async ({
    page,
  }) => {
    await openHydrated(page, '/contactanos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contáctanos');

    const large = page.getByTestId('contact-large');
    await expect(large).toHaveCount(2);
    const emergency = large.nth(0);
    await expect(emergency.getByRole('heading', { level: 2 })).toHaveText('Asistencia en viaje 24/7');
    await expect(emergency.getByText('Emergencias 24/7')).toBeVisible();
    await expect(emergency.getByRole('link', { name: 'WhatsApp +56 9 4000 2000' })).toHaveAttribute(
      'href',
      'https://wa.me/56940002000',
    );
    await expect(emergency.getByRole('link', { name: 'WhatsApp +56 9 4000 2001' })).toHaveAttribute(
      'href',
      'https://wa.me/56940002001',
    );
    // Phone links cleaned of spaces and parentheses (spec §9).
    await expect(emergency.getByRole('link', { name: '+56 (2) 2640 2020' })).toHaveAttribute(
      'href',
      'tel:+56226402020',
    );
    await expect(emergency.getByRole('link', { name: '+1 (786) 347 2210' })).toHaveAttribute(
      'href',
      'tel:+17863472210',
    );

    const sales = large.nth(1);
    await expect(sales.getByRole('heading', { level: 2 })).toHaveText('Ventas');
    await expect(sales.getByRole('link', { name: '+56 (2) 2640 2100' })).toHaveAttribute('href', 'tel:+56226402100');
    await expect(sales.getByRole('link', { name: 'WhatsApp +56 9 4000 3000' })).toHaveAttribute(
      'href',
      'https://wa.me/56940003000',
    );
    await expect(sales.getByRole('link', { name: 'ventas@travesia.cl' })).toHaveAttribute(
      'href',
      'mailto:ventas@travesia.cl',
    );
    await expect(sales.getByRole('link', { name: 'Cotizar ahora' })).toHaveAttribute('href', '/cotizador');

    const small = page.getByTestId('contact-small');
    await expect(small.getByRole('heading', { level: 3 })).toHaveText([
      'Reembolsos',
      'Certificados',
      'Servicio al cliente',
      'Empresas y alianzas',
    ]);
    await expect(small.nth(3).getByRole('link', { name: 'alianzas@travesia.cl' })).toBeVisible();
    await expect(small.nth(2).getByRole('link', { name: '+56 (2) 2640 2000' })).toHaveAttribute(
      'href',
      'tel:+56226402000',
    );

    const formCard = page.getByTestId('contact-form-card');
    await expect(formCard.getByRole('heading')).toHaveText('Escríbenos');
    await formCard.getByRole('link', { name: 'Ir al formulario' }).click();
    await expect(page).toHaveURL('/contacto');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completa tu solicitud');
    await page.goBack();

    const banner = page.getByTestId('contact-banner');
    await expect(banner.getByRole('link', { name: 'asistencia@travesia.cl' })).toHaveAttribute(
      'href',
      'mailto:asistencia@travesia.cl',
    );
    await expect(banner.getByRole('link', { name: '+56 (2) 2640 2300' })).toHaveAttribute('href', 'tel:+56226402300');
    await expectNoViolations(page, '/contactanos');
  });
});

test.describe('Contacto', () => {
  test('errors show after a field is touched, and all of them after a submit attempt', async ({ page }) => {
    await openHydrated(page, '/contacto');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Completa tu solicitud');
    await expect(form(page).getByRole('checkbox', { name: 'No soy un robot' })).toBeVisible();
    // The site key came from the API (Google's test key by default), not from the bundle.
    await expect(form(page).getByRole('checkbox', { name: 'No soy un robot' })).toHaveAttribute(
      'data-sitekey',
      '6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI',
    );
    await expect(form(page).getByRole('alert')).toHaveCount(0);

    await field(page, 'Nombre y apellido').focus();
    await field(page, 'Email').focus();
    await expect(form(page).getByText('Debe ingresar su Nombre y Apellido')).toBeVisible();
    await expect(form(page).getByText('Debe ingresar un email')).toHaveCount(0);

    await field(page, 'Email').fill('camila@');
    await field(page, 'Teléfono').focus();
    await expect(form(page).getByText('Email inválido')).toBeVisible();
    await field(page, 'Email').fill(`${'a'.repeat(40)}@example.cl`);
    await expect(form(page).getByText(ruleMessages.emailTooLong)).toBeVisible();
    await field(page, 'Email').fill('');
    await expect(form(page).getByText('Debe ingresar un email')).toBeVisible();

    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    for (const message of [
      'Debe ingresar su Nombre y Apellido',
      'Debe ingresar un email',
      'Debe ingresar un teléfono',
      'Seleccione un asunto',
      'Debe ingresar una descripción',
      ruleMessages.reCaptchaRequired,
    ]) {
      await expect(form(page).getByText(message, { exact: true })).toBeVisible();
    }
    await expect(field(page, 'Nombre y apellido')).toHaveAttribute('aria-invalid', 'true');
    await expectNoViolations(page, '/contacto with every error');

    // The lengths of spec §9: name 100, phone 20, detail 1000.
    await field(page, 'Nombre y apellido').fill('n'.repeat(101));
    await expect(form(page).getByText('Puede tener hasta 100 caracteres')).toBeVisible();
    await field(page, 'Teléfono').fill('1'.repeat(21));
    await expect(form(page).getByText('Puede tener hasta 20 caracteres')).toBeVisible();
    await field(page, 'Detalle de tu solicitud').fill('d'.repeat(1001));
    await expect(form(page).getByText('Puede tener hasta 1000 caracteres')).toBeVisible();
    await expect(page).toHaveURL('/contacto');
  });

  test('a complete form: «Enviando solicitud...», then /confirmacion; stored, verified with siteverify and e-mailed', async ({
    page,
    storefront,
  }) => {
    test.slow(); // two axe runs and an e-mail
    const email = `contacto.${Date.now()}@example.cl`;
    await openHydrated(page, '/contacto');
    await fillValid(page, email);
    await form(page).getByRole('checkbox', { name: 'No soy un robot' }).check();
    await expect(form(page).getByRole('alert')).toHaveCount(0);

    // Hold the form's post a moment so the sending state can be seen.
    await page.route('**/contacto.data*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    const asked = storefront.siteverify.requests.length;
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(page.getByRole('button', { name: 'Enviando solicitud...' })).toBeDisabled();
    await page.waitForURL('/confirmacion');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hemos recibido tu solicitud');
    await expect(page.getByRole('main').getByRole('link', { name: '+56 (2) 2640 2020', exact: true })).toHaveAttribute(
      'href',
      'tel:+56226402020',
    );

    expect(storefront.siteverify.requests.slice(asked)).toHaveLength(1);
    expect(storefront.siteverify.requests[asked]?.response).toMatch(/^pass-/);
    const rows = await storefront.database.db.select().from(contactRequests).where(eq(contactRequests.email, email));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ fullName: 'Camila Rojas Soto', subjectLabel: 'Certificados' });
    await expect
      .poll(() => storefront.smtp.received.filter((mail) => mail.parsed.replyTo?.value[0]?.address === email).length)
      .toBe(1);
    await expectNoViolations(page, '/confirmacion');
  });

  test('a token Google refuses: the message in words, the box unticked, nothing stored', async ({
    page,
    storefront,
  }) => {
    const email = `robot.${Date.now()}@example.cl`;
    await openHydrated(page, '/contacto');
    await page.evaluate(() => {
      (window as Window & { fakeRecaptchaToken?: string }).fakeRecaptchaToken = 'robot-token';
    });
    await fillValid(page, email);
    const box = form(page).getByRole('checkbox', { name: 'No soy un robot' });
    await box.check();
    await page.getByRole('button', { name: 'Enviar solicitud' }).click();
    await expect(form(page).getByText(ruleMessages.reCaptchaFailed)).toBeVisible();
    await expect(box).not.toBeChecked();
    await expect(page).toHaveURL('/contacto');
    await expect(field(page, 'Nombre y apellido')).toHaveValue('Camila Rojas Soto');
    const rows = await storefront.database.db.select().from(contactRequests).where(eq(contactRequests.email, email));
    expect(rows).toHaveLength(0);
  });

  test('pages at 360 px: no horizontal scroll, no axe violation @phone', async ({ page }) => {
    test.slow(); // three pages, three axe runs
    await page.setViewportSize({ width: 360, height: 740 });
    for (const path of ['/contactanos', '/contacto', '/confirmacion']) {
      await openHydrated(page, path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      await expectNoViolations(page, `${path} at 360 px`);
      if (process.env.CONTACT_SCREENSHOTS) {
        await page.screenshot({ path: `${process.env.CONTACT_SCREENSHOTS}/${path.slice(1)}-360.png`, fullPage: true });
      }
    }
  });
});
