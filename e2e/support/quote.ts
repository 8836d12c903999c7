import type { Page } from '@playwright/test';
import { addDays, todayInChile } from '../../packages/domain/src/dates.ts';
import { expect } from './fixtures.ts';
import { openHydrated } from './shell.ts';

/** dd-mm-aaaa, the way the quoter's date fields are typed. */
export const typed = (iso: string) => iso.split('-').reverse().join('-');

export const tripDates = (fromToday: number, days: number) => {
  const departure = addDays(todayInChile(), fromToday);
  return { departure, back: addDays(departure, days - 1) };
};

/** Fills the home quoter: destination, dates and passengers by band, as a visitor would. */
export async function fillQuoter(
  page: Page,
  trip: { destination: string; departure: string; back: string; adults: number; seniors: number; code?: string },
) {
  await openHydrated(page, '/');
  await page.getByLabel('Destino').selectOption({ label: trip.destination });
  await page.getByRole('textbox', { name: 'Fecha de salida' }).fill(typed(trip.departure));
  await page.getByRole('textbox', { name: 'Fecha de regreso' }).fill(typed(trip.back));
  for (let i = 1; i < trip.adults; i += 1) {
    await page.getByRole('button', { name: 'Agregar pasajero de 0 a 74 años' }).click();
  }
  for (let i = 0; i < trip.seniors; i += 1) {
    await page.getByRole('button', { name: 'Agregar pasajero de 75 a 84 años' }).click();
  }
  if (trip.code) await page.getByLabel('Código de descuento').fill(trip.code);
}

/** Submits the quoter and waits for the plans of the new quotation; answers its id. */
export async function submitQuoter(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Cotizar', exact: true }).click();
  await page.waitForURL(/\/comparador\/[0-9a-f-]{36}/);
  const id = page.url().split('/comparador/')[1]?.split(/[?#]/)[0];
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id ?? '';
}
