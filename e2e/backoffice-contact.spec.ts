import type { Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { contactRequests, subscriptions } from '../apps/api/src/db/schema.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, type Storefront, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { openHydrated, waitForHydration } from './support/shell.ts';

/**
 * Screens 5 and 6 of the console (issue 24) end to end: two visitors write through the store's contact form; a
 * support operator answers one by keyboard (the reply is e-mailed to the visitor) and marks the other handled, then
 * unsubscribes a newsletter subscriber. Every screen is axe clean at 390 and 1280 px.
 */

/** A visitor's request through the store's contact form (reCAPTCHA's fake widget), answering its stored id. */
async function contactRequestFromStore(page: Page, storefront: Storefront, email: string): Promise<number> {
  await openHydrated(page, '/contacto');
  const form = page.getByRole('form', { name: 'Completa tu solicitud' });
  await form.getByLabel('Nombre y apellido', { exact: true }).fill('Camila Rojas Soto');
  await form.getByLabel('Email', { exact: true }).fill(email);
  await form.getByLabel('Teléfono', { exact: true }).fill('+56 9 1234 5678');
  await form.getByLabel('Asunto', { exact: true }).selectOption({ label: 'Certificados' });
  await form.getByLabel('Detalle de tu solicitud', { exact: true }).fill('Necesito el certificado en inglés.');
  await form.getByRole('checkbox', { name: 'No soy un robot' }).check();
  await page.getByRole('button', { name: 'Enviar solicitud' }).click();
  await page.waitForURL('/confirmacion');
  const [row] = await storefront.database.db
    .select({ id: contactRequests.id })
    .from(contactRequests)
    .where(eq(contactRequests.email, email));
  expect(row).toBeDefined();
  return row?.id as number;
}

test.describe('console: «Contacto» and «Newsletter»', () => {
  test('a support operator answers a request by keyboard, marks another handled, and unsubscribes an address', async ({
    page,
    browser,
    baseURL,
    storefront,
  }) => {
    test.setTimeout(120_000);
    const stamp = Date.now();
    const answeredEmail = `responder.${stamp}@example.cl`;
    const handledEmail = `atendida.${stamp}@example.cl`;
    const answeredId = await contactRequestFromStore(page, storefront, answeredEmail);
    const handledId = await contactRequestFromStore(page, storefront, handledEmail);
    const subscriberEmail = `baja.${stamp}@example.cl`;
    await storefront.database.db
      .insert(subscriptions)
      .values({ companyId: 1, email: subscriberEmail, confirmedAt: new Date() });

    const operatorContext = await browser.newContext({ baseURL });
    const operator = await operatorContext.newPage();
    const link = await invitation(storefront, `soporte.contacto.${stamp}@travesia.cl`, ['support']);
    await enrolByKeyboard(operator, link, 'Sara Soporte');
    await operator.getByRole('link', { name: 'Ir a la consola' }).click();
    await expect(operator.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();

    // The inbox, filtered to the unanswered ones, from the menu.
    const menu = operator.getByRole('navigation', { name: 'Secciones de la consola' });
    await menu.getByRole('link', { name: 'Contacto' }).click();
    await expect(operator.getByRole('heading', { name: 'Contacto', level: 1 })).toBeVisible();
    await waitForHydration(operator);
    await operator.getByLabel('Estado').selectOption({ label: 'Sin responder' });
    await operator.getByRole('button', { name: 'Filtrar' }).click();
    await expect(operator).toHaveURL(/estado=sin-responder/);
    await expectAccessible(operator, 'the inbox');

    // The reply, by keyboard.
    const requestLink = operator.getByRole('link', { name: `Ver solicitud N° ${answeredId}` });
    await tabTo(operator, requestLink);
    await operator.keyboard.press('Enter');
    await expect(operator.getByRole('heading', { name: `Solicitud N° ${answeredId}`, level: 1 })).toBeVisible();
    await waitForHydration(operator);
    await expectAccessible(operator, 'an unanswered request');
    await tabTo(operator, operator.getByLabel('Respuesta para Camila Rojas Soto'));
    await operator.keyboard.type('Hola Camila: te adjuntamos el certificado en inglés en un momento.');
    await tabTo(operator, operator.getByRole('button', { name: 'Enviar respuesta' }));
    await operator.keyboard.press('Enter');
    await expect(operator.getByRole('main').getByRole('status')).toContainText('Respuesta enviada');
    await expect(
      operator.getByText(/Respondida por Sara Soporte \(soporte\.contacto\.\d+@travesia\.cl\)/),
    ).toBeVisible();
    await expectAccessible(operator, 'an answered request');
    await expect
      .poll(
        () =>
          storefront.smtp.received.filter(
            (mail) => mail.to.includes(answeredEmail) && mail.parsed.subject?.startsWith('Re: Solicitud de contacto'),
          ).length,
        { timeout: 15_000 },
      )
      .toBe(1);

    // The other one: «Marcar como atendida», by keyboard.
    await operator.goto(`/backoffice/contacto/${handledId}`);
    await waitForHydration(operator);
    await tabTo(operator, operator.getByRole('button', { name: 'Marcar como atendida' }));
    await operator.keyboard.press('Enter');
    await expect(operator.getByRole('main').getByRole('status')).toContainText('Solicitud marcada como atendida.');
    await expect(operator.getByText(/Marcada como atendida por Sara Soporte/)).toBeVisible();
    const states = await storefront.database.db
      .select({ id: contactRequests.id, state: contactRequests.state })
      .from(contactRequests)
      .where(eq(contactRequests.companyId, 1));
    expect(states.find((row) => row.id === answeredId)?.state).toBe('answered');
    expect(states.find((row) => row.id === handledId)?.state).toBe('handled');

    // Newsletter: find the address, unsubscribe it by keyboard.
    await operator.goto(`/backoffice/newsletter?correo=${encodeURIComponent(subscriberEmail)}`);
    await expect(operator.getByRole('heading', { name: 'Newsletter', level: 1 })).toBeVisible();
    await waitForHydration(operator);
    await expect(operator.getByRole('cell', { name: subscriberEmail, exact: true })).toBeVisible();
    // Support reads and unsubscribes; the export is for admin and content.
    await expect(operator.getByRole('link', { name: /Descargar CSV/ })).toHaveCount(0);
    await expectAccessible(operator, 'the newsletter');
    await tabTo(operator, operator.getByRole('button', { name: `Dar de baja a ${subscriberEmail}` }));
    await operator.keyboard.press('Enter');
    await expect(operator.getByRole('main').getByRole('status')).toContainText(`${subscriberEmail} quedó dada de baja`);
    await expect(operator.getByText('No hay suscripciones con estos filtros.')).toBeVisible();
    await expectAccessible(operator, 'the newsletter after an unsubscribe');
    const left = await storefront.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.email, subscriberEmail));
    expect(left).toHaveLength(0);
    await operatorContext.close();
  });
});
