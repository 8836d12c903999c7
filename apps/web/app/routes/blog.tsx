import { BlogList } from '#app/features/blog/BlogList.tsx';
import { loadBlogList } from '#app/features/blog/blog.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/blog';

export function loader({ context, request }: Route.LoaderArgs) {
  return loadBlogList(context, request);
}

export const meta = ({ data }: Route.MetaArgs) => {
  const category = data?.categories.find((c) => c.slug === data.category);
  return [
    ...pageTitle(category ? `Blog: ${category.label}` : 'Blog'),
    {
      name: 'description',
      content:
        'Consejos de viaje, requisitos de entrada como los del espacio Schengen y qué cubre una asistencia en viaje, en el blog de Travesía.',
    },
  ];
};

export default function Blog({ loaderData }: Route.ComponentProps) {
  return <BlogList {...loaderData} />;
}
