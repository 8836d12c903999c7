import { Link } from 'react-router';
import { plural } from '#app/lib/format.ts';
import { articlePath, type BlogListData, type BlogPostSummary, publicationDate } from './types.ts';

/** `/blog`, maybe of one category and page, as a link. */
function listPath(category: string | null, page = 1): string {
  const search = new URLSearchParams();
  if (category) search.set('categoria', category);
  if (page > 1) search.set('pagina', String(page));
  const query = search.toString();
  return query ? `/blog?${query}` : '/blog';
}

function CategoryLinks({ categories, current }: Pick<BlogListData, 'categories'> & { current: string | null }) {
  const total = categories.reduce((sum, category) => sum + category.postCount, 0);
  const items = [
    { slug: null, label: 'Todos', count: total },
    ...categories.map((category) => ({ slug: category.slug, label: category.label, count: category.postCount })),
  ];
  return (
    <nav aria-label="Categorías del blog" className="mb-8">
      <ul className="flex flex-wrap gap-2">
        {items.map((item) => {
          const active = item.slug === current;
          return (
            <li key={item.slug ?? 'todos'}>
              <Link
                to={listPath(item.slug)}
                aria-current={active ? 'page' : undefined}
                className={`inline-flex min-h-11 items-center gap-2 rounded-full border px-4 py-2 text-sm font-semibold ${
                  active
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-slate-300 bg-white text-brand-700 hover:border-brand-700'
                }`}
              >
                {item.label}
                <span className={active ? 'text-white' : 'text-slate-600'}>
                  ({plural(item.count, 'artículo', 'artículos')})
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function ArticleCard({ post }: { post: BlogPostSummary }) {
  return (
    <li className="flex flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      {post.image ? (
        <img src={post.image} alt="" width={640} height={360} className="aspect-video w-full object-cover" />
      ) : (
        <div aria-hidden="true" className="aspect-video w-full bg-gradient-to-br from-brand-700 to-brand-500" />
      )}
      <div className="flex flex-1 flex-col p-5">
        <p className="mb-1 text-sm font-semibold text-accent-700">{post.category.label}</p>
        <h2 className="mb-2 text-lg font-semibold text-slate-900">
          <Link to={articlePath(post)} className="hover:text-brand-700 hover:underline">
            {post.title}
          </Link>
        </h2>
        <p className="mb-3 text-sm text-slate-600">
          <time dateTime={post.publishedAt}>{publicationDate(post.publishedAt)}</time>
        </p>
        <p className="text-slate-700">{post.summary}</p>
      </div>
    </li>
  );
}

/** /blog: the categories as links, the articles of this page as cards, and links to the other pages. */
export function BlogList({ categories, category, posts, page, totalPages }: BlogListData) {
  const current = categories.find((c) => c.slug === category);
  return (
    <section className="page-width py-10 sm:py-14">
      <h1 className="mb-3 text-3xl font-bold text-brand-700 sm:text-4xl">Blog</h1>
      <p className="mb-8 max-w-3xl text-lg text-slate-600">
        Consejos, requisitos de entrada y todo lo que cubre tu asistencia en viaje, para que viajes tranquilo.
        {current ? ` Artículos de la categoría «${current.label}».` : ''}
      </p>
      <CategoryLinks categories={categories} current={category} />
      {posts.length === 0 ? (
        <p className="rounded-2xl border border-slate-200 bg-white p-6 text-slate-700">
          Aún no hay artículos publicados. Vuelve pronto.
        </p>
      ) : (
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {posts.map((post) => (
            <ArticleCard key={post.id} post={post} />
          ))}
        </ul>
      )}
      {totalPages > 1 ? (
        <nav aria-label="Páginas del blog" className="mt-10 flex items-center justify-center gap-4">
          {page > 1 ? (
            <Link
              to={listPath(category, page - 1)}
              className="min-h-11 rounded-xl border border-slate-300 px-4 py-2 font-semibold text-brand-700"
            >
              Artículos más recientes
            </Link>
          ) : null}
          <p className="text-slate-600">
            Página {page} de {totalPages}
          </p>
          {page < totalPages ? (
            <Link
              to={listPath(category, page + 1)}
              className="min-h-11 rounded-xl border border-slate-300 px-4 py-2 font-semibold text-brand-700"
            >
              Artículos anteriores
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
