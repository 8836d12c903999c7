import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './newsletter.server.ts';

describe('the subscription page links back only within the site', () => {
  it.each(['/', '/blog', '/comparador/0b7c?orden=precio'])('keeps the path %s', (path) => {
    expect(safeReturnPath(path)).toBe(path);
  });

  it.each([null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)'])(
    'sends %s home',
    (path) => {
      expect(safeReturnPath(path)).toBe('/');
    },
  );
});
