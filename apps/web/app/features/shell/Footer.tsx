import { isPlainLink, whatsappHref } from '@travesia/domain/links';
import { useEffect, useRef, useState } from 'react';
import { SmartLink } from '#app/components/SmartLink.tsx';
import { contrastRatio, readableOn } from '#app/lib/contrast.ts';
import type { Footer as FooterData } from '#app/lib/website.ts';
import { NewsletterForm } from './NewsletterForm.tsx';
import { useStepAside } from './useStepAside.ts';

const socialNames: Record<string, string> = {
  facebook: 'Facebook',
  instagram: 'Instagram',
  linkedin: 'LinkedIn',
  youtube: 'YouTube',
  x: 'X',
  tiktok: 'TikTok',
};

/** The network's name from its icon file (…/instagram.svg), for the link's accessible name. */
function socialName(icon: string): string {
  const file =
    icon
      .split('/')
      .pop()
      ?.replace(/\.\w+$/, '') ?? '';
  return socialNames[file] ?? file;
}

/**
 * Spec §2 footer: menu columns (http/https and tel:+ up to 14 digits are plain links, the rest routed), social
 * icons and Suscríbete when enabled, © current year, logo. Configured text colours too faint on the configured
 * background (the brand coral on dark teal is 4.1:1) are tinted just enough to read (WCAG 1.4.3).
 */
export function Footer({
  data,
  companyId,
  floatingButtonSpace,
}: {
  data: FooterData;
  companyId: number;
  /** Leaves an empty strip at the page's end for the floating WhatsApp button, so it never covers the footer. */
  floatingButtonSpace: boolean;
}) {
  const year = new Date().getFullYear();
  return (
    <footer
      className={`mt-16 text-slate-200 ${(contrastRatio('#ffffff', data.background) ?? 0) >= 3 ? 'surface-dark' : ''}`}
      style={{ background: data.background }}
    >
      <div className="page-width grid gap-10 py-12 sm:grid-cols-2 lg:grid-cols-[repeat(3,minmax(0,1fr))_1.4fr]">
        {data.menus.map((menu) => (
          <nav key={menu.label} aria-label={menu.label}>
            <h2
              className={`mb-3 text-base text-white ${menu.bold ? 'font-bold' : 'font-medium'}`}
              style={{ color: readableOn(menu.forecolor, data.background) }}
            >
              {menu.label}
            </h2>
            <ul className="space-y-2">
              {menu.items.map((item) => (
                <li key={`${item.label}-${item.href}`}>
                  <SmartLink
                    href={item.href}
                    target={item.target}
                    isPlain={isPlainLink}
                    className={`hover:underline ${item.bold ? 'font-semibold' : ''}`}
                  >
                    <span style={{ color: readableOn(item.forecolor, data.background) }}>{item.label}</span>
                  </SmartLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <div className="space-y-6">
          {data.usaSuscription ? <NewsletterForm companyId={companyId} /> : null}
          {data.usaSocialNetwork && data.socialMedia.length > 0 ? (
            <ul className="flex flex-wrap gap-3" aria-label="Redes sociales">
              {data.socialMedia.map((social) => (
                <li key={social.href}>
                  <a
                    href={social.href}
                    target={social.target}
                    rel="noopener noreferrer"
                    className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/10 hover:bg-white/25"
                    aria-label={socialName(social.icon)}
                  >
                    <img src={social.icon} alt="" loading="lazy" width={22} height={22} className="h-5.5 w-5.5" />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
      <div className="border-t border-white/10">
        <div
          className={`page-width flex flex-col items-start gap-4 pt-6 text-sm sm:flex-row sm:items-center ${floatingButtonSpace ? 'pb-24' : 'pb-6'}`}
        >
          <img src={data.logo} alt="Travesía" loading="lazy" width={140} height={35} className="h-8 w-auto" />
          <p>
            © {year} {data.copyright}
          </p>
        </div>
      </div>
    </footer>
  );
}

/**
 * WhatsApp button opening a chat with the configured number, leading plus removed. The spec's 125×125 image is drawn
 * at 56 px. From 1280 px up it floats in the margin beside the content column, where nothing lies under it. Narrower,
 * the server's page has it wait at the page's end, over the footer's empty strip (Footer's floatingButtonSpace); once
 * the page runs its JavaScript it floats in the corner too, one tap away, and steps aside (useStepAside) while a field
 * has focus or whenever a control of the page lies under it, so it never hides what the visitor is using.
 */
export function WhatsAppButton({ number }: { number: string }) {
  const button = useRef<HTMLAnchorElement>(null);
  const [floating, setFloating] = useState(false);
  useEffect(() => {
    const narrow = window.matchMedia('(max-width: 1279.98px)');
    const follow = () => setFloating(narrow.matches);
    follow();
    narrow.addEventListener('change', follow);
    return () => narrow.removeEventListener('change', follow);
  }, []);
  const aside = useStepAside(button, floating);
  const position = floating
    ? `fixed right-3 bottom-3 transition-opacity duration-150 ${aside ? 'invisible opacity-0' : 'opacity-100'}`
    : 'absolute right-3 bottom-5 xl:fixed xl:bottom-3';
  return (
    <a
      ref={button}
      href={whatsappHref(number)}
      target="_blank"
      rel="noopener noreferrer"
      className={`${position} z-30 h-14 w-14 drop-shadow-lg hover:scale-105`}
      aria-label="Escríbenos por WhatsApp"
      data-testid="whatsapp-button"
      data-floating={floating ? (aside ? 'aside' : 'shown') : undefined}
    >
      <img src="/img/whatsapp.svg" alt="" loading="lazy" width={125} height={125} className="h-full w-full" />
    </a>
  );
}
