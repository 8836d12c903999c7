import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { useEffect, useRef, useState } from 'react';
import { data, Form, Link, useActionData, useFetcher, useLoaderData, useNavigation } from 'react-router';
import { CsrfField, TextField } from '#app/components/fields.tsx';
import { Notice } from '#app/components/Notice.tsx';
import {
  DraftLine,
  DraftPublishHistory,
  FieldErrorList,
  ResultNotice,
  ScheduledNotice,
} from '#app/components/Publishing.tsx';
import {
  type BlogCategory,
  type BlogItem,
  type BlogResult,
  blogEditors,
  blogFieldLabels,
  blogFromForm,
  withImageLine,
} from '#app/features/blog.ts';
import type { Publication } from '#app/features/publishing.ts';
import { callApi } from '#app/lib/api.server.ts';
import { useConsole } from '#app/lib/console.ts';
import { chosenFile, formText } from '#app/lib/form.server.ts';
import { publishingAction, refused, saveDraftOf } from '#app/lib/publishing.server.ts';
import { requireOperator } from '#app/lib/session.server.ts';
import { pageTitle } from '#app/lib/title.ts';
import type { Route } from './+types/blog-articulo';
import { CategoryField } from './blog.tsx';

export const meta: Route.MetaFunction = () => [{ title: pageTitle('Un artículo del blog') }];

export type BlogPostData = {
  item: BlogItem | null;
  categories: BlogCategory[];
  history: Publication[];
  error?: string;
};

const postPath = (id: string) => `/blog/${encodeURIComponent(id)}`;

export async function loader({ request, context, params }: Route.LoaderArgs): Promise<BlogPostData> {
  await requireOperator(context, request, blogEditors);
  const base = postPath(params.id);
  const [item, list, history] = await Promise.all([
    callApi<BlogItem>(context, request, base),
    callApi<{ categories: BlogCategory[] }>(context, request, '/blog-posts'),
    callApi<{ publications: Publication[] }>(context, request, `${base}/history`),
  ]);
  if (!item.ok) return { item: null, categories: [], history: [], error: item.error.message };
  return {
    item: item.data,
    categories: list.ok ? list.data.categories : [],
    history: history.ok ? history.data.publications : [],
  };
}

/** The largest form the console reads (two images of 5 MB and the text): more is refused unread. */
const maxFormBytes = 11 * 1024 * 1024;

/**
 * «Vista previa del texto» (the Markdown as the store will show it, also what the live preview fetches), «Guardar
 * borrador» (after uploading a new cover or an image for the text), or one of the publishing model's actions.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (Number(request.headers.get('content-length') ?? 0) > maxFormBytes) {
    return refused('Las imágenes pesan demasiado: hasta 5 MB cada una.', 413);
  }
  const form = await request.formData();
  const base = postPath(params.id);
  const intent = formText(form, 'intent');
  const csrfToken = formText(form, 'csrf');
  if (intent === 'vista-texto') {
    const markdown = formText(form, 'markdown');
    const answer = await callApi<{ html: string }>(context, request, '/blog-markdown', {
      method: 'POST',
      body: { markdown },
      csrfToken,
    });
    if (!answer.ok) return refused(answer.error.message, answer.status);
    // Sanitised again where it is shown, like the store does.
    const result: BlogResult = { ok: true, message: '', previewHtml: sanitizeHtml(answer.data.html) };
    return form.has('title') ? { ...result, body: blogFromForm(form) } : result;
  }
  if (intent === 'guardar') {
    const body = blogFromForm(form);
    const upload = (file: File) =>
      callApi<{ url: string; markdown: string }>(
        context,
        request,
        `/blog-images?nombre=${encodeURIComponent(file.name || 'imagen')}`,
        { method: 'POST', file, csrfToken },
      );
    for (const field of ['portada-archivo', 'imagen-archivo'] as const) {
      const file = chosenFile(form, field);
      if (!file) continue;
      const answer = await upload(file);
      if (!answer.ok) {
        const errors = { [field]: answer.error.message };
        return data<BlogResult>({ ok: false, message: answer.error.message, errors, body }, answer.status);
      }
      if (field === 'portada-archivo') body.image = answer.data.url;
      else body.markdown = withImageLine(body.markdown, answer.data.markdown);
    }
    const saved = await saveDraftOf(context, request, base, form, body);
    // A refused draft comes back to the form as it was posted (with the uploads' paths), its fields marked.
    return 'init' in saved ? data<BlogResult>({ ...saved.data, body }, saved.init ?? undefined) : saved;
  }
  const done = await publishingAction(context, request, base, form, {
    published: 'Artículo publicado: la tienda ya lo muestra así.',
    rolledBack: 'Listo: la tienda volvió a esa versión del artículo (queda en el historial).',
  });
  return done ?? refused('Acción desconocida.', 400);
}

/** The text's preview, fetched as the operator types (a pause of half a second), or by its button without scripts. */
function MarkdownEditor({
  markdown,
  error,
  csrfToken,
  initialHtml,
}: {
  markdown: string;
  error: string | undefined;
  csrfToken: string;
  initialHtml: string | undefined;
}) {
  const fetcher = useFetcher<BlogResult>();
  const [text, setText] = useState(markdown);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const { submit } = fetcher;
  useEffect(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      submit({ intent: 'vista-texto', markdown: text, csrf: csrfToken }, { method: 'post' });
    }, 500);
    return () => clearTimeout(timer.current);
  }, [text, csrfToken, submit]);
  const html = fetcher.data?.previewHtml ?? initialHtml;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div>
        <label htmlFor="campo-markdown" className="field-label">
          Texto (Markdown)
        </label>
        <textarea
          id="campo-markdown"
          name="markdown"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={18}
          className="field-input font-mono text-sm"
          aria-invalid={error ? true : undefined}
          aria-describedby={`campo-markdown-ayuda${error ? ' campo-markdown-error' : ''}`}
        />
        <p id="campo-markdown-ayuda" className="field-hint">
          ## Subtítulo, **negrita**, *cursiva*, - listas, [enlace](https://…), ![descripción](/api/blog-images/…). El
          HTML que no sea contenido (scripts, estilos, eventos) se elimina al guardar.
        </p>
        {error ? (
          <p id="campo-markdown-error" className="field-error">
            {error}
          </p>
        ) : null}
        <button type="submit" name="intent" value="vista-texto" className="button-secondary mt-2">
          Ver vista previa del texto
        </button>
      </div>
      <section aria-labelledby="vista-texto" aria-live="polite" className="min-w-0">
        <h2 id="vista-texto" className="field-label">
          Vista previa {fetcher.state !== 'idle' ? '(actualizando…)' : ''}
        </h2>
        <div
          className="markdown-preview max-h-[32rem] overflow-auto rounded border border-slate-300 bg-white p-3 text-sm break-words"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by the API and sanitised again by this page's action
          dangerouslySetInnerHTML={{ __html: html ?? '<p>Escribe para ver cómo queda.</p>' }}
        />
      </section>
    </div>
  );
}

export function BlogPostView({
  item,
  categories,
  history,
  error,
  csrfToken,
  result,
  busy = false,
}: BlogPostData & { csrfToken: string; result?: BlogResult | undefined; busy?: boolean }) {
  if (!item) {
    return (
      <section aria-labelledby="titulo" className="space-y-4">
        <Link to="/blog" className="text-sm underline">
          ← Todos los artículos
        </Link>
        <h1 id="titulo" className="text-xl font-semibold">
          Artículo
        </h1>
        <Notice tone="error">{error ?? 'No pudimos cargar el artículo.'}</Notice>
      </section>
    );
  }
  const shown = result?.body ?? item.draft?.body ?? item.live;
  const version = item.draft?.version ?? 0;
  const errors = result?.errors ?? {};
  const besideFields = new Set(Object.keys(blogFieldLabels));
  const otherErrors = Object.fromEntries(Object.entries(errors).filter(([field]) => !besideFields.has(field)));
  return (
    <section aria-labelledby="titulo" className="space-y-6">
      <div>
        <Link to="/blog" className="text-sm underline">
          ← Todos los artículos
        </Link>
        <h1 id="titulo" className="text-xl font-semibold break-words">
          {item.live.title}
          {item.live.visible ? '' : ' (no se muestra)'}
        </h1>
        <DraftLine draft={item.draft} />
      </div>
      {result?.message ? <ResultNotice result={result} /> : null}
      <FieldErrorList errors={otherErrors} nameOf={(field) => blogFieldLabels[field] ?? field} />
      <ScheduledNotice scheduled={item.scheduled} canEdit csrfToken={csrfToken} busy={busy} />

      <Form
        // A new version is a new form: the files chosen for the last save are not sent again.
        key={version}
        method="post"
        encType="multipart/form-data"
        className="space-y-4"
        aria-labelledby="titulo"
      >
        <CsrfField token={csrfToken} />
        <input type="hidden" name="version" value={version} />
        <input type="hidden" name="image" value={shown.image ?? ''} />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField name="title" label="Título" defaultValue={shown.title} maxLength={160} error={errors.title} />
          <TextField
            name="slug"
            label="Slug (la dirección del artículo)"
            defaultValue={shown.slug}
            maxLength={120}
            error={errors.slug}
            hint="Minúsculas sin tildes, números y guiones."
          />
          <CategoryField
            id="campo-categoryId"
            categories={categories}
            error={errors.categoryId}
            defaultValue={shown.categoryId}
          />
          <TextField
            name="canonicalUrl"
            label="URL canónica (opcional)"
            type="url"
            defaultValue={shown.canonicalUrl ?? ''}
            error={errors.canonicalUrl}
            hint="Solo si el artículo se publicó antes en otro sitio: https://…"
          />
          <div className="sm:col-span-2">
            <TextField
              name="summary"
              label="Descripción (la que muestran los buscadores)"
              defaultValue={shown.summary}
              maxLength={300}
              error={errors.summary}
            />
          </div>
        </div>
        <fieldset className="space-y-2">
          <legend className="field-label">Imágenes</legend>
          {shown.image ? (
            <img
              src={shown.image}
              alt="Portada actual"
              width={320}
              height={180}
              className="h-[180px] w-[320px] max-w-full rounded object-cover"
            />
          ) : (
            <p className="text-sm text-slate-700">Sin portada.</p>
          )}
          {shown.image ? (
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="sin-portada" />
              Quitar la portada
            </label>
          ) : null}
          {errors.image ? <p className="field-error">{errors.image}</p> : null}
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              name="portada-archivo"
              label="Nueva portada (PNG o JPG, hasta 5 MB)"
              type="file"
              accept="image/png,image/jpeg"
              error={errors['portada-archivo']}
            />
            <TextField
              name="imagen-archivo"
              label="Imagen para el texto (se agrega al final; muévela donde quieras)"
              type="file"
              accept="image/png,image/jpeg"
              error={errors['imagen-archivo']}
            />
          </div>
        </fieldset>
        <MarkdownEditor
          key={`${version}-${shown.markdown.length}`}
          markdown={shown.markdown}
          error={errors.markdown}
          csrfToken={csrfToken}
          initialHtml={result?.previewHtml}
        />
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="visible" defaultChecked={shown.visible} />
          Mostrar en la tienda al publicar (desmárcalo y publica para retirar el artículo)
        </label>
        <button type="submit" name="intent" value="guardar" className="button-primary" disabled={busy}>
          Guardar borrador
        </button>
      </Form>

      <DraftPublishHistory item={item} version={version} history={history} csrfToken={csrfToken} busy={busy} preview />
    </section>
  );
}

export default function BlogPostPage() {
  const { csrfToken } = useConsole();
  return (
    <BlogPostView
      {...useLoaderData<typeof loader>()}
      csrfToken={csrfToken}
      result={useActionData<typeof action>()}
      busy={useNavigation().state !== 'idle'}
    />
  );
}
