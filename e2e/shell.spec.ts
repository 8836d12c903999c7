import { expect, test } from './support/fixtures.ts';
import { expectSameDocument, homeHeading, mainNav, markDocument, openHydrated, seed } from './support/shell.ts';

/** The h1 of each page the footer and the nav link to (apps/web/app/routes/*.tsx). */
const headings: Record<string, string> = {
  '/home': homeHeading,
  '/quienes-somos': 'Quiénes somos',
  '/blog': 'Blog',
  '/informacion-legal': 'Información legal',
  '/faq': 'Preguntas frecuentes',
  '/certificados': 'Certificados',
  '/reembolsos': 'Solicitud de reembolso',
  '/contacto': 'Completa tu solicitud',
  '/contactanos': 'Contáctanos',
  '/mi-compra': 'Mi compra',
};

const helpButtonLabel = seed.navigation.items.find((item) => item.isButton)?.label ?? '';
const dropdown = seed.navigation.items.find((item) => item.isMenu);

test.describe('help modal', () => {
  test('the highlighted nav button opens one card per contact with tel: and wa.me links', async ({ page }) => {
    expect(helpButtonLabel).not.toBe('');
    await openHydrated(page, '/');
    const helpButton = mainNav(page).getByRole('button', { name: helpButtonLabel, exact: true });
    await helpButton.click();

    const dialog = page.getByRole('dialog', { name: '¿Necesitas ayuda o información?' });
    await expect(dialog).toBeVisible();
    const cards = dialog.getByRole('listitem');
    await expect(cards).toHaveCount(seed.contactInfos.length);

    for (const contact of seed.contactInfos) {
      const card = cards.filter({ hasText: contact.label });
      await expect(card).toHaveCount(1);
      // Spec: spaces and parentheses removed, nothing else ("+56 (2) 2640 2020" → "tel:+56226402020").
      const tel = `tel:${contact.phone.replace(/[ ()]/g, '')}`;
      await expect(card.getByRole('link', { name: contact.phone, exact: true })).toHaveAttribute('href', tel);
      const whatsappLinks = card.locator('a[href^="https://wa.me/"]');
      if (contact.whatsapp) {
        // The plus goes too: "+56 9 4000 2000" → "https://wa.me/56940002000".
        const waHref = `https://wa.me/${contact.whatsapp.replace(/[ ()+]/g, '')}`;
        expect(waHref).toMatch(/^https:\/\/wa\.me\/\d+$/);
        await expect(whatsappLinks).toHaveCount(1);
        await expect(whatsappLinks).toHaveAttribute('href', waHref);
        await expect(whatsappLinks).toHaveAttribute('target', '_blank');
      } else {
        await expect(whatsappLinks).toHaveCount(0);
      }
    }
  });

  test('Escape closes the help modal and gives focus back to the nav button', async ({ page }) => {
    await openHydrated(page, '/');
    const helpButton = mainNav(page).getByRole('button', { name: helpButtonLabel, exact: true });
    await helpButton.click();
    const dialog = page.getByRole('dialog', { name: '¿Necesitas ayuda o información?' });
    await expect(dialog).toBeVisible();
    // Focus moves into the dialog while it is open.
    await expect(dialog.getByRole('button', { name: 'Cerrar' })).toBeFocused();

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(helpButton).toBeFocused();
  });
});

test.describe('WhatsApp floating button', () => {
  test('shows the 125×125 image, drawn at 56 px, linking to wa.me with the configured number', async ({ page }) => {
    await page.goto('/');
    const { whatsappNumber, isWhatsappWidgetEnabled } = seed.website.configuration;
    expect(isWhatsappWidgetEnabled).toBe(true);
    const button = page.getByRole('link', { name: 'Escríbenos por WhatsApp' });
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute(
      'href',
      `https://wa.me/${whatsappNumber.replace(/^\+/, '').replace(/ /g, '')}`,
    );
    // The spec's 125×125 image, drawn at a size that leaves the page's controls free (e2e/layout.spec.ts).
    const image = button.locator('img');
    await expect(image).toBeVisible();
    await expect(image).toHaveAttribute('width', '125');
    await expect(image).toHaveAttribute('height', '125');
    const box = await image.boundingBox();
    expect(box).not.toBeNull();
    expect(Math.round(box?.width ?? 0)).toBe(56);
    expect(Math.round(box?.height ?? 0)).toBe(56);
  });
});

test.describe('footer', () => {
  const items = seed.footer.menus.flatMap((menu) => menu.items.map((item) => ({ ...item, menu: menu.label })));
  // Spec §2, computed here by hand: http/https or tel:+ with up to 14 digits are plain links, the rest routed.
  const isPlain = (href: string) => /^https?:\/\//i.test(href) || /^tel:\+\d{1,14}$/.test(href);
  const plain = items.filter((item) => isPlain(item.href));
  const routed = items.filter((item) => !isPlain(item.href));

  test('plain items (http/https, tel:+digits) keep their exact href', async ({ page }) => {
    expect(plain.some((item) => item.href.startsWith('tel:'))).toBe(true);
    expect(plain.some((item) => item.href.startsWith('https:'))).toBe(true);
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    for (const item of plain) {
      const link = footer
        .getByRole('navigation', { name: item.menu, exact: true })
        .getByRole('link', { name: item.label, exact: true });
      await expect(link).toHaveAttribute('href', item.href);
      await expect(link).toHaveAttribute('target', item.target);
    }
  });

  test('a plain https item opens its address in a new tab', async ({ page, context }) => {
    const external = plain.find((item) => item.href.startsWith('https:') && item.target === '_blank');
    expect(external).toBeDefined();
    if (!external) return;
    // The outside site is answered locally: no network leaves the test.
    await context.route(`${new URL(external.href).origin}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Sitio externo</title>' }),
    );
    await openHydrated(page, '/');
    const popup = page.waitForEvent('popup');
    await page
      .getByRole('contentinfo')
      .getByRole('navigation', { name: external.menu, exact: true })
      .getByRole('link', { name: external.label, exact: true })
      .click();
    const tab = await popup;
    await expect(tab).toHaveURL(new URL(external.href).href);
    await expect(page).toHaveURL('/');
  });

  test('routed items navigate client-side to their page', async ({ page }) => {
    expect(routed.length).toBeGreaterThan(0);
    await openHydrated(page, '/');
    await markDocument(page);
    for (const item of routed) {
      const heading = headings[item.href];
      expect(heading, `known heading for ${item.href}`).toBeDefined();
      await page
        .getByRole('contentinfo')
        .getByRole('navigation', { name: item.menu, exact: true })
        .getByRole('link', { name: item.label, exact: true })
        .click();
      await expect(page).toHaveURL(item.href);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading ?? '');
      await expectSameDocument(page);
    }
  });

  test('social icons link to https addresses with accessible names; © shows the current year', async ({ page }) => {
    await page.goto('/');
    const footer = page.getByRole('contentinfo');
    const social = footer.getByRole('list', { name: 'Redes sociales' }).getByRole('link');
    await expect(social).toHaveCount(seed.footer.socialMedia.length);
    for (const [index, entry] of seed.footer.socialMedia.entries()) {
      const link = social.nth(index);
      await expect(link).toHaveAttribute('href', entry.href);
      expect(entry.href).toMatch(/^https:\/\//);
      await expect(link).toHaveAccessibleName(/\S/);
      await expect(link.locator('img')).toBeVisible();
    }
    await expect(social.nth(0)).toHaveAccessibleName('Facebook');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} ${seed.footer.copyright}`);
  });
});

test.describe('navigation bar', () => {
  test('the logo links to /home', async ({ page }) => {
    await openHydrated(page, '/faq');
    const logo = mainNav(page).getByRole('link', { name: 'Travesía, ir al inicio', exact: true });
    await expect(logo).toHaveAttribute('href', '/home');
    await expect(logo.getByRole('img', { name: 'Travesía' })).toBeVisible();
    await logo.click();
    await expect(page).toHaveURL('/home');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(homeHeading);
  });

  test('the dropdown opens with Enter and Space and shows its sub-items with icons', async ({ page }) => {
    expect(dropdown).toBeDefined();
    if (!dropdown) return;
    await openHydrated(page, '/');
    const toggle = mainNav(page).getByRole('button', { name: dropdown.label, exact: true });
    const list = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(list).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(list).toBeVisible();

    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(list).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const links = list.getByRole('link');
    await expect(links).toHaveText(dropdown.items1.map((sub) => sub.label));
    for (const [index, sub] of dropdown.items1.entries()) {
      const icon = links.nth(index).locator('img');
      await expect(icon).toBeVisible();
      await expect(icon).toHaveAttribute('src', sub.icon);
    }
  });

  test('an external sub-item opens in a new tab at its absolute address; a routed one navigates', async ({ page }) => {
    const external = dropdown?.items1.find((sub) => /^https:\/\//.test(sub.href));
    const internal = dropdown?.items1.find((sub) => sub.href.startsWith('/') && !sub.href.includes('#'));
    expect(external).toBeDefined();
    expect(internal).toBeDefined();
    if (!dropdown || !external || !internal) return;

    await openHydrated(page, '/');
    await markDocument(page);
    const nav = mainNav(page);
    await nav.getByRole('button', { name: dropdown.label, exact: true }).click();
    const externalLink = nav.getByRole('link', { name: external.label, exact: true });
    await expect(externalLink).toHaveAttribute('href', external.href);
    await expect(externalLink).toHaveAttribute('target', '_blank');

    await nav.getByRole('link', { name: internal.label, exact: true }).click();
    await expect(page).toHaveURL(internal.href);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(headings[internal.href] ?? '');
    await expectSameDocument(page);
    // The dropdown closed behind the navigation.
    await expect(nav.getByRole('link', { name: internal.label, exact: true })).toBeHidden();
  });

  test('«Acceso Clientes» opens /login in a new tab', async ({ page }) => {
    await page.goto('/');
    const access = mainNav(page).getByRole('link', { name: 'Acceso Clientes', exact: true });
    await expect(access).toBeVisible();
    await expect(access).toHaveAttribute('href', '/login');
    await expect(access).toHaveAttribute('target', '_blank');
  });
});

test.describe('upgrade modal', () => {
  test('«Conoce el upgrade COVID-19» opens the covid table with its USD limits', async ({ page }) => {
    await openHydrated(page, '/');
    await page.getByRole('button', { name: 'Conoce el upgrade COVID-19' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade COVID-19' });
    await expect(dialog).toBeVisible();
    const table = dialog.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText(['Beneficio', 'Límite']);
    const limits = table.locator('tbody tr td:nth-child(2)');
    await expect(limits).toHaveText([
      /^USD 3\.000$/,
      /^Hasta USD 3\.000$/,
      /^USD 180 por día, hasta USD 3\.000$/,
      /^USD 2\.000$/,
      /^Hasta USD 1\.500$/,
      /^USD 180 por día, hasta USD 1\.000$/,
      /^USD 10\.000$/,
    ]);
    for (const figure of ['3.000', '180 por día', '2.000', '1.500', '1.000', '10.000']) {
      await expect(table.getByText(`USD ${figure}`).first()).toBeVisible();
    }
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await expect(dialog).toBeHidden();
  });
});

test.describe('loading bar', () => {
  test('shows a progressbar while a client navigation loads, and removes it after', async ({ page }) => {
    await openHydrated(page, '/');
    await markDocument(page);
    await expect(page.getByRole('progressbar')).toHaveCount(0);

    // Hold the page's route data and code until the bar has been seen.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: string[] = [];
    await page.route(
      (url) =>
        url.pathname.endsWith('.data') || url.pathname.startsWith('/__manifest') || url.pathname.startsWith('/assets/'),
      async (route) => {
        held.push(route.request().url());
        await released;
        await route.continue();
      },
    );

    await mainNav(page).getByRole('link', { name: 'Preguntas frecuentes', exact: true }).click();
    const bar = page.getByRole('progressbar', { name: 'Cargando' });
    await expect(bar).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(homeHeading);
    expect(held.length).toBeGreaterThan(0);

    release();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Preguntas frecuentes');
    await expect(page).toHaveURL('/faq');
    await expect(bar).toHaveCount(0);
    await expectSameDocument(page);
  });
});

test.describe('accessibility smoke', () => {
  test('nav and footer images have alt text; every link and button has an accessible name', async ({ page }) => {
    await openHydrated(page, '/');
    if (dropdown) await mainNav(page).getByRole('button', { name: dropdown.label, exact: true }).click();

    const images = page.locator('header img, footer img');
    expect(await images.count()).toBeGreaterThan(0);
    for (const image of await images.all()) await expect(image).toHaveAttribute('alt');

    const controls = [...(await page.getByRole('link').all()), ...(await page.getByRole('button').all())];
    expect(controls.length).toBeGreaterThan(20);
    for (const control of controls) await expect(control).toHaveAccessibleName(/\S/);

    await page.keyboard.press('Escape');
    await mainNav(page).getByRole('button', { name: helpButtonLabel, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    for (const image of await dialog.locator('img').all()) await expect(image).toHaveAttribute('alt');
    for (const control of [...(await dialog.getByRole('link').all()), ...(await dialog.getByRole('button').all())]) {
      await expect(control).toHaveAccessibleName(/\S/);
    }
  });
});
