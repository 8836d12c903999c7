import { describe, expect, it } from 'vitest';
import { consolePathOf, returnPath, signInUrl } from './paths.ts';

describe('returnPath', () => {
  it('keeps a path inside the console', () => {
    expect(returnPath('/operadores?x=1')).toBe('/operadores?x=1');
  });
  it('sends anything else to «Hoy»: other sites, the sign-in and enrolment pages, nothing', () => {
    for (const value of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/ingresar',
      '/enrolar/abc',
      '',
      null,
    ]) {
      expect(returnPath(value)).toBe('/');
    }
  });
});

describe('consolePathOf', () => {
  it('reads the page a React Router data request is for', () => {
    expect(consolePathOf(new URL('http://x/backoffice/auditoria.data?actor=a&_routes=routes%2Fauditoria'))).toBe(
      '/auditoria?actor=a',
    );
    expect(consolePathOf(new URL('http://x/backoffice/_root.data'))).toBe('/');
    expect(consolePathOf(new URL('http://x/backoffice'))).toBe('/');
  });
});

describe('signInUrl', () => {
  it('remembers the page asked for', () => {
    expect(signInUrl(new Request('http://x/backoffice/operadores'))).toBe('/ingresar?volver=%2Foperadores');
    expect(signInUrl(new Request('http://x/backoffice'))).toBe('/ingresar');
  });
});
