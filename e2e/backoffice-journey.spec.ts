import { eq } from 'drizzle-orm';
import { operatorSessions, operators } from '../apps/api/src/modules/operators/tables.ts';
import {
  awayFromPeriodEnd,
  enrolByKeyboard,
  expectAccessible,
  invitation,
  operatorPassword as password,
  totpCode,
} from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * The operator console end to end, as the API process serves it (pages under /backoffice, their API under
 * /api/backoffice): the first administrator's link made as `npm run operators -- invite` makes it, enrolment by
 * keyboard with the TOTP of the secret the page shows, the recovery codes, sign-out, sign-in with password and code,
 * «Hoy», an invitation, a `support` operator refused «Operadores», an idle session sent to «Ingresar», and a post
 * without the CSRF token refused. Every page is axe clean at 390 and 1280 px.
 */

test.describe('operator console journey', () => {
  test('enrol, sign out, sign in, «Hoy», invite; a support operator, an idle session and a missing CSRF token', async ({
    page,
    browser,
    baseURL,
    storefront,
  }) => {
    test.setTimeout(90_000);
    const adminLink = await invitation(storefront, 'admin@travesia.cl', ['admin']);

    // Enrolment: the page and its axe check before anything is typed, then the recovery codes once.
    await page.goto(adminLink);
    await expectAccessible(page, 'the enrolment page');
    const secret = await enrolByKeyboard(page, adminLink, 'Ana Administradora');
    const codes = page.getByRole('heading', { name: 'Tus 10 códigos de recuperación' }).locator('xpath=..');
    await expect(codes.getByText(/^[a-z2-9]{5}-[a-z2-9]{5}$/)).toHaveCount(10);
    await expectAccessible(page, 'the recovery codes');

    // Signed in by the enrolment: «Hoy», then out by keyboard.
    await page.getByRole('link', { name: 'Ir a la consola' }).click();
    await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
    await waitForHydration(page);
    await tabTo(page, page.getByRole('button', { name: 'Salir' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/backoffice\/ingresar/);

    // Sign-in: password, then the authenticator's code.
    await waitForHydration(page);
    await expectAccessible(page, 'the sign-in page');
    await tabTo(page, page.getByLabel('Correo', { exact: true }));
    await page.keyboard.type('admin@travesia.cl');
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await page.keyboard.press('Enter');
    const code = page.getByLabel('Código', { exact: true });
    await expect(code).toBeVisible();
    await expectAccessible(page, 'the second factor');
    await awayFromPeriodEnd();
    await code.focus();
    await page.keyboard.type(totpCode(secret));
    await page.keyboard.press('Enter');

    // «Hoy» shows its figures, each a link.
    await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
    // The worker's store is shared with the files it ran before (their sales count): a count and an amount in pesos.
    await expect(page.getByRole('link', { name: /Ventas de hoy\s*\d+/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Monto vendido hoy\s*\$[\d.]+/ })).toBeVisible();
    await expectAccessible(page, '«Hoy»');

    for (const [path, heading] of [
      ['/backoffice/sesiones', 'Mis sesiones'],
      ['/backoffice/claves-api', 'Claves API'],
      ['/backoffice/auditoria', 'Auditoría'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expectAccessible(page, heading);
    }
    // The trail holds the enrolment the page made (the worker's store holds other specs' operators too).
    await expect(
      page.getByRole('row').filter({ hasText: 'operator.enrol' }).filter({ hasText: 'admin@travesia.cl' }),
    ).not.toHaveCount(0);

    // An invitation from «Operadores» shows its one-time link.
    await page.goto('/backoffice/operadores');
    await waitForHydration(page);
    await tabTo(page, page.getByLabel('Correo', { exact: true }));
    await page.keyboard.type('soporte@travesia.cl');
    await tabTo(page, page.getByRole('group', { name: 'Roles', exact: true }).getByLabel('Atención'));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('button', { name: 'Crear invitación' }));
    await page.keyboard.press('Enter');
    const supportLink = page.getByLabel('Enlace de enrolamiento');
    await expect(supportLink).toHaveValue(new RegExp(`^${baseURL}/backoffice/enrolar/[\\w-]{20,}$`));
    await expectAccessible(page, 'an invitation');
    const supportPath = new URL(await supportLink.inputValue()).pathname;

    // A post without the CSRF token is refused, with the session's cookie and the console's Origin.
    const refused = await page.request.post('/api/backoffice/sign-out', { headers: { origin: baseURL ?? '' } });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ status: 403, detail: expect.stringContaining('token') });
    await page.goto('/backoffice');
    await expect(page.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();

    // The support operator: no «Operadores» in the menu, and its page is a 403.
    const support = await browser.newContext({ baseURL });
    const supportPage = await support.newPage();
    await enrolByKeyboard(supportPage, supportPath, 'Sergio Soporte');
    await supportPage.getByRole('link', { name: 'Ir a la consola' }).click();
    await expect(supportPage.getByRole('heading', { name: 'Hoy', level: 1 })).toBeVisible();
    const menu = supportPage.getByRole('navigation', { name: 'Secciones de la consola' });
    await expect(menu.getByRole('link', { name: 'Hoy' })).toBeAttached();
    await expect(menu.getByRole('link', { name: 'Operadores' })).toHaveCount(0);
    const forbidden = await supportPage.goto('/backoffice/operadores');
    expect(forbidden?.status()).toBe(403);
    await expect(supportPage.getByRole('heading', { name: 'Sin acceso a esta pantalla', level: 1 })).toBeVisible();
    await expectAccessible(supportPage, 'the 403 page');

    // Idle for 31 minutes (its last sight moved back in the database): the next page is «Ingresar».
    const [supportRow] = await storefront.database.db
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.email, 'soporte@travesia.cl'));
    await storefront.database.db
      .update(operatorSessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(operatorSessions.operatorId, supportRow?.id ?? ''));
    await supportPage.goto('/backoffice');
    await expect(supportPage).toHaveURL(/\/backoffice\/ingresar/);
    await expect(supportPage.getByRole('heading', { name: 'Ingresar', level: 1 })).toBeVisible();
    await support.close();
  });
});
