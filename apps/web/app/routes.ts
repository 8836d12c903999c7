import { index, type RouteConfig, route } from '@react-router/dev/routes';

// The route table of spec §2, one line a path. Any other path goes to home (routes/fallback.tsx).
export default [
  index('routes/home.tsx', { id: 'index' }),
  route('home', 'routes/home.tsx', { id: 'home' }),
  route('home/:code', 'routes/home.tsx', { id: 'home-code' }),
  route('europmembers', 'routes/europmembers.tsx'),
  route('error', 'routes/error.tsx'),
  route('exito', 'routes/exito.tsx'),
  route('confirmacion', 'routes/confirmacion.tsx'),
  route('comparador/:id', 'routes/comparador.tsx'),
  route('cotizador', 'routes/cotizador.tsx', { id: 'cotizador' }),
  route('cotizador/:codename', 'routes/cotizador.tsx', { id: 'cotizador-codename' }),
  route('contratacion', 'routes/contratacion.tsx'),
  route('compra/:idProducto/:id', 'routes/compra.tsx'),
  route('facturacion/:idProducto/:id', 'routes/facturacion.tsx'),
  route('pago/:idProducto/:id', 'routes/pago.tsx'),
  route('contactanos', 'routes/contactanos.tsx'),
  route('certificados', 'routes/certificados.tsx'),
  route('verificar/:code', 'routes/verificar.tsx'),
  route('faq', 'routes/faq.tsx'),
  route('quienes-somos', 'routes/quienes-somos.tsx'),
  route('reembolsos', 'routes/reembolsos.tsx'),
  route('reembolsos/seguimiento', 'routes/reembolsos-seguimiento.tsx'),
  route('blog', 'routes/blog.tsx'),
  route('blog-interior/:id/:title', 'routes/blog-interior.tsx'),
  route('terminos', 'routes/terminos.tsx'),
  route('politicas', 'routes/politicas.tsx'),
  route('contacto', 'routes/contacto.tsx'),
  route('preview/:id', 'routes/preview.tsx'),
  // Not in spec §2: answers the footer's Suscríbete form when it posts without JavaScript (no e-mail in any URL).
  route('suscripcion', 'routes/suscripcion.tsx'),
  // Not in spec §2: the link of the newsletter's confirmation e-mail (double opt-in).
  route('suscripcion/confirmar', 'routes/suscripcion-confirmar.tsx'),
  route('login', 'routes/login.tsx'),
  route('informacion-legal', 'routes/informacion-legal.tsx'),
  route('*', 'routes/fallback.tsx'),
] satisfies RouteConfig;
