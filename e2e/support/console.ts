import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { inviteOperator, operatorDeps, type Role } from '../../apps/api/src/modules/operators/service.ts';
import { expectNoViolations, viewports } from './axe.ts';
import { expect, type Storefront } from './fixtures.ts';
import { tabTo } from './keyboard.ts';
import { waitForHydration } from './shell.ts';

/** The operator console's journeys (issue 24): enrolment by keyboard, the authenticator's codes, axe at both widths. */

export const operatorPassword = 'marmota azul cruza el puente de noche';

/** The code of the authenticator app for `secret`, `steps` periods (30 s) from now. */
export function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/**
 * The API accepts a code one period either side of its clock and never a period twice: codes typed in the last
 * seconds of a period could reach it in the next one. Waits for a fresh period then.
 */
export async function awayFromPeriodEnd(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Axe at both widths, the page left at 1280 px. */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  for (const viewport of viewports) {
    await page.setViewportSize(viewport);
    await expectNoViolations(page, `${state} at ${viewport.width} px`);
  }
}

/** An enrolment link as the `operators` CLI makes it (the same service function, on the store's database). */
export async function invitation(storefront: Storefront, email: string, roles: Role[]): Promise<string> {
  const deps = operatorDeps(storefront.database.db, storefront.app.config.backoffice.secretsKey);
  const { token } = await inviteOperator(deps, { label: 'cli:e2e', ip: null }, { email, roles });
  return `/backoffice/enrolar/${token}`;
}

/** Enrols on the link's page by keyboard; answers the TOTP secret the page showed. */
export async function enrolByKeyboard(page: Page, link: string, name: string): Promise<string> {
  await page.goto(link);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { name: 'Activar tu cuenta', level: 1 })).toBeVisible();
  const secret = (
    await page
      .getByText(/^Clave:/)
      .locator('code')
      .innerText()
  ).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await tabTo(page, page.getByLabel('Nombre', { exact: true }));
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(operatorPassword);
  await page.keyboard.press('Tab');
  // The previous period's code: the sign-in that follows types the current one, which the API takes as newer.
  await awayFromPeriodEnd();
  await page.keyboard.type(totpCode(secret, -1));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Tus 10 códigos de recuperación' })).toBeFocused();
  return secret;
}

/** A publishing screen left as found: «Volver a la versión anterior» on its newest publication (components/Publishing.tsx). */
export async function rollBackNewest(page: Page, consolePage: string, answered: string): Promise<void> {
  await page.goto(consolePage);
  await waitForHydration(page);
  await page
    .getByRole('region', { name: 'Historial' })
    .getByRole('button', { name: /Volver a la versión anterior/ })
    .first()
    .click();
  await expect(page.getByRole('status').filter({ hasText: answered })).toBeVisible();
}
