import { type CertificateSearchType, certificateKeyword, certificateSearchTypes } from '@travesia/domain/rules';
import type { WebsiteParameters } from '#app/lib/website.ts';

/** The three search choices of spec §2, in order: the country's identity number, passport or similar, e-mail. */
export type SearchChoice = { type: CertificateSearchType; label: string };

type CertificateSettings = NonNullable<WebsiteParameters['configuration']['certificates']>;

/** What the configuration leaves out: RUT (spec §9: «Rut, Pasaporte, Email»), the terms page and the FAQ. */
export const defaultCertificateSettings: CertificateSettings = {
  identityType: 'rut',
  generalConditionsUrl: '/terminos',
  activationProcedureUrl: '/faq',
};

export function certificateSettings(website: WebsiteParameters): CertificateSettings {
  return website.configuration.certificates ?? defaultCertificateSettings;
}

/** The choices, labelled as the messages name them (RUT or DNI/CE, Pasaporte, Email). */
export function searchChoices(settings: CertificateSettings): SearchChoice[] {
  return ([settings.identityType, 'passport', 'email'] as const).map((type) => ({
    type,
    label: certificateSearchTypes[type].label,
  }));
}

/** Spec §2: the search opens on Email. */
export const defaultSearchType: CertificateSearchType = 'email';

export const isSearchType = (value: unknown): value is CertificateSearchType =>
  typeof value === 'string' && value in certificateSearchTypes;

/** The keyword's problem for a type (spec §5: «Campo Obligatorio», «Ingrese un {type} valido»), or null. */
export function keywordError(type: CertificateSearchType, keyword: string): string | null {
  const result = certificateKeyword(type).safeParse(keyword);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Campo Obligatorio');
}

export const placeholderOf = (label: string) => `Ingresa ${label} del titular`;
