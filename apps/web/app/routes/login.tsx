import { redirect } from 'react-router';

/**
 * «Acceso Clientes» (the navigation's button opens /login): a buyer or traveller has no account here, and what they
 * come for is their purchase, so /login leads to «Mi compra» (the browser that paid is signed in there at once).
 */
export const loader = () => redirect('/mi-compra', { headers: { 'Cache-Control': 'no-store' } });
