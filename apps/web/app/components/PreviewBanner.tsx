/**
 * A console preview link (issue 25): what the visitor sees is a draft, or the link did not open. The shell shows it for
 * a site draft; a page whose own content a link previews (the FAQ, a legal page) shows it itself.
 */
export function PreviewBanner({ state }: { state: 'draft' | 'invalid' }) {
  return (
    <div role="status" className="bg-amber-300 px-4 py-2 text-center font-bold text-slate-900">
      {state === 'draft'
        ? 'Vista previa: contenido del borrador, aún no publicado'
        : 'Vista previa no disponible: el enlace no es válido o ya venció; pide uno nuevo en la consola.'}
    </div>
  );
}
