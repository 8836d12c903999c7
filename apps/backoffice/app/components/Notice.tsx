import type { ReactNode } from 'react';

const tones = {
  error: 'border-red-700 bg-red-50 text-red-900',
  success: 'border-green-700 bg-green-50 text-green-900',
  info: 'border-brand-600 bg-brand-50 text-slate-900',
} as const;

/**
 * A message about the page's last action: errors are announced at once (role=alert), the rest politely
 * (role=status).
 */
export function Notice({ tone, children }: { tone: keyof typeof tones; children: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`rounded border-l-4 p-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}

/** Above a form whose save another operator's came before: what happened, and what they changed, one line a field. */
export function StaleChanges({ message, changes }: { message: string; changes: readonly string[] | undefined }) {
  if (!changes || changes.length === 0) return null;
  return (
    <div role="alert" className="rounded border border-amber-400 bg-amber-50 p-3 text-sm">
      <p className="font-semibold">{message}</p>
      <ul className="list-disc pl-5">
        {changes.map((change) => (
          <li key={change}>{change}</li>
        ))}
      </ul>
    </div>
  );
}
