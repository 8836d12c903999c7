/**
 * A console preview link of a page's own content (the FAQ, a legal page; issue 25): the draft is shown, or the link
 * did not open and the text in force is. The site's own previews are the shell's banner (root.tsx); this one is
 * imported by those pages only, so the home page's JavaScript does not carry it.
 */
export function PreviewNotice({ state }: { state: 'draft' | 'invalid' }) {
  return (
    <div role="status" className="bg-amber-300 px-4 py-2 text-center font-bold text-slate-900">
      {state === 'draft'
        ? 'Vista previa: contenido del borrador, aún no publicado'
        : 'Vista previa no disponible: el enlace no es válido o ya venció; pide uno nuevo en la consola.'}
    </div>
  );
}
