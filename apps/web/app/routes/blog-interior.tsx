import { BlogArticle } from '#app/features/blog/BlogArticle.tsx';
import { loadBlogArticle } from '#app/features/blog/blog.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/blog-interior';

export function loader({ context, request, params }: Route.LoaderArgs) {
  return loadBlogArticle(context, request, params);
}

export const meta = ({ data }: Route.MetaArgs) =>
  data
    ? [
        ...pageTitle(data.title),
        { name: 'description', content: data.summary },
        { tagName: 'link', rel: 'canonical', href: data.canonicalUrl },
        ...(data.preview ? [{ name: 'robots', content: 'noindex' }] : []),
      ]
    : pageTitle('Blog');

export default function BlogArticlePage({ loaderData }: Route.ComponentProps) {
  return <BlogArticle post={loaderData} />;
}
