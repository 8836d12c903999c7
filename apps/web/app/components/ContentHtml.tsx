/**
 * Stored content HTML (customHtml, values, FAQ answers, blog and legal bodies), styled for reading. `html` MUST be
 * what `sanitizeHtml` (@travesia/domain/sanitize-html) returned in the loader: this component trusts it as it is.
 */
export function ContentHtml({ html, className = '', id }: { html: string; className?: string; id?: string }) {
  return (
    <div
      id={id}
      className={`space-y-3 leading-relaxed [&_a]:font-semibold [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-brand-700 [&_h3]:mt-3 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-brand-700 [&_h4]:font-semibold [&_img]:h-auto [&_img]:max-w-full [&_li]:my-1 [&_ol]:list-decimal [&_ol]:pl-6 [&_strong]:font-semibold [&_table]:w-full [&_table]:border-collapse [&_td]:border [&_td]:border-slate-200 [&_td]:p-2 [&_th]:border [&_th]:border-slate-200 [&_th]:bg-slate-50 [&_th]:p-2 [&_th]:text-left [&_ul]:list-disc [&_ul]:pl-6 ${className}`}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server by sanitizeHtml (allow-list)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
