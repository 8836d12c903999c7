import { useEffect, useState } from 'react';

/** «Copiar» `text` to the clipboard, shown only once scripts run and the clipboard is there; says when it is done. */
export function CopyButton({ text, label = 'Copiar' }: { text: string; label?: string }) {
  const [available, setAvailable] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setAvailable(typeof navigator !== 'undefined' && !!navigator.clipboard), []);
  if (!available) return null;
  return (
    <>
      <button
        type="button"
        className="button-secondary"
        onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}
      >
        {label}
      </button>
      <span role="status" className="text-sm text-green-900">
        {copied ? 'Copiado.' : ''}
      </span>
    </>
  );
}
