import type { ReactNode } from 'react';

export function Rows({ rows }: { rows: { term: string; detail: ReactNode }[] }) {
  return (
    <dl className="grid gap-2 text-sm">
      {rows.map((row) => (
        <div key={row.term} className="flex justify-between gap-4 border-b border-slate-100 pb-2 last:border-0">
          <dt className="text-slate-600">{row.term}</dt>
          <dd className="text-right font-semibold break-words text-slate-900">{row.detail}</dd>
        </div>
      ))}
    </dl>
  );
}

export function Card({
  id,
  title,
  className,
  children,
}: {
  id: string;
  title: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className={`rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6 ${className ?? ''}`}
    >
      <h2 id={id} className="mb-3 text-lg font-bold text-brand-700">
        {title}
      </h2>
      {children}
    </section>
  );
}
