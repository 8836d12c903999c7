import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { CsrfField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import {
  DraftLine,
  DraftPublishHistory,
  FieldErrorList,
  ResultNotice,
  ScheduledNotice,
} from '#app/components/Publishing.tsx';
import { TableWrap } from '#app/components/TableWrap.tsx';
import {
  type BlogBody,
  type BlogPost,
  blogEditors,
  blogFieldInWords,
  blogPath,
  postFromForm,
  postKeyOf,
  postState,
  withPost,
} from '#app/features/blog.ts';
import type { Publication, PublishingItem, PublishingResult } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { formText } from '#app/lib/form.server.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/blog';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Blog') }];

type Category = { id: number; label: string };

export type BlogData = {
  item: PublishingItem<BlogBody> | null;
  categories: Category[];
  history: Publication[];
  /** The post the URL opens: its place in the draft (null: a new one), or undefined for the list. */
  editing?: { index: number | null; post: BlogPost };
  /** Chile's wall clock now (YYYY-MM-DDTHH:mm), to say which posts are scheduled. */
  nowChile: string;
  error?: string;
};

export type BlogResult = PublishingResult & { previewHtml?: string; post?: BlogPost };

const chileNow = () =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'America/Santiago',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
    .format(new Date())
    .replace(' ', 'T');

export async function loader({ request, context }: Route.LoaderArgs): Promise<BlogData> {
  await requireOperator(context, request, blogEditors);
  const [item, categories, history] = await Promise.all([
    callApi<PublishingItem<BlogBody>>(context, request, blogPath()),
    callApi<{ categories: Category[] }>(context, request, '/blog-categories'),
    callApi<{ publications: Publication[] }>(context, request, blogPath('/history')),
  ]);
  const nowChile = chileNow();
  if (!item.ok) return { item: null, categories: [], history: [], nowChile, error: item.error.message };
  const shown = item.data.draft?.body ?? item.data.live;
  const key = postKeyOf(new URL(request.url).searchParams.get('articulo'));
  const list = categories.ok ? categories.data.categories : [];
  let editing: BlogData['editing'];
  if (key === 'nuevo') {
    editing = {
      index: null,
      post: {
        id: null,
        categoryId: list[0]?.id ?? 0,
        title: '',
        summary: '',
        image: null,
        markdown: '',
        publishAtChile: nowChile,
      },
    };
  } else if (key !== null) {
    const index = shown.posts.findIndex((post) => post.id === key);
    const post = shown.posts[index];
    if (post) editing = { index, post };
  }
  return {
    item: item.data,
    categories: list,
    history: history.ok ? history.data.publications : [],
    nowChile,
    ...(editing ? { editing } : {}),
  };
}

/**
 * Save the post into the draft (or remove it), preview its text as the store will show it, publish, roll back.
 * The post's place in the body is found again from the draft the API holds, so two posts edited in turn both stay.
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireOperator(context, request, blogEditors);
  const form = await request.formData();
  const intent = formText(form, 'intent');
  const key = postKeyOf(new URL(request.url).searchParams.get('articulo'));
  if (intent === 'previsualizar') {
    const post = postFromForm(form, typeof key === 'number' ? key : null);
    const answer = await callApi<{ html: string }>(context, request, '/blog-preview', {
      method: 'POST',
      body: { markdown: post.markdown },
      csrfToken: formText(form, 'csrf'),
    });
    if (!answer.ok) {
      return data<BlogResult>(
        { ok: false, message: answer.error.message, post, errors: { markdown: answer.error.errors[0]?.message ?? '' } },
        answer.status,
      );
    }
    return {
      ok: true,
      message: 'Vista previa del texto abajo: aún no se guarda.',
      previewHtml: answer.data.html,
      post,
    };
  }
  if (intent === 'guardar' || intent === 'eliminar') {
    const item = await callApi<PublishingItem<BlogBody>>(context, request, blogPath());
    if (!item.ok) return refused(item.error.message, item.status);
    const body = item.data.draft?.body ?? item.data.live;
    const index = typeof key === 'number' ? body.posts.findIndex((post) => post.id === key) : -1;
    if (intent === 'eliminar') {
      if (index < 0) return refused('Este artículo ya no está en el borrador.', 409);
      return saveDraftOf(context, request, blogPath(), form, {
        posts: body.posts.filter((_, at) => at !== index),
      });
    }
    const post = postFromForm(form, typeof key === 'number' ? key : null);
    const saved = await saveDraftOf(
      context,
      request,
      blogPath(),
      form,
      withPost(body, post, index >= 0 ? index : null),
    );
    // The API names the bad fields by the post's place in the body: the form shows them by name.
    if ('data' in saved && saved.data.errors) {
      const errors = Object.fromEntries(
        Object.entries(saved.data.errors).map(([field, message]) => [field.split('.').at(-1) ?? field, message]),
      );
      return data<BlogResult>({ ...saved.data, errors, post }, saved.init?.status ?? 400);
    }
    return saved;
  }
  return (
    (await publishingAction(context, request, blogPath(), form, {
      published: 'Blog publicado: la tienda ya muestra los artículos (los programados, a su hora).',
      rolledBack: 'Listo: el blog volvió a esa versión (queda en el historial).',
    })) ?? refused('Acción desconocida.', 400)
  );
}

function PostForm({
  editing,
  categories,
  version,
  csrfToken,
  result,
  busy,
}: {
  editing: NonNullable<BlogData['editing']>;
  categories: Category[];
  version: number;
  csrfToken: string;
  result: BlogResult | undefined;
  busy: boolean;
}) {
  const post = result?.post ?? editing.post;
  const errors = result?.errors ?? {};
  const field = (name: string) => (errors[name] ? { 'aria-invalid': true as const } : {});
  return (
    <section aria-labelledby="editor" className="space-y-3">
      <h2 id="editor" className="text-lg font-semibold">
        {editing.post.id === null ? 'Nuevo artículo' : `Editar «${editing.post.title}»`}
      </h2>
      <Form method="post" className="space-y-3" key={`${post.id ?? 'nuevo'}-${version}`}>
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <label className="block text-sm">
          <span className="field-label">Título</span>
          <input name="titulo" defaultValue={post.title} className="field-input" maxLength={200} {...field('title')} />
        </label>
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block text-sm">
            <span className="field-label">Categoría</span>
            <select name="categoria" defaultValue={post.categoryId} className="field-input">
              {categories.map((category) => (
                <option key={category.id} value={category.id}>
                  {category.label}
                </option>
              ))}
            </select>
          </label>
          <label className="block text-sm">
            <span className="field-label">Publicar el (hora de Chile; más adelante: programado)</span>
            <input
              type="datetime-local"
              name="publicar-el"
              defaultValue={post.publishAtChile}
              className="field-input"
              {...field('publishAtChile')}
            />
          </label>
        </div>
        <label className="block text-sm">
          <span className="field-label">Resumen (la tarjeta del blog y la descripción para buscadores)</span>
          <input
            name="resumen"
            defaultValue={post.summary}
            className="field-input"
            maxLength={500}
            {...field('summary')}
          />
        </label>
        <label className="block text-sm">
          <span className="field-label">Imagen (ruta de la tienda /img/blog/… o https://…; vacío: sin imagen)</span>
          <input name="imagen" defaultValue={post.image ?? ''} className="field-input" {...field('image')} />
        </label>
        <label className="block text-sm">
          <span className="field-label">Texto (Markdown: # título, **negrita**, - lista, [enlace](/cotizador))</span>
          <textarea
            name="texto"
            defaultValue={post.markdown}
            className="field-input min-h-80 font-mono text-xs"
            {...field('markdown')}
          />
        </label>
        <FieldErrorList errors={errors} nameOf={blogFieldInWords} />
        <div className="flex flex-wrap gap-2">
          <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
            Guardar en el borrador
          </button>
          <button type="submit" name="intent" value="previsualizar" className="button-secondary" disabled={busy}>
            Vista previa del texto
          </button>
          {editing.post.id !== null ? (
            <button type="submit" name="intent" value="eliminar" className="button-secondary" disabled={busy}>
              Quitar del blog
            </button>
          ) : null}
        </div>
      </Form>
      {result?.previewHtml ? (
        <section aria-labelledby="vista-texto" className="rounded border border-slate-300 bg-white p-4">
          <h3 id="vista-texto" className="mb-2 font-semibold">
            Así se verá el texto
          </h3>
          <div
            className="space-y-2 text-sm"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered and sanitised by the API with the store's allow-list (markdownToHtml)
            dangerouslySetInnerHTML={{ __html: result.previewHtml }}
          />
        </section>
      ) : null}
    </section>
  );
}

export function BlogView({
  item,
  categories,
  history,
  editing,
  nowChile,
  error,
  csrfToken,
  result,
  busy = false,
}: BlogData & { csrfToken: string; result?: BlogResult | undefined; busy?: boolean }) {
  if (!item) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <h1 id="titulo" className="text-xl font-semibold">
          Blog
        </h1>
        <Notice tone="error">{error ?? 'No pudimos cargar el blog.'}</Notice>
      </section>
    );
  }
  const shown = item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  const categoryOf = (id: number) => categories.find((category) => category.id === id)?.label ?? '—';
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <h1 id="titulo" className="text-xl font-semibold">
          Blog
        </h1>
        <p className="text-sm text-slate-700">
          Los artículos se escriben en Markdown. Guardar cambia el borrador; la tienda los muestra al publicar, y un
          artículo con fecha futura aparece solo a esa hora.
        </p>
        <DraftLine draft={item.draft} />
      </div>
      <ResultNotice result={result} />
      <ScheduledNotice scheduled={item.scheduled} canEdit csrfToken={csrfToken} busy={busy} />
      {editing ? (
        <>
          <Link to="/blog" className="text-sm underline">
            ← Todos los artículos
          </Link>
          <PostForm
            editing={editing}
            categories={categories}
            version={version}
            csrfToken={csrfToken}
            result={result}
            busy={busy}
          />
        </>
      ) : (
        <>
          <Link to="?articulo=nuevo" className="button-primary inline-block">
            Nuevo artículo
          </Link>
          <TableWrap label="Artículos del blog">
            <table className="data-table">
              <caption className="sr-only">Artículos del borrador (o publicados si no hay borrador)</caption>
              <thead>
                <tr>
                  <th scope="col">Título</th>
                  <th scope="col">Categoría</th>
                  <th scope="col">Estado</th>
                </tr>
              </thead>
              <tbody>
                {shown.posts.map((post, index) => (
                  <tr key={post.id ?? `nuevo-${index}`}>
                    <td>
                      {post.id === null ? (
                        post.title
                      ) : (
                        <Link to={`?articulo=${post.id}`} className="underline">
                          {post.title}
                        </Link>
                      )}
                    </td>
                    <td>{categoryOf(post.categoryId)}</td>
                    <td>
                      {post.id === null ? 'Nuevo en el borrador · ' : ''}
                      {postState(post, nowChile)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
      <DraftPublishHistory
        item={item}
        version={version}
        history={history}
        csrfToken={csrfToken}
        busy={busy}
        preview={false}
      />
    </section>
  );
}

export default function BlogScreen() {
  const { csrfToken } = useConsole();
  const busy = useNavigation().state !== 'idle';
  return (
    <BlogView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={busy}
    />
  );
}
