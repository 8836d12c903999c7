import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './safe-path.ts';

const page = 'https://tienda.example/suscripcion?volver=x';

/** Where a browser goes from the page when the answer is a link's href or a Location (WHATWG URL, as browsers). */
const followed = (href: string) => new URL(href, page);

describe('a return path from a visitor stays on this site', () => {
  it.each([
    ['/', '/'],
    ['/blog', '/blog'],
    ['/comparador/0b7c?orden=precio', '/comparador/0b7c?orden=precio'],
    ['/blog?q=viaje%20a%20europa', '/blog?q=viaje%20a%20europa'],
    ['/blog-interior/3/seguro#fin', '/blog-interior/3/seguro#fin'],
    // Non-ASCII is kept, percent-encoded as a browser sends it.
    ['/blog/españa', '/blog/espa%C3%B1a'],
  ])('keeps the path %s (as %s)', (path, expected) => {
    expect(safeReturnPath(path)).toBe(expected);
    expect(followed(safeReturnPath(path)).origin).toBe('https://tienda.example');
  });

  it.each([
    // Not a path of this site at all.
    null,
    undefined,
    '',
    'blog',
    'https://evil.example/',
    'http:evil.example',
    '//evil.example/x',
    '///evil.example',
    'javascript:alert(1)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/javascript:alert(1)\n',
    // Tab, CR and LF are dropped by browsers anywhere in a URL: `/\t/evil.example` is `//evil.example`.
    '/\t/evil.example',
    '/\r/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '\t//evil.example',
    // Backslash is a slash to browsers.
    '/\\evil.example',
    '\\\\evil.example',
    '/\\/evil.example',
    '/blog\\..\\..\\evil',
    // Percent-encoded forms of all of those, once or twice (a later decoding would undo one level).
    '/%09/evil.example',
    '/%0a/evil.example',
    '/%0D%0A/evil.example',
    '/%5cevil.example',
    '/%5C%5Cevil.example',
    '/%2f%2fevil.example',
    '/%2F/evil.example',
    '%2f%2fevil.example',
    '/%252f%252fevil.example',
    '/%25%32%66/evil.example',
    // Malformed or too deeply encoded.
    '/%E0%A4%A',
    '/%25252525252f',
    // Dot segments that resolve to a doubled slash.
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    // Unicode tricks: full-width solidus, invisible and bidi characters, odd spaces, C1 controls.
    '／／evil.example',
    '/\u200b/evil.example',
    '/\u202eelpmaxe.live',
    '/%E2%80%AE/evil',
    '/\u00a0/evil.example',
    '/\u2028/evil.example',
    '/\u3000/evil.example',
    '/\u0085/evil.example',
    '/\ufeff/evil.example',
    '/\u0000/evil.example',
    '/%00',
    `/${'a'.repeat(2001)}`,
  ])('sends %j home', (path) => {
    expect(safeReturnPath(path)).toBe('/');
  });

  it('answers the fallback it is given instead of home', () => {
    expect(safeReturnPath('//evil.example', '/mi-compra')).toBe('/mi-compra');
  });

  it('whatever it answers, a browser following it from the page stays on the same origin', () => {
    const tricky = ['/%09/evil.example', '/.//evil.example', '/\\evil.example', '/%2f%2fevil.example', '/\t/x'];
    for (const path of tricky) expect(followed(safeReturnPath(path)).origin).toBe('https://tienda.example');
  });
});
