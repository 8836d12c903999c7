import { index, layout, type RouteConfig, route } from '@react-router/dev/routes';
import { upcomingScreens } from './lib/navigation.ts';

// The console's pages under /backoffice (react-router.config.ts basename); notes/backoffice-contract.md.
export default [
  route('ingresar', 'routes/ingresar.tsx'),
  route('enrolar/:token', 'routes/enrolar.tsx'),
  route('salir', 'routes/salir.tsx'),
  // Every other page needs a session: the layout's loader sends the visitor to /backoffice/ingresar without one.
  layout('routes/consola.tsx', [
    index('routes/hoy.tsx'),
    route('ventas', 'routes/ventas.tsx'),
    route('ventas/:id', 'routes/venta.tsx'),
    route('sesiones', 'routes/sesiones.tsx'),
    route('operadores', 'routes/operadores.tsx'),
    route('claves-api', 'routes/claves-api.tsx'),
    route('auditoria', 'routes/auditoria.tsx'),
    route('trabajos', 'routes/trabajos.tsx'),
    route('reembolsos-de-ventas', 'routes/reembolsos-de-ventas.tsx'),
    route('documentos-tributarios', 'routes/documentos-tributarios.tsx'),
    route('reembolsos', 'routes/reembolsos.tsx'),
    route('reembolsos/:numero', 'routes/reembolso.tsx'),
    route('contacto', 'routes/contacto.tsx'),
    route('contacto/:id', 'routes/contacto-solicitud.tsx'),
    route('newsletter', 'routes/newsletter.tsx'),
    route('datos-personales', 'routes/datos-personales.tsx'),
    route('codigos-de-descuento', 'routes/codigos-de-descuento.tsx'),
    route('adicionales', 'routes/adicionales.tsx'),
    route('tipo-de-cambio', 'routes/tipo-de-cambio.tsx'),
    route('precios', 'routes/precios.tsx'),
    route('precios/:id', 'routes/precio.tsx'),
    route('planes', 'routes/planes.tsx'),
    route('planes/:id', 'routes/plan.tsx'),
    route('sitio', 'routes/sitio.tsx'),
    route('sitio/:seccion', 'routes/sitio-seccion.tsx'),
    route('geografia', 'routes/geografia.tsx'),
    route('preguntas-frecuentes', 'routes/preguntas-frecuentes.tsx'),
    route('textos-legales', 'routes/textos-legales.tsx'),
    route('blog', 'routes/blog.tsx'),
    route('blog/:id', 'routes/blog-articulo.tsx'),
    ...upcomingScreens.map((screen) =>
      route(screen.path.slice(1), 'routes/proximamente.tsx', { id: `proximamente${screen.path}` }),
    ),
    route('*', 'routes/no-encontrada.tsx'),
  ]),
] satisfies RouteConfig;
