import { Link } from 'react-router';
import { siteEditors, siteSections } from '#app/features/site.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/sitio';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('El sitio') }];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOperator(context, request, siteEditors);
  return null;
}

export function SiteView() {
  return (
    <section aria-labelledby="titulo" className="space-y-4">
      <h1 id="titulo" className="text-xl font-semibold">
        El sitio
      </h1>
      <p className="text-sm text-slate-700">
        Lo que la tienda muestra en todas sus páginas. Los cambios quedan en borrador hasta que los publicas; la tienda
        los muestra apenas se publican y puedes volver atrás desde el historial.
      </p>
      <ul className="grid gap-2 sm:grid-cols-2">
        {siteSections.map((section) => (
          <li key={section.slug}>
            <Link
              to={`/sitio/${section.slug}`}
              className="block rounded border border-slate-300 bg-white p-3 hover:border-brand-600 focus-visible:outline-2"
            >
              <span className="font-semibold">{section.label}</span>
              <span className="block text-xs text-slate-700">{section.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function Site() {
  return <SiteView />;
}
