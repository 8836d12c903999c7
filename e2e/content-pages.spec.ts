import type { Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { companyDocuments, faqEntries } from '../apps/api/src/db/schema.ts';
import { demoCompany } from '../apps/api/src/db/seed/demo-company.ts';
import { readCache } from '../apps/api/src/lib/cache/read-cache.ts';
import { carousel } from '../apps/web/app/features/content/carousel-settings.ts';
import { expect, type Storefront, test } from './support/fixtures.ts';
import { openHydrated } from './support/shell.ts';

const companyInfo = demoCompany.documents['company-info'];
const faqs = demoCompany.faqs;
const categories = [...new Set(faqs.map((faq) => faq.category))];

type CompanyInfoDocument = typeof companyInfo;

/**
 * Runs `body` with the demo company's about-us document changed by `change` (and the catalogue cache emptied so the
 * API reads it), then puts the seeded document back: every test of the worker shares this database.
 */
async function withCompanyInfo(
  storefront: Storefront,
  change: (document: CompanyInfoDocument) => CompanyInfoDocument,
  body: () => Promise<void>,
) {
  const { db } = storefront.database;
  const where = and(eq(companyDocuments.companyId, 1), eq(companyDocuments.kind, 'company-info'));
  await db
    .update(companyDocuments)
    .set({ body: change(structuredClone(companyInfo)) })
    .where(where);
  readCache(storefront.app.db).clear();
  try {
    await body();
  } finally {
    await db.update(companyDocuments).set({ body: companyInfo }).where(where);
    readCache(storefront.app.db).clear();
  }
}

/** The seeded FAQ answer of `question` replaced by `answer` while `body` runs. */
async function withFaqAnswer(storefront: Storefront, question: string, answer: string, body: () => Promise<void>) {
  const { db } = storefront.database;
  const original = faqs.find((faq) => faq.question === question)?.answer ?? '';
  await db.update(faqEntries).set({ answer }).where(eq(faqEntries.question, question));
  readCache(storefront.app.db).clear();
  try {
    await body();
  } finally {
    await db.update(faqEntries).set({ answer: original }).where(eq(faqEntries.question, question));
    readCache(storefront.app.db).clear();
  }
}

const categoryButton = (page: Page, category: string) =>
  page.getByRole('heading', { level: 2, name: new RegExp(`^${category}`) }).getByRole('button');
const questionButton = (page: Page, question: string) => page.getByRole('button', { name: question, exact: true });

test.describe('/faq', () => {
  test('the accordion opens and closes by keyboard: Tab, Enter and Space toggle aria-expanded', async ({ page }) => {
    await openHydrated(page, '/faq');
    await expect(page.locator('#contenido').getByRole('heading', { level: 2 })).toHaveText(
      categories.map((category) => new RegExp(`^${category}`)),
    );
    const first = faqs[0];
    if (!first) throw new Error('no seeded FAQ');
    const category = categoryButton(page, first.category);
    await expect(category).toHaveAttribute('aria-expanded', 'false');
    const panel = page.locator(`#${await category.getAttribute('aria-controls')}`);
    await expect(panel).toBeHidden();

    // From the search button, Tab reaches the first category.
    await page.getByRole('button', { name: 'Buscar', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(category).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(category).toHaveAttribute('aria-expanded', 'true');
    await expect(panel).toBeVisible();

    const question = questionButton(page, first.question);
    await expect(question).toHaveAttribute('aria-expanded', 'false');
    const answer = page.locator(`#${await question.getAttribute('aria-controls')}`);
    await expect(answer).toBeHidden();
    await page.keyboard.press('Tab');
    await expect(question).toBeFocused();
    await page.keyboard.press('Space');
    await expect(question).toHaveAttribute('aria-expanded', 'true');
    await expect(answer).toBeVisible();
    await expect(answer).toContainText('Ingresa al cotizador');
    await page.keyboard.press('Space');
    await expect(question).toHaveAttribute('aria-expanded', 'false');
    await expect(answer).toBeHidden();

    await page.keyboard.press('Shift+Tab');
    await expect(category).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(category).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
  });

  test('the search filters questions and answers as the visitor types, and says when nothing matches', async ({
    page,
  }) => {
    await openHydrated(page, '/faq');
    const search = page.getByRole('searchbox', { name: 'Buscar en las preguntas frecuentes' });
    // «PIR» appears only in an answer (the lost-luggage form), in another case.
    await search.fill('pir');
    await expect(page.getByRole('status')).toHaveText('1 pregunta encontrada para «pir»');
    await expect(page.locator('#contenido').getByRole('heading', { level: 2 })).toHaveText([/^Durante el viaje/]);
    await expect(categoryButton(page, 'Durante el viaje')).toHaveAttribute('aria-expanded', 'true');
    await expect(questionButton(page, '¿Qué hago si la aerolínea pierde mi equipaje?')).toBeVisible();

    // Accents and case do not matter; every word must appear.
    await search.fill('COMO recibo');
    await expect(questionButton(page, '¿Cómo recibo mi certificado?')).toBeVisible();
    await expect(page.locator('#contenido').getByRole('heading', { level: 3 })).toHaveCount(1);

    await search.fill('submarino');
    await expect(page.getByText('No encontramos preguntas que coincidan con «submarino».')).toBeVisible();
    await expect(page.locator('#contenido').getByRole('heading', { level: 2 })).toHaveCount(0);
    await page.getByRole('link', { name: 'Ver todas las preguntas' }).click();
    await expect(search).toHaveValue('');
    await expect(page.locator('#contenido').getByRole('heading', { level: 2 })).toHaveCount(categories.length);
    await expect(page.locator('#contenido h3')).toHaveCount(faqs.length);
  });

  test('the search submitted with Enter keeps ?q= in the address', async ({ page }) => {
    await openHydrated(page, '/faq');
    await page.getByRole('searchbox', { name: 'Buscar en las preguntas frecuentes' }).fill('reembolso');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/faq?q=reembolso');
    await expect(page.getByRole('status')).toContainText('encontradas para «reembolso»');
  });

  test('without JavaScript, ?q= is filtered by the server and every answer is readable', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('/faq');
    await page.getByRole('searchbox', { name: 'Buscar en las preguntas frecuentes' }).fill('equipaje');
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await expect(page).toHaveURL('/faq?q=equipaje');
    await expect(page.locator('#contenido').getByRole('heading', { level: 3 })).toHaveText([
      '¿Qué hago si la aerolínea pierde mi equipaje?',
    ]);
    await expect(page.getByText('pide el formulario PIR')).toBeVisible();
    await page.goto('/faq?q=zzzz');
    await expect(page.getByText('No encontramos preguntas que coincidan con «zzzz».')).toBeVisible();
    await context.close();
  });
});

/** The carousel's slide container: embla moves it with a CSS transform. */
const logoTrack = (page: Page) => page.getByRole('list', { name: companyInfo.providers.descriptionsLogoProvider });
const transformOf = (page: Page) => logoTrack(page).evaluate((element) => getComputedStyle(element).transform);
/** Where embla has moved the logos to (px). */
const offsetOf = (page: Page) =>
  logoTrack(page).evaluate((element) => new DOMMatrix(getComputedStyle(element).transform).m41);

/** Stops the page's clock (installed before it loaded): from now on time passes only by `page.clock.runFor`. */
async function pauseClock(page: Page) {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
}
const previousArrow = (page: Page) => page.getByRole('button', { name: 'Prestador anterior' });
const nextArrow = (page: Page) => page.getByRole('button', { name: 'Prestador siguiente' });

test.describe('/quienes-somos', () => {
  test('shows every part of the about-us document, the mission and vision, values and the office map', async ({
    page,
  }) => {
    await openHydrated(page, '/quienes-somos');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Quiénes somos');
    for (const text of [
      companyInfo.description.descriptions,
      companyInfo.descriptionCompany.descriptionCom,
      companyInfo.providers.descriptionProviders,
      companyInfo.workTeam.descriptionWorkTeam,
      demoCompany.documents.mission.label,
      demoCompany.documents.vision.label,
    ]) {
      await expect(page.getByText(text)).toBeVisible();
    }
    await expect(page.getByText('350.000 viajeros')).toBeVisible();
    await expect(page.locator('#contenido').getByRole('heading', { level: 2 })).toHaveText([
      'Nuestra historia',
      'Nuestros prestadores',
      'Nuestro equipo',
      'Misión y visión',
      'Nuestros valores',
      'Nuestra oficina',
    ]);
    await expect(page.getByText('Cercanía:')).toBeVisible();
    await expect(page.getByText(demoCompany.company.address)).toBeVisible();
    const map = page.locator('iframe');
    await expect(map).toHaveAttribute('title', /^Mapa: oficina de Travesía/);
    await expect(map).toHaveAttribute('loading', 'lazy');
    await expect(map).toHaveAttribute('src', companyInfo.map.embedUrl);
    for (const logo of companyInfo.logos) {
      await expect(logoTrack(page).getByRole('img', { name: logo.label })).toHaveCount(1);
    }
  });

  test('values are left out when the values flag is off', async ({ page, storefront }) => {
    await withCompanyInfo(
      storefront,
      (document) => ({ ...document, useValuesCare: false }),
      async () => {
        await page.goto('/quienes-somos');
        await expect(page.getByRole('heading', { name: 'Nuestro equipo' })).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Nuestros valores' })).toHaveCount(0);
        await expect(page.getByText('Cercanía:')).toHaveCount(0);
      },
    );
  });

  test(`more than 4 logos: arrows enabled; next moves one logo in about 800 ms; autoplay every 6 s`, async ({
    page,
  }) => {
    expect(companyInfo.logos.length).toBeGreaterThan(carousel.visible);
    await page.clock.install();
    await openHydrated(page, '/quienes-somos');
    await logoTrack(page).scrollIntoViewIfNeeded();
    await pauseClock(page);
    await expect(previousArrow(page)).toBeEnabled();
    await expect(nextArrow(page)).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Pausar carrusel' })).toBeVisible();

    // 4 logos in view at 1280 px.
    const widths = await logoTrack(page)
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().width));
    const viewport = await logoTrack(page).evaluate((list) => list.parentElement?.getBoundingClientRect().width ?? 0);
    expect(Math.round(viewport / (widths[0] ?? 1))).toBe(4);

    // The arrow moves one logo: still on its way at 500 ms, within 1 % of its place at 800 ms (spec: speed 800 ms).
    const slide = widths[0] ?? 0;
    const start = await offsetOf(page);
    await nextArrow(page).click();
    await page.clock.runFor(500);
    expect(Math.abs(start - slide - (await offsetOf(page)))).toBeGreaterThan(5);
    await page.clock.runFor(300);
    expect(Math.abs(start - slide - (await offsetOf(page)))).toBeLessThan(slide / 100);
    await page.clock.runFor(700);
    // Compared to a pixel: the animation may still be settling its last hundredth of a pixel.
    const settled = await offsetOf(page);
    expect(settled).toBeCloseTo(start - slide, 1);

    // The autoplay moves it again after 6000 ms, not before.
    await page.mouse.move(0, 0);
    await page.clock.runFor(carousel.autoplayMs - 1600);
    expect(await offsetOf(page)).toBeCloseTo(settled, 0);
    await page.clock.runFor(2000);
    expect(await offsetOf(page)).toBeCloseTo(start - 2 * slide, 0);
  });

  test('the carousel holds still under the pointer and after «Pausar carrusel»', async ({ page }) => {
    await page.clock.install();
    await openHydrated(page, '/quienes-somos');
    await pauseClock(page);
    await logoTrack(page).hover();
    const start = await transformOf(page);
    await page.clock.runFor(carousel.autoplayMs * 2);
    expect(await transformOf(page)).toBe(start);

    await page.getByRole('button', { name: 'Pausar carrusel' }).click();
    await expect(page.getByRole('button', { name: 'Reanudar carrusel' })).toBeVisible();
    await page.mouse.move(0, 0);
    await page.clock.runFor(carousel.autoplayMs * 2);
    expect(await transformOf(page)).toBe(start);
  });

  test('with «reduce motion» it never starts by itself', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install();
    await openHydrated(page, '/quienes-somos');
    await pauseClock(page);
    await expect(nextArrow(page)).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Pausar carrusel' })).toHaveCount(0);
    const start = await transformOf(page);
    await page.mouse.move(0, 0);
    await page.clock.runFor(carousel.autoplayMs * 2);
    expect(await transformOf(page)).toBe(start);
  });

  test('3 logos in view below 992 px @phone', async ({ page }) => {
    await page.setViewportSize({ width: 991, height: 800 });
    await openHydrated(page, '/quienes-somos');
    const width = await logoTrack(page)
      .locator('li')
      .first()
      .evaluate((item) => item.getBoundingClientRect().width);
    const viewport = await logoTrack(page).evaluate((list) => list.parentElement?.getBoundingClientRect().width ?? 0);
    expect(Math.round(viewport / width)).toBe(3);
  });

  test('on a 390 px phone two logos are in view, each drawn wide enough to read its provider’s name', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openHydrated(page, '/quienes-somos');
    await logoTrack(page).scrollIntoViewIfNeeded();
    const widths = await logoTrack(page)
      .locator('li')
      .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().width));
    const viewport = await logoTrack(page).evaluate((list) => list.parentElement?.getBoundingClientRect().width ?? 0);
    expect(Math.round(viewport / (widths[0] ?? 1))).toBe(2);
    // The logos are 196 units wide with the name at 20: drawn at 140 px or more, the name is at least 14 px.
    const drawn = await logoTrack(page)
      .getByRole('img')
      .first()
      .evaluate((image) => image.getBoundingClientRect().width);
    expect(drawn).toBeGreaterThanOrEqual(140);
  });

  test('4 or fewer logos: the arrows are disabled and greyed, every logo is shown and nothing moves', async ({
    page,
    storefront,
  }) => {
    await withCompanyInfo(
      storefront,
      (document) => ({ ...document, logos: document.logos.slice(0, carousel.visible) }),
      async () => {
        await page.clock.install();
        await openHydrated(page, '/quienes-somos');
        await pauseClock(page);
        await logoTrack(page).scrollIntoViewIfNeeded();
        await expect(previousArrow(page)).toBeDisabled();
        await expect(nextArrow(page)).toBeDisabled();
        const grey = await nextArrow(page).evaluate((button) => getComputedStyle(button).color);
        expect(grey).toBe('oklch(0.704 0.04 256.788)'); // Tailwind's slate-400
        await expect(page.getByRole('button', { name: 'Pausar carrusel' })).toHaveCount(0);
        await expect(logoTrack(page).getByRole('img')).toHaveCount(carousel.visible);
        for (const logo of companyInfo.logos.slice(0, carousel.visible)) {
          await expect(logoTrack(page).getByRole('img', { name: logo.label })).toBeInViewport();
        }
        const start = await transformOf(page);
        await page.clock.runFor(carousel.autoplayMs * 2);
        expect(await transformOf(page)).toBe(start);
      },
    );
  });
});

test.describe('stored content HTML is sanitised before it reaches a page', () => {
  const hostile =
    '<p>Respuesta segura</p><script>window.__xss = 1</script>' +
    '<img src="x" onerror="window.__xss = 2; alert(2)"><a href="javascript:alert(3)">enlace</a>' +
    '<svg onload="alert(4)"></svg><iframe src="javascript:alert(5)"></iframe>';

  async function expectNothingRan(page: Page, path: string) {
    const dialogs: string[] = [];
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await openHydrated(page, path);
    await expect(page.getByText('Respuesta segura').first()).toBeAttached();
    const main = page.locator('#contenido');
    await expect(main.locator('script')).toHaveCount(0);
    await expect(main.locator('[onerror], [onload], svg[onload]')).toHaveCount(0);
    await expect(main.locator('a[href^="javascript"], iframe[src^="javascript"]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
  }

  test('a <script> and an <img onerror> in a FAQ answer never reach /faq', async ({ page, storefront, request }) => {
    const question = faqs[1]?.question ?? '';
    await withFaqAnswer(storefront, question, hostile, async () => {
      // The API hands the stored HTML over as it is (it is content); the storefront's loader sanitises it.
      const api = await request.get('/api/companies/1/frequently-asked-questions');
      expect(JSON.stringify(await api.json())).toContain('onerror');
      const html = await (await request.get('/faq')).text();
      expect(html).toContain('Respuesta segura');
      expect(html).not.toMatch(/onerror|__xss|javascript:alert|onload/);

      await expectNothingRan(page, '/faq');
      await categoryButton(page, faqs[1]?.category ?? '').click();
      await questionButton(page, question).click();
      await expect(page.getByText('Respuesta segura')).toBeVisible();
      // The javascript: address is gone: «enlace» is left as a plain anchor with no href.
      const link = page.locator('#contenido a', { hasText: 'enlace' });
      await expect(link).toHaveCount(1);
      expect(await link.getAttribute('href')).toBeNull();
    });
  });

  test('nor do they reach /quienes-somos through customHtml or the values', async ({ page, storefront, request }) => {
    await withCompanyInfo(
      storefront,
      (document) => ({
        ...document,
        description: { ...document.description, customHtml: hostile },
        workTeam: { ...document.workTeam, customHtml: hostile },
        valuesCare: { html: hostile },
      }),
      async () => {
        const html = await (await request.get('/quienes-somos')).text();
        expect(html).toContain('Respuesta segura');
        expect(html).not.toMatch(/onerror|__xss|javascript:alert|onload/);
        await expectNothingRan(page, '/quienes-somos');
        await expect(page.getByText('Respuesta segura')).toHaveCount(3);
      },
    );
  });
});

test.describe('the simple pages say what they are', () => {
  test('/contratacion is the purchase step 1 of 3 mock-up: 3 travellers, emergency contact, checkboxes, detail', async ({
    page,
  }) => {
    await openHydrated(page, '/contratacion');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contratación');
    await expect(page.getByRole('navigation', { name: 'Pasos de la compra' }).getByRole('listitem')).toHaveText([
      /Paso 1 de 3: Pasajeros/,
      /Paso 2 de 3: Facturación/,
      /Paso 3 de 3: Pago/,
    ]);
    for (const title of ['Pasajero 1', 'Pasajero 2', 'Pasajero 3', 'Contacto de emergencia', 'Detalle de compra']) {
      await expect(page.getByRole('heading', { name: title })).toBeVisible();
    }
    await expect(page.getByRole('checkbox')).toHaveCount(2);
    await expect(page.getByRole('complementary')).toContainText('Travesía Plus');
    await expect(page.getByRole('complementary')).toContainText('Total');
    await expect(page.getByText('es una vista de ejemplo')).toBeVisible();
    // No behaviour: nothing typed leaves the page; «Continuar» opens the real quoter.
    await page.getByRole('textbox', { name: 'Nombre' }).first().fill('Ana');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL('/cotizador?');
  });

  for (const [path, title, says] of [
    ['/europmembers', 'Área exclusiva de miembros', 'todavía no está disponible en este sitio'],
  ] as const) {
    test(`${path} says the area is not part of this site and links to /contacto`, async ({ page }) => {
      await openHydrated(page, path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.locator('#contenido')).toContainText(says);
      await page.locator('#contenido').getByRole('link', { name: 'Escríbenos' }).click();
      await expect(page).toHaveURL('/contacto');
    });
  }

  test('/login («Acceso Clientes») leads to «Mi compra»', async ({ page }) => {
    await openHydrated(page, '/login');
    await expect(page).toHaveURL('/mi-compra');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mi compra');
  });

  test('/error without a payment explains it in general terms', async ({ page }) => {
    await openHydrated(page, '/error');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/\S/);
    await expect(page.locator('#contenido')).toContainText('pago');
  });
});
