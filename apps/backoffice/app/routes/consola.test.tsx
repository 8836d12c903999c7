import { describe, expect, it } from 'vitest';
import { navigation, navigationFor } from '#app/lib/navigation.ts';
import { contractApi, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import routes from '../routes.ts';
import { loader } from './consola.tsx';

describe('the console layout', () => {
  it('sends a visitor without a session to the sign-in page, remembering the page', async () => {
    for (const me of [{ status: 401, body: { message: 'Sin sesión' } }, undefined]) {
      const { context } = contractApi(me ? { 'GET /me': me } : {});
      const thrown = await thrownBy(() => loader({ request: pageRequest('/auditoria?actor=x'), context } as never));
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(302);
      expect((thrown as Response).headers.get('location')).toBe('/ingresar?volver=%2Fauditoria%3Factor%3Dx');
    }
  });

  it('gives the screens the operator and the CSRF token', async () => {
    const { context } = contractApi({ 'GET /me': meAnswer(['support']) });
    const data = await loader({ request: pageRequest('/'), context } as never);
    expect(data).toMatchObject({ operator: { name: 'Ana Pérez', roles: ['support'] }, csrfToken: 'csrf-123' });
  });
});

describe('the side navigation', () => {
  it('lists every screen of issue 24 for an administrator', () => {
    expect(navigationFor(['admin']).map((entry) => entry.label)).toEqual([
      'Hoy',
      'Ventas',
      'Reembolsos de ventas',
      'Documentos tributarios',
      'Reembolsos',
      'Contacto',
      'Newsletter',
      'Datos personales',
      'Trabajos con fallas',
      'Planes',
      'Precios',
      'Códigos de descuento',
      'Adicionales',
      'Tipo de cambio',
      'El sitio',
      'Geografía',
      'Preguntas frecuentes',
      'Textos legales',
      'Blog',
      'Operadores',
      'Claves API',
      'Auditoría',
    ]);
  });

  it('hides what a role cannot use', () => {
    const support = navigationFor(['support']).map((entry) => entry.label);
    expect(support).not.toContain('Operadores');
    expect(support).not.toContain('Reembolsos de ventas');
    expect(support).toContain('Contacto');
    const finance = navigationFor(['finance']).map((entry) => entry.label);
    expect(finance).toContain('Reembolsos de ventas');
    expect(finance).not.toContain('Auditoría');
    expect(navigationFor(['content']).map((entry) => entry.label)).toEqual([
      'Hoy',
      'Newsletter',
      'Planes',
      'Adicionales',
      'El sitio',
      'Geografía',
      'Preguntas frecuentes',
      'Textos legales',
      'Blog',
    ]);
    expect(navigationFor(['pricing']).map((entry) => entry.label)).toEqual([
      'Hoy',
      'Planes',
      'Precios',
      'Códigos de descuento',
      'Adicionales',
      'Tipo de cambio',
    ]);
    expect(finance).toContain('Tipo de cambio');
  });

  it('has a page for every entry: the built screens, and «Próximamente» for the others', () => {
    type Entry = { path?: string; index?: boolean; file: string; children?: Entry[] };
    const layout = (routes as Entry[]).find((entry) => entry.file === 'routes/consola.tsx');
    const fileOf = (path: string) =>
      layout?.children?.find((child) => (path === '/' ? child.index : child.path === path.slice(1)))?.file;
    for (const entry of navigation) {
      const file = fileOf(entry.path);
      expect(file, entry.path).toBeDefined();
      expect(file === 'routes/proximamente.tsx', entry.path).toBe(entry.upcoming === true);
    }
  });
});
