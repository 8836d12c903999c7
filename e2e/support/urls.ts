import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** Every URL the page requested or showed (history, Referer): none may carry what the visitor typed. */
export function recordUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('framenavigated', (frame) => urls.push(frame.url()));
  return urls;
}

/** Fails when any URL holds one of the values, however encoded (percent or `+` for spaces) and in any case. */
export function expectNoValueIn(urls: string[], values: string[]) {
  for (const url of urls) {
    const decoded = decodeURIComponent(url.replaceAll('+', ' ')).toLowerCase();
    for (const value of values) expect(decoded, `${url} carries «${value}»`).not.toContain(value.toLowerCase());
  }
}
