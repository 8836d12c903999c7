import { sanitizeHtml } from '@travesia/domain/sanitize-html';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type LoadContext, pageError } from '#app/lib/api-answer.server.ts';

/** An image address from stored content: https, http or a path of our own; anything else shows no image. */
export function safeImageSrc(src: string): string | null {
  const value = src.trim();
  if (/^\/(?!\/)/.test(value)) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The map embedded on the page: an https address only (an iframe of anything else is not shown). */
export function safeEmbedUrl(src: string): string | null {
  try {
    const url = new URL(src.trim());
    return url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export type Banner = { label: string; banner: string | null };
export type ProviderLogo = { logo: string; label: string };

export type AboutData = {
  name: string;
  address: string;
  intro: { text: string; html: string; image: string | null };
  history: { text: string; html: string };
  providers: { text: string; html: string; logosTitle: string; logosSubtitle: string; logos: ProviderLogo[] };
  team: { text: string; html: string };
  mission: Banner | null;
  vision: Banner | null;
  /** Sanitised HTML of the values, or null when the company's values flag (useValuesCare) is off. */
  valuesHtml: string | null;
  map: { embedUrl: string; latitude: number; longitude: number } | null;
};

/**
 * «Quiénes somos»: the company info (spec §3 Company), its mission and vision (spec §7), every stored HTML part
 * sanitised here on the server. A mission or vision the company has not configured is left out of the page.
 */
export async function loadAbout(context: LoadContext): Promise<AboutData> {
  const api = serverApi(context);
  const path = { companyId: configuredCompanyId() };
  const [info, mission, vision] = await Promise.all([
    api.GET('/companies/{companyId}', { params: { path } }),
    api.GET('/companies/{companyId}/mission', { params: { path } }),
    api.GET('/companies/{companyId}/vision', { params: { path } }),
  ]);
  const company = dataOrThrow(info, 'La información de la compañía');
  const banner = (answer: typeof mission): Banner | null => {
    if (answer.data) return { label: answer.data.label, banner: safeImageSrc(answer.data.banner) };
    if (answer.response.status === 404) return null;
    throw pageError(503, 'No pudimos cargar la información de la compañía.');
  };
  const embedUrl = safeEmbedUrl(company.map.embedUrl);
  return {
    name: company.name,
    address: company.address,
    intro: {
      text: company.description.descriptions,
      html: sanitizeHtml(company.description.customHtml),
      image: safeImageSrc(company.description.image),
    },
    history: {
      text: company.descriptionCompany.descriptionCom,
      html: sanitizeHtml(company.descriptionCompany.customHtml),
    },
    providers: {
      text: company.providers.descriptionProviders,
      html: sanitizeHtml(company.providers.customHtml),
      logosTitle: company.providers.descriptionsLogoProvider,
      logosSubtitle: company.descriptionsLogoProviders,
      logos: company.logos.flatMap(({ logo, label }) => {
        const src = safeImageSrc(logo);
        return src ? [{ logo: src, label }] : [];
      }),
    },
    team: { text: company.workTeam.descriptionWorkTeam, html: sanitizeHtml(company.workTeam.customHtml) },
    mission: banner(mission),
    vision: banner(vision),
    valuesHtml: company.useValuesCare ? sanitizeHtml(company.valuesCare.html) : null,
    map: embedUrl ? { embedUrl, latitude: company.map.latitude, longitude: company.map.longitude } : null,
  };
}
