import { Form, NavLink, Outlet, useLoaderData, useNavigation, useRouteLoaderData } from 'react-router';
import { ErrorPage } from '#app/components/ErrorPage.tsx';
import { CsrfField } from '#app/components/fields.tsx';
import { consoleRouteId } from '#app/lib/console.ts';
import type { Me } from '#app/lib/contract.ts';
import { navigationFor } from '#app/lib/navigation.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import type { Route } from './+types/consola';

/** Every signed-in page: without a session, the sign-in page (session.server.ts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const me = await requireOperator(context, request);
  return { operator: me.operator, csrfToken: me.csrfToken };
}

function Chrome({ operator, csrfToken, children }: Pick<Me, 'operator' | 'csrfToken'> & { children: React.ReactNode }) {
  const navigation = useNavigation();
  const entries = navigationFor(operator.roles);
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#contenido"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-slate-900"
      >
        Saltar al contenido
      </a>
      <header className="surface-dark flex items-center gap-3 bg-brand-900 px-3 py-2 text-white">
        <a href="#menu" className="rounded border border-white/70 px-2 py-1 text-sm md:hidden">
          Menú
        </a>
        <p className="font-semibold whitespace-nowrap">
          <span className="hidden sm:inline">Consola </span>Travesía
        </p>
        {/* Out of the row on a phone (no room beside the name and «Salir»), still read out there. */}
        <p role="status" aria-live="polite" className="sr-only text-sm text-brand-100 sm:not-sr-only">
          {navigation.state === 'idle' ? '' : 'Cargando…'}
        </p>
        <div className="ml-auto flex items-center gap-3 text-sm">
          <NavLink to="/sesiones" className="max-w-28 truncate underline-offset-2 hover:underline sm:max-w-none">
            <span className="sr-only">Sesiones de </span>
            {operator.name ?? operator.email}
          </NavLink>
          <Form method="post" action="/salir">
            <CsrfField token={csrfToken} />
            <button type="submit" className="rounded border border-white/70 px-2 py-1 hover:bg-white/10">
              Salir
            </button>
          </Form>
        </div>
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        {/* Collapsed on narrow screens until «Menú» (a link to #menu) opens it: no script needed. */}
        <nav
          id="menu"
          aria-label="Secciones de la consola"
          className="hidden border-slate-300 bg-white target:block md:block md:w-56 md:shrink-0 md:border-r"
        >
          <ul className="p-2 text-sm">
            {entries.map((entry) => (
              <li key={entry.path}>
                <NavLink
                  to={entry.path}
                  end={entry.path === '/'}
                  className={({ isActive }) =>
                    `block rounded px-2 py-1.5 ${isActive ? 'bg-brand-700 font-semibold text-white' : 'text-slate-900 hover:bg-slate-100'}`
                  }
                >
                  {entry.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <p className="p-2 md:hidden">
            <a href="#contenido" className="text-sm text-brand-700 underline">
              Cerrar menú
            </a>
          </p>
        </nav>
        <main id="contenido" tabIndex={-1} className="min-w-0 flex-1 p-3 md:p-5">
          {children}
        </main>
      </div>
    </div>
  );
}

export default function ConsoleLayout() {
  const { operator, csrfToken } = useLoaderData<typeof loader>();
  return (
    <Chrome operator={operator} csrfToken={csrfToken}>
      <Outlet />
    </Chrome>
  );
}

/** A screen that failed (403, 404, the API down) keeps the console's chrome around its message. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const found = useRouteLoaderData<typeof loader>(consoleRouteId);
  if (!found) {
    return (
      <main id="contenido" className="mx-auto max-w-xl p-6">
        <ErrorPage error={error} />
      </main>
    );
  }
  return (
    <Chrome operator={found.operator} csrfToken={found.csrfToken}>
      <ErrorPage error={error} />
    </Chrome>
  );
}
