import { type LoaderFunctionArgs, type MetaFunction, useLocation } from 'react-router';
import { navigation } from '#app/lib/navigation.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';

/** A screen of issue 24 still to be built: its entry stays in the navigation and says so, instead of a broken link. */
// Typed with React Router's generic types: while no screen is upcoming, no route uses this module (and no route types
// are generated for it), yet it stays ready for the next one.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireOperator(context, request);
  return null;
}

export function screenOf(pathname: string) {
  const path = pathname.replace(/^\/backoffice/, '').replace(/\/$/, '') || '/';
  return navigation.find((entry) => entry.path === path);
}

export const meta: MetaFunction = ({ location }) => [
  { title: pageTitle(screenOf(location.pathname)?.label ?? 'Próximamente') },
];

export default function Upcoming() {
  const screen = screenOf(useLocation().pathname);
  return (
    <section aria-labelledby="titulo" className="max-w-2xl space-y-3">
      <h1 id="titulo" className="text-xl font-semibold">
        {screen?.label ?? 'Pantalla'}
      </h1>
      <p className="inline-block rounded bg-amber-100 px-2 py-0.5 text-sm font-semibold text-amber-950">Próximamente</p>
      <p>
        Esta pantalla todavía no está disponible en la consola. Mientras tanto, esta operación se sigue haciendo como
        hasta ahora; pide ayuda a un administrador si la necesitas.
      </p>
    </section>
  );
}
