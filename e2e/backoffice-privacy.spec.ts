import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { contactRequests, subscriptions } from '../apps/api/src/db/schema.ts';
import { auditEntries } from '../apps/api/src/modules/audit/tables.ts';
import { enrolByKeyboard, expectAccessible, invitation } from './support/console.ts';
import { expect, test } from './support/fixtures.ts';
import { tabTo } from './support/keyboard.ts';
import { waitForHydration } from './support/shell.ts';

/**
 * Screen 7 of the console, «Datos personales» (issue 24): a person wrote through the contact form and subscribed to
 * the newsletter; a support operator — enrolled by keyboard — finds them by e-mail and downloads their data as JSON,
 * by keyboard; the page is axe clean at 390 and 1280 px.
 */

test('a support operator finds a person and exports their data by keyboard; axe', async ({ page, storefront }) => {
  test.setTimeout(120_000);
  const { db } = storefront.database;
  const tag = randomInt(1_000_000, 9_999_999);
  const email = `persona.${tag}@example.cl`;
  const companyId = storefront.app.config.companyId;
  await db.insert(contactRequests).values({
    companyId,
    subjectLabel: 'Ventas',
    fullName: `Valentina ${tag}`,
    email,
    phone: '+56922223333',
    detail: 'Quiero saber qué datos tienen de mí',
    recipient: 'contacto@travesia.cl',
  });
  await db.insert(subscriptions).values({ companyId, email });

  const operator = `soporte-datos-${tag}@travesia.cl`;
  await enrolByKeyboard(page, await invitation(storefront, operator, ['support']), 'Sofía');
  await page.getByRole('link', { name: 'Ir a la consola' }).click();
  await page.getByRole('link', { name: 'Datos personales' }).first().click();
  await expect(page.getByRole('heading', { name: 'Datos personales', level: 1 })).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page, 'the personal-data screen, empty');

  // Search by keyboard: the e-mail, then Enter.
  await tabTo(page, page.getByLabel('RUT/DNI/pasaporte o correo'));
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: `Lo que guardamos de ${email}` })).toBeVisible();
  await expect(page.getByText('Solicitudes de contacto').first()).toBeVisible();
  await expect(page.getByText(`${email} · sin confirmar`)).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page, 'a person found');

  // «Descargar JSON» by keyboard.
  await page.setViewportSize({ width: 1280, height: 900 });
  await tabTo(page, page.getByRole('link', { name: 'Descargar JSON' }));
  const downloading = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('datos-personales.json');
  const exported = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as {
    contactRequests: { fullName: string; email: string }[];
    subscriptions: { email: string }[];
  };
  expect(exported.contactRequests).toHaveLength(1);
  expect(exported.contactRequests[0]).toMatchObject({ fullName: `Valentina ${tag}`, email });
  expect(exported.subscriptions.map((row) => row.email)).toStrictEqual([email]);
  const trail = await db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.action, 'privacy.export'), eq(auditEntries.targetId, email)));
  expect(trail).toHaveLength(1);
  expect(trail[0]?.actorLabel).toBe(operator);
});
