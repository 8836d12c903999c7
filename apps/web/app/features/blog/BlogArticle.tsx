import { Link } from 'react-router';
import { ContentHtml } from '#app/components/ContentHtml.tsx';
import { type BlogArticleData, publicationDate } from './types.ts';

/** /blog-interior/{id}/{title}: the article, its body as the loader sanitised it. */
export function BlogArticle({ post }: { post: BlogArticleData }) {
  return (
    <article className="page-width py-10 *:max-w-3xl sm:py-14">
      {post.preview ? (
        <p role="status" className="mb-6 rounded-xl bg-amber-300 px-4 py-2 text-center font-bold text-slate-900">
          Vista previa: borrador del artículo, aún no publicado
        </p>
      ) : null}
      <nav aria-label="Ruta de navegación" className="mb-6 text-sm">
        <ol className="flex flex-wrap items-center gap-2 text-slate-600">
          <li>
            <Link to="/blog" className="font-semibold text-brand-700 underline underline-offset-2">
              Blog
            </Link>
          </li>
          <li aria-hidden="true">›</li>
          <li>
            <Link
              to={`/blog?categoria=${encodeURIComponent(post.category.slug)}`}
              className="font-semibold text-brand-700 underline underline-offset-2"
            >
              {post.category.label}
            </Link>
          </li>
        </ol>
      </nav>
      <header className="mb-8">
        <h1 className="mb-3 text-3xl font-bold leading-tight text-brand-700 sm:text-4xl">{post.title}</h1>
        <p className="mb-4 text-slate-600">
          Publicado el <time dateTime={post.publishedAt}>{publicationDate(post.publishedAt)}</time>
        </p>
        <p className="text-lg text-slate-700">{post.summary}</p>
      </header>
      {post.image ? (
        <img
          src={post.image}
          alt=""
          width={640}
          height={360}
          className="mb-8 aspect-video w-full rounded-2xl object-cover"
        />
      ) : null}
      <ContentHtml html={post.bodyHtml} className="text-slate-800" />
      {/* An article ends with the way to act on it: the quoter, one tap away. */}
      <aside
        aria-labelledby="blog-cotiza"
        className="mt-10 rounded-2xl bg-brand-50 p-6 sm:flex sm:items-center sm:justify-between sm:gap-6"
      >
        <div>
          <h2 id="blog-cotiza" className="text-xl font-bold text-brand-700">
            ¿Viajas pronto?
          </h2>
          <p className="mt-1 text-slate-700">
            Cotiza tu asistencia en viaje en un minuto y paga en hasta 6 cuotas sin interés.
          </p>
        </div>
        <Link
          to="/home#cotizar"
          className="mt-4 inline-block shrink-0 rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800 sm:mt-0"
        >
          Cotiza tu viaje
        </Link>
      </aside>
      <p className="mt-10">
        <Link to="/blog" className="font-semibold text-brand-700 underline underline-offset-2">
          Volver al blog
        </Link>
      </p>
    </article>
  );
}
