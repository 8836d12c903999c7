import type { Role } from './contract.ts';

export type NavigationEntry = {
  /** Path inside the console (React Router adds /backoffice). */
  path: string;
  label: string;
  /** The roles that may use the screen; the entry is hidden from everyone else. */
  roles: readonly Role[];
  /** A screen of issue 24 not built yet: its path shows the «Próximamente» page. */
  upcoming?: boolean;
};

const everyone: readonly Role[] = ['admin', 'support', 'finance', 'content', 'pricing'];

/**
 * The side navigation, in the order of issue 24's screens. Who sees what follows the role matrix
 * (docs/backoffice-roles.md): the API refuses a role's calls whatever the navigation shows.
 */
export const navigation: readonly NavigationEntry[] = [
  { path: '/', label: 'Hoy', roles: everyone },
  { path: '/ventas', label: 'Ventas', roles: ['admin', 'support', 'finance'] },
  { path: '/reembolsos-de-ventas', label: 'Reembolsos de ventas', roles: ['admin', 'finance'] },
  // Issue 26: boletas, facturas and notas de crédito the provider refused or has not issued, with «Reintentar».
  { path: '/documentos-tributarios', label: 'Documentos tributarios', roles: ['admin', 'finance'] },
  { path: '/reembolsos', label: 'Reembolsos', roles: ['admin', 'support', 'finance'] },
  { path: '/contacto', label: 'Contacto', roles: ['admin', 'support'] },
  { path: '/newsletter', label: 'Newsletter', roles: ['admin', 'support', 'content'] },
  { path: '/datos-personales', label: 'Datos personales', roles: ['admin', 'support'] },
  { path: '/trabajos', label: 'Trabajos con fallas', roles: ['admin'] },
  // Issue 25 item 1: the plans themselves as drafts (content edits, pricing reads).
  { path: '/planes', label: 'Planes', roles: ['admin', 'content', 'pricing'] },
  // Issue 25: plan prices as drafts, previewed, published and rolled back (pricing edits, finance reads).
  { path: '/precios', label: 'Precios', roles: ['admin', 'pricing', 'finance'] },
  // Issue 25 (catalogue and prices): pricing edits discount codes, finance reads their usage and revenue.
  { path: '/codigos-de-descuento', label: 'Códigos de descuento', roles: ['admin', 'pricing', 'finance'] },
  // Issue 27 §1: the add-ons a traveller buys on top of the plan (pricing edits; finance and content read).
  { path: '/adicionales', label: 'Adicionales', roles: ['admin', 'pricing', 'finance', 'content'] },
  // Issue 25 (catalogue and prices): «Hoy» shows the rate's age and links here; pricing changes it, finance reads it.
  { path: '/tipo-de-cambio', label: 'Tipo de cambio', roles: ['admin', 'pricing', 'finance'] },
  // Issue 25 (item 6): the storefront's menus, footer, contacts, WhatsApp, flags and scripts, published by content.
  { path: '/sitio', label: 'El sitio', roles: ['admin', 'content'] },
  // Issue 25 (item 5): regions, countries, origins and what is sold per modality, published by content.
  { path: '/geografia', label: 'Geografía', roles: ['admin', 'content'] },
  // Issue 25 item 7: the FAQ through the publishing model (content edits and publishes).
  { path: '/preguntas-frecuentes', label: 'Preguntas frecuentes', roles: ['admin', 'content'] },
  // Issue 25 item 7: terms, policies and legal information, each publication a version buyers' consents point at.
  { path: '/textos-legales', label: 'Textos legales', roles: ['admin', 'content'] },
  // Issue 25 item 7: blog posts in Markdown, with images, through the publishing model (content writes and publishes).
  { path: '/blog', label: 'Blog', roles: ['admin', 'content'] },
  { path: '/operadores', label: 'Operadores', roles: ['admin'] },
  { path: '/claves-api', label: 'Claves API', roles: ['admin'] },
  { path: '/auditoria', label: 'Auditoría', roles: ['admin'] },
];

/** The entries an operator with `roles` may use. */
export function navigationFor(roles: readonly Role[]): NavigationEntry[] {
  return navigation.filter((entry) => entry.roles.some((role) => roles.includes(role)));
}

/** The screens not built yet, for routes.ts and the «Próximamente» page. */
export const upcomingScreens = navigation.filter((entry) => entry.upcoming);
