import { Link } from 'react-router';

/**
 * A page the route table names but whose content is outside this storefront (spec §2: the members area and the
 * client login are not shown): says so plainly and offers the ways that do exist.
 */
export function OutsideStorePage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="page-width py-12 *:max-w-3xl sm:py-16">
      <h1 className="mb-4 text-3xl font-bold text-brand-700 sm:text-4xl">{title}</h1>
      <div className="mb-8 space-y-4 text-lg leading-relaxed text-slate-700">{children}</div>
      <div className="flex flex-col gap-3 sm:flex-row">
        <Link
          to="/contacto"
          className="inline-block rounded-xl bg-accent-700 px-6 py-3 text-center font-bold text-white shadow hover:bg-accent-800"
        >
          Escríbenos
        </Link>
        <Link
          to="/certificados"
          className="inline-block rounded-xl border border-brand-700 px-6 py-3 text-center font-bold text-brand-700 hover:bg-brand-50"
        >
          Buscar mis certificados
        </Link>
      </div>
    </section>
  );
}
