import { Link } from 'react-router';
import { ContentHtml } from '#app/components/ContentHtml.tsx';
import { type BlogArticleData, publicationDate } from './types.ts';

/** /blog-interior/{id}/{title}: the article, its body as the loader sanitised it. */
export function BlogArticle({ post }: { post: BlogArticleData }) {
  return (
    <article className="page-width py-10 *:max-w-3xl sm:py-14">
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
      <p className="mt-10">
        <Link to="/blog" className="font-semibold text-brand-700 underline underline-offset-2">
          Volver al blog
        </Link>
      </p>
    </article>
  );
}
