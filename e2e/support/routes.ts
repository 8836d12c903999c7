import { demoCompany } from '../../apps/api/src/db/seed/demo-company.ts';

/** The route table of spec §2 (a sample value for each parameter). */
export const paths = [
  '/',
  '/home',
  '/home/abc',
  '/europmembers',
  '/error',
  '/exito',
  '/confirmacion',
  '/comparador/1',
  '/cotizador',
  '/cotizador/partner',
  '/contratacion',
  '/compra/1/1',
  '/facturacion/1/1',
  '/pago/1/1',
  '/contactanos',
  '/certificados',
  '/faq',
  '/quienes-somos',
  '/reembolsos',
  '/reembolsos/seguimiento',
  '/blog',
  `/blog-interior/1/${demoCompany.blog.posts.find((post) => post.id === 1)?.slug}`,
  '/terminos',
  '/politicas',
  '/contacto',
  '/preview/1',
  '/informacion-legal',
];

/** Spec §2: preview and quoter modes render without nav and footer. */
export const chromeless = new Set(['/preview/1', '/cotizador', '/cotizador/partner']);
