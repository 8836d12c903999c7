import type { Page } from '@playwright/test';
import { demoCompany } from '../../apps/api/src/db/seed/demo-company.ts';
import { expect } from './fixtures.ts';

/** What the storefront shows comes from the seeded demo company: tests read their expectations from it. */
export const seed = {
  navigation: demoCompany.documents['navigation-bar'],
  footer: demoCompany.documents.footer,
  website: demoCompany.documents.website,
  contactInfos: demoCompany.contactInfos,
};

/** The home page's h1 (apps/web/app/routes/home.tsx). */
export const homeHeading = 'Viaja tranquilo: tu asistencia en viaje en minutos';

/** Resolves once React has hydrated the server-rendered page, so clicks are handled by the client router. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById('contenido');
    return !!main && Object.keys(main).some((key) => key.startsWith('__reactFiber$'));
  });
}

/** Opens a page and waits for hydration. */
export async function openHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

type MarkedWindow = Window & { __e2eDocumentMarker?: string };

/** Leaves a marker on `window`: it survives client-side navigations and is lost on a full document load. */
export async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as MarkedWindow).__e2eDocumentMarker = 'same-document';
  });
}

/** Fails when the page was reloaded since {@link markDocument}. */
export async function expectSameDocument(page: Page): Promise<void> {
  const marker = await page.evaluate(() => (window as MarkedWindow).__e2eDocumentMarker);
  expect(marker, 'navigation should happen client-side, without reloading the document').toBe('same-document');
}

/** The main navigation bar (inside the page's banner). */
export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Principal' });
}
