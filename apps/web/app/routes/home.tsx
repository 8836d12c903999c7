import { Link } from 'react-router';
import { UpgradeTrigger } from '#app/components/UpgradeCovid.tsx';
import { QuoterForm } from '#app/features/quoter/QuoterForm.tsx';
import { loadQuoter, submitQuoter } from '#app/features/quoter/quoter.server.ts';
import { pageTitle, useWebsite } from '#app/lib/website.ts';
import type { Route } from './+types/home';

export function loader({ context, request }: Route.LoaderArgs) {
  return loadQuoter(context, request);
}

export function action({ context, request, params }: Route.ActionArgs) {
  const referralCode = 'code' in params ? (params.code ?? null) : null;
  return submitQuoter(context, request, { referralCode, pantalla: 'home' });
}

export const meta = () => [
  ...pageTitle('Asistencia en viaje'),
  {
    name: 'description',
    content: 'Cotiza y compra tu asistencia en viaje en minutos. Precios en USD y CLP, hasta 6 cuotas sin interés.',
  },
];

/** URL-safe slug of an article title for /blog-interior/{id}/{title}. */
function slug(title: string): string {
  return title
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  const { website } = useWebsite();
  const { coverages, socialQuotes, blogCategories } = website.home;
  const articles = blogCategories.flatMap((category) =>
    category.articles.map((article) => ({ ...article, category: category.label })),
  );

  return (
    <>
      <section className="surface-dark bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 text-white">
        <div className="page-width py-10 sm:py-14">
          <p className="mb-3 inline-block rounded-full bg-white/15 px-3 py-1 text-sm font-semibold">
            Descuentos y promociones ya aplicados en todos los planes
          </p>
          <h1 className="mb-4 max-w-3xl text-3xl font-extrabold leading-tight sm:text-5xl">
            Viaja tranquilo: tu asistencia en viaje en minutos
          </h1>
          <p className="mb-8 max-w-2xl text-lg text-brand-50">
            Compara planes con precios en dólares y pesos chilenos, y paga en hasta 6 cuotas sin interés.
          </p>
          <div
            className="surface-light max-w-5xl rounded-2xl bg-white p-4 text-slate-800 shadow-2xl sm:p-6"
            id="cotizar"
          >
            <h2 className="mb-4 text-xl font-bold text-brand-700">Cotiza tu viaje</h2>
            <QuoterForm {...loaderData} passengerTypes={website.passangerTypes} actionResult={actionData} />
          </div>
          <UpgradeTrigger className="mt-4 rounded-xl border border-white/60 px-5 py-2.5 font-semibold hover:bg-white/10" />
        </div>
      </section>

      <section className="page-width py-14" aria-labelledby="coberturas">
        <h2 id="coberturas" className="mb-8 text-2xl font-bold text-brand-700 sm:text-3xl">
          Coberturas que te acompañan
        </h2>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {coverages.map((coverage) => (
            <li key={coverage.title} className="rounded-2xl border border-slate-200 p-5 shadow-sm">
              <img src={coverage.icon} alt="" loading="lazy" width={40} height={40} className="mb-3 h-10 w-10" />
              <h3 className="mb-1 text-lg font-semibold text-slate-900">{coverage.title}</h3>
              <p className="text-slate-600">{coverage.description}</p>
            </li>
          ))}
        </ul>
      </section>

      {socialQuotes.length > 0 ? (
        <section className="bg-brand-50" aria-labelledby="testimonios">
          <div className="page-width py-14">
            <h2 id="testimonios" className="mb-8 text-2xl font-bold text-brand-700 sm:text-3xl">
              Lo que dicen nuestros viajeros
            </h2>
            <ul className="grid gap-5 md:grid-cols-2 lg:grid-cols-3">
              {socialQuotes.map((quote) => (
                <li key={quote.author} className="rounded-2xl bg-white p-5 shadow-sm">
                  <p className="mb-2 text-accent-500" role="img" aria-label={`${quote.rating} de 5 estrellas`}>
                    {'★'.repeat(quote.rating)}
                    {'☆'.repeat(5 - quote.rating)}
                  </p>
                  <blockquote className="mb-3 text-slate-700">«{quote.quote}»</blockquote>
                  <p className="text-sm font-semibold text-slate-900">
                    {quote.author}, <span className="font-normal text-slate-600">{quote.location}</span>
                  </p>
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      {articles.length > 0 ? (
        <section className="page-width py-14" aria-labelledby="blog">
          <h2 id="blog" className="mb-8 text-2xl font-bold text-brand-700 sm:text-3xl">
            Consejos para tu viaje
          </h2>
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {articles.slice(0, 3).map((article) => (
              <li key={article.id} className="overflow-hidden rounded-2xl border border-slate-200 shadow-sm">
                <Link to={`/blog-interior/${article.id}/${slug(article.title)}`} className="block hover:bg-slate-50">
                  <img
                    src={article.image}
                    alt=""
                    loading="lazy"
                    width={640}
                    height={360}
                    className="aspect-video w-full object-cover"
                  />
                  <div className="p-5">
                    <p className="mb-1 text-sm font-semibold text-accent-700">{article.category}</p>
                    <h3 className="mb-2 text-lg font-semibold text-slate-900">{article.title}</h3>
                    <p className="text-slate-600">{article.summary}</p>
                  </div>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
