import { Form, Link, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import { type BlogCategory, type BlogListItem, blogEditors, blogStateLabels } from '#app/features/blog.ts';
import { callApi, fieldError } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { formatDateTime } from '#app/lib/format.ts';
import { refused } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/blog';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Blog') }];

export type BlogListData = { posts: BlogListItem[]; categories: BlogCategory[]; error?: string };

export async function loader({ request, context }: Route.LoaderArgs): Promise<BlogListData> {
  await requireOperator(context, request, blogEditors);
  const answer = await callApi<{ posts: BlogListItem[]; categories: BlogCategory[] }>(context, request, '/blog-posts');
  if (!answer.ok) return { posts: [], categories: [], error: answer.error.message };
  return answer.data;
}

/** «Nuevo artículo»: the API makes the post (not shown) and the editor opens on it. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const answer = await callApi<{ id: number }>(context, request, '/blog-posts', {
    method: 'POST',
    body: { title: formText(form, 'title').trim(), categoryId: Number(formText(form, 'categoryId')) },
    csrfToken: formText(form, 'csrf'),
  });
  if (!answer.ok) {
    const errors = {
      ...(fieldError(answer.error, 'title') ? { title: fieldError(answer.error, 'title') as string } : {}),
      ...(fieldError(answer.error, 'categoryId')
        ? { categoryId: fieldError(answer.error, 'categoryId') as string }
        : {}),
    };
    return refused(answer.error.message, answer.status, errors);
  }
  return redirect(`/blog/${answer.data.id}`);
}

/** The post's category, a choice among the company's (its id is what the API takes). */
export function CategoryField({
  id,
  categories,
  error,
  defaultValue,
}: {
  id: string;
  categories: BlogCategory[];
  error: string | undefined;
  defaultValue?: number;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
        Categoría
      </label>
      <select
        id={id}
        name="categoryId"
        defaultValue={defaultValue === undefined ? undefined : String(defaultValue)}
        className="field-input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        {categories.map((category) => (
          <option key={category.id} value={category.id}>
            {category.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function BlogListView({
  posts,
  categories,
  error,
  csrfToken,
  result,
  busy = false,
}: BlogListData & {
  csrfToken: string;
  result?: { ok: boolean; message: string; errors?: Record<string, string> } | undefined;
  busy?: boolean;
}) {
  const errors = result?.errors ?? {};
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <h1 id="titulo" className="text-xl font-semibold">
          Blog
        </h1>
        <p className="text-sm text-slate-700">
          Escribe artículos en Markdown, con imágenes; quedan en borrador hasta que los publicas (ahora o a una hora).
          Puedes verlos antes en la tienda, retirarlos y volver a una versión anterior.
        </p>
      </div>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {result && !result.ok ? <Notice tone="error">{result.message}</Notice> : null}

      <Form
        method="post"
        className="grid gap-3 rounded border border-slate-300 bg-white p-3 sm:grid-cols-[1fr_14rem_auto] sm:items-end"
        aria-labelledby="nuevo"
      >
        <h2 id="nuevo" className="font-semibold sm:col-span-3">
          Nuevo artículo
        </h2>
        <CsrfField token={csrfToken} />
        <TextField name="title" label="Título" required maxLength={160} error={errors.title} />
        <CategoryField id="campo-categoria-nueva" categories={categories} error={errors.categoryId} />
        <button type="submit" className="button-primary" disabled={busy}>
          Crear borrador
        </button>
      </Form>

      {posts.length === 0 ? (
        <p className="text-sm text-slate-700">Aún no hay artículos.</p>
      ) : (
        <TableWrap label="Artículos">
          <table className="data-table">
            <caption className="sr-only">Artículos del blog</caption>
            <thead>
              <tr>
                <th scope="col">Título</th>
                <th scope="col">Categoría</th>
                <th scope="col">Estado</th>
                <th scope="col">Fecha</th>
              </tr>
            </thead>
            <tbody>
              {posts.map((post) => (
                <tr key={post.id}>
                  <td>
                    <Link to={`/blog/${post.id}`} className="underline">
                      {post.title}
                    </Link>
                  </td>
                  <td>{post.category}</td>
                  <td>{blogStateLabels[post.state]}</td>
                  <td>{post.publishedAt ? formatDateTime(post.publishedAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

export default function BlogPage() {
  const { csrfToken } = useConsole();
  return (
    <BlogListView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={useNavigation().state !== 'idle'}
    />
  );
}
