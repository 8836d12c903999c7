import { useEffect, useRef, useState } from 'react';

/** The part of Google's reCAPTCHA v2 browser API the form uses (https://developers.google.com/recaptcha/docs/display). */
type Grecaptcha = {
  render(
    container: HTMLElement,
    parameters: {
      sitekey: string;
      callback: (token: string) => void;
      'expired-callback': () => void;
      'error-callback': () => void;
      hl?: string;
      size?: 'normal' | 'compact';
    },
  ): number;
  reset(widgetId?: number): void;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    travesiaRecaptchaLoaded?: () => void;
  }
}

/** Google's script, rendered explicitly once it has loaded, in Latin-American Spanish. */
export const recaptchaScriptUrl =
  'https://www.google.com/recaptcha/api.js?render=explicit&onload=travesiaRecaptchaLoaded&hl=es-419';

let loading: Promise<Grecaptcha> | null = null;

/** Loads Google's script once per page; resolves when `grecaptcha.render` can be called. */
function loadRecaptcha(): Promise<Grecaptcha> {
  if (loading) return loading;
  loading = new Promise<Grecaptcha>((resolve, reject) => {
    window.travesiaRecaptchaLoaded = () => {
      if (window.grecaptcha) resolve(window.grecaptcha);
      else reject(new Error('reCAPTCHA did not start'));
    };
    const script = document.createElement('script');
    script.src = recaptchaScriptUrl;
    script.async = true;
    script.defer = true;
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error('reCAPTCHA could not be loaded'));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/**
 * The «No soy un robot» checkbox (reCAPTCHA v2). Reports the token when the visitor solves it and null when it
 * expires (2 minutes) or is reset; `resetKey` changing resets it (a token verifies once: after a refused send the
 * visitor ticks it again).
 */
export function Recaptcha({
  siteKey,
  onToken,
  resetKey,
  error,
  errorId,
}: {
  siteKey: string;
  onToken: (token: string | null) => void;
  resetKey: number;
  error?: string;
  errorId: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: Grecaptcha; id: number } | null>(null);
  const report = useRef(onToken);
  report.current = onToken;
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadRecaptcha()
      .then((api) => {
        const element = container.current;
        if (cancelled || !element || widget.current) return;
        const id = api.render(element, {
          sitekey: siteKey,
          hl: 'es-419',
          // The normal widget is 304 px wide: on a narrower column (a 360 px phone) the compact one fits.
          size: element.clientWidth < 304 ? 'compact' : 'normal',
          callback: (token) => report.current(token),
          'expired-callback': () => report.current(null),
          'error-callback': () => report.current(null),
        });
        widget.current = { api, id };
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [siteKey]);

  useEffect(() => {
    if (resetKey === 0 || !widget.current) return;
    widget.current.api.reset(widget.current.id);
    report.current(null);
  }, [resetKey]);

  return (
    <div className="flex flex-col gap-1">
      <div ref={container} className="min-h-[78px]" data-testid="recaptcha" />
      {failed ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          No pudimos cargar la verificación «No soy un robot». Revisa tu conexión y recarga la página.
        </p>
      ) : null}
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
