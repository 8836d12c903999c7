import type { ReactNode } from 'react';
import { Link } from 'react-router';

const icons = {
  search: (
    <>
      <circle cx="21" cy="21" r="14" stroke="currentColor" strokeWidth="3" />
      <path d="m31 31 11 11" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </>
  ),
  clock: (
    <>
      <circle cx="24" cy="24" r="21" stroke="currentColor" strokeWidth="3" />
      <path d="M24 13v13l8 5" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </>
  ),
  alert: (
    <>
      <circle cx="24" cy="24" r="21" stroke="currentColor" strokeWidth="3" />
      <path d="M24 13v14M24 33v2" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
    </>
  ),
  check: (
    <>
      <circle cx="24" cy="24" r="21" stroke="currentColor" strokeWidth="3" />
      <path d="m15 24 6 6 12-12" stroke="currentColor" strokeWidth="3" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
};

type NoticeProps = {
  icon: keyof typeof icons;
  title: string;
  children: ReactNode;
  action?: { to: string; label: string; reloadDocument?: boolean };
  secondary?: ReactNode;
  tone?: 'brand' | 'danger' | 'success';
};

/** A page-sized message with one clear way forward (never a blank page). */
export function Notice({ icon, title, children, action, secondary, tone = 'brand' }: NoticeProps) {
  const color = tone === 'danger' ? 'text-red-600' : tone === 'success' ? 'text-emerald-600' : 'text-brand-500';
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:py-20">
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm sm:p-10">
        <svg aria-hidden="true" viewBox="0 0 48 48" className={`mx-auto mb-5 h-12 w-12 ${color}`} fill="none">
          {icons[icon]}
        </svg>
        <h1 className="mb-3 text-2xl font-bold text-brand-700 sm:text-3xl">{title}</h1>
        <div className="mb-8 text-slate-600">{children}</div>
        <div className="flex flex-col items-center justify-center gap-3 sm:flex-row">
          {action ? (
            <Link
              to={action.to}
              reloadDocument={action.reloadDocument}
              className="inline-block rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800"
            >
              {action.label}
            </Link>
          ) : null}
          {secondary}
        </div>
      </div>
    </section>
  );
}
