import { expect, test } from './support/fixtures.ts';
import { mainNav, seed } from './support/shell.ts';

/** The markup of one element, scripts and React's text separators (`<!-- -->`) removed, tags turned to breaks. */
function textOf(html: string, tag: 'header' | 'footer'): string {
  const element = html.match(new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`))?.[0] ?? '';
  return element
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The document without its scripts: what a browser shows before (or without) running any JavaScript. */
function withoutScripts(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>/g, '');
}

test.describe('server rendering', () => {
  test('home HTML already holds the nav items and footer columns from the API', async ({ request }) => {
    const response = await request.get('/');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/html; charset=utf-8');
    // The loader data is also serialised into a script; only the rendered markup counts here.
    const html = withoutScripts(await response.text());

    const header = textOf(html, 'header');
    for (const item of seed.navigation.items) {
      expect(header, `nav item «${item.label}» in the server HTML`).toContain(item.label);
      for (const sub of item.items1) expect(header, `nav sub-item «${sub.label}»`).toContain(sub.label);
    }
    expect(header).toContain('Acceso Clientes');

    const footer = textOf(html, 'footer');
    for (const menu of seed.footer.menus) {
      expect(footer, `footer column «${menu.label}»`).toContain(menu.label);
      for (const item of menu.items) expect(footer, `footer item «${item.label}»`).toContain(item.label);
    }
    expect(footer).toContain(`© ${new Date().getFullYear()} ${seed.footer.copyright}`);

    const telHrefs = seed.footer.menus.flatMap((menu) => menu.items).filter((item) => item.href.startsWith('tel:'));
    expect(telHrefs.length).toBeGreaterThan(0);
    for (const item of telHrefs) expect(html).toContain(`href="${item.href}"`);
  });

  test.describe('with JavaScript disabled', () => {
    test.use({ javaScriptEnabled: false });

    test('home still shows the nav bar and the footer', async ({ page }) => {
      await page.goto('/');
      const nav = mainNav(page);
      await expect(nav).toBeVisible();
      for (const item of seed.navigation.items) {
        // Without scripts a menu is a <details> disclosure and the help button a link to its page (issue #13).
        const control = item.isMenu
          ? nav.locator('summary', { hasText: item.label })
          : nav.getByRole('link', { name: item.label, exact: true });
        await expect(control.filter({ visible: true })).toHaveCount(1);
      }
      await expect(nav.getByRole('link', { name: 'Acceso Clientes' })).toHaveAttribute('href', '/login');

      const footer = page.getByRole('contentinfo');
      await expect(footer).toBeVisible();
      for (const menu of seed.footer.menus) {
        const column = footer.getByRole('navigation', { name: menu.label, exact: true });
        await expect(column.getByRole('heading', { name: menu.label })).toBeVisible();
        await expect(column.getByRole('link')).toHaveText(menu.items.map((item) => item.label));
      }
      await expect(footer).toContainText(`© ${new Date().getFullYear()} ${seed.footer.copyright}`);
    });
  });
});
