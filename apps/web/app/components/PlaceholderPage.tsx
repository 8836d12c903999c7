import { Link } from 'react-router';

/** A screen whose content arrives with a later issue: a real page with its heading, never a blank one. */
export function PlaceholderPage({ title, lead }: { title: string; lead?: string }) {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="mb-4 text-3xl font-bold text-brand-700 sm:text-4xl">{title}</h1>
      <p className="mb-8 text-lg text-slate-600">{lead ?? 'Estamos preparando esta sección.'}</p>
      <Link to="/home" className="font-semibold text-brand-700 underline underline-offset-4">
        Volver al inicio
      </Link>
    </section>
  );
}
