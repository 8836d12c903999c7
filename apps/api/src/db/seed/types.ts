import type { BlogSeed } from '#app/modules/blog/service.ts';
import type { CompanyDocuments } from '#app/modules/company/schemas.ts';
import type { LegalPageSeed } from '#app/modules/legal/service.ts';

/** Everything one company needs to open its store; the demo company is one value of this type. */
export type CompanySeed = {
  company: {
    id: number;
    name: string;
    legalName: string;
    rut: string;
    address: string;
    /** The seller's contact for consumers (Ley 19.496), shown on /informacion-legal. */
    contactEmail: string | null;
    contactPhone: string | null;
  };
  blog: BlogSeed;
  legalPages: LegalPageSeed[];
  /** The feature flags document is written by the console only (until then: the server configuration's). */
  documents: Omit<CompanyDocuments, 'features'> & Partial<Pick<CompanyDocuments, 'features'>>;
  origins: { id: number; label: string }[];
  modalities: {
    id: number;
    code: 'single-trip' | 'annual-multi-trip' | 'long-stay';
    label: string;
    addDays: number;
    returnDateEnabled: boolean;
    returnAddDays: number;
    minDays: number;
    maxDays: number;
  }[];
  countries: { id: number; isoCode: string; label: string }[];
  destinations: { id: number; code: string; label: string; modalityIds: number[]; countryIsoCodes: string[] }[];
  passengerTypes: { id: number; label: string; ageFrom: number; ageTo: number }[];
  products: {
    id: number;
    code: string;
    label: string;
    passengerTypeIds: number[];
    modalityIds: number[];
    rating: 'daily' | 'flat';
    image: string;
    imageSmall: string;
    titleColor: string;
    color: string;
    bestOptionLabel: string | null;
    bestOptionColor: string | null;
    arrowColor: string | null;
    isBestSeller: boolean;
    medicalLimitUsd: number;
    promotionBp: number;
    enableTax: boolean;
    taxBp: number;
    /** «Para quién» and why it carries IVA or not: the plan card's lines (issue 25, issue 27 §2). */
    audience?: string;
    taxReason?: string;
    /** `minDays`: the trip length the rate applies from (default 1: one price for every length). */
    rates: { destinationId: number; passengerTypeId: number; minDays?: number; rateCents: number }[];
    benefits: { label: string; value: string; isPriority: boolean }[];
  }[];
  discountCodes: { code: string; percentBp: number; validFrom: string; validTo: string }[];
  /**
   * Add-ons (issue 27 §1): priced per traveller per day (for every plan, or per plan: `planPrices`, plan id → cents)
   * or as a percent of the plan; empty lists mean «all». The covid upgrade is the add-on `covid`, its plan prices the
   * plans' covid fees; a company seeded without one gets it offered with no plan.
   */
  addOns: {
    code: string;
    name: string;
    description: string;
    benefits: { label: string; value: string }[];
    pricing: 'daily' | 'percent';
    priceCentsPerDay: number | null;
    planPercentBp: number | null;
    passengerTypeIds: number[];
    modalityIds: number[];
    destinationIds: number[];
    productIds: number[];
    planPrices: Record<string, number>;
    buyableAfterPurchase: boolean;
  }[];
  exchangeRate: { fromCurrency: 'USD'; toCurrency: 'CLP'; rate: string };
  faqs: { category: string; question: string; answer: string }[];
  subjects: { id: number; label: string }[];
  contactInfos: {
    label: string;
    phone: string;
    whatsapp: string | null;
    icon: string;
    isEmergency: boolean;
    isSaleContact: boolean;
  }[];
  contacts: {
    category: string;
    label: string;
    isEmergency: boolean;
    isSaleContact: boolean;
    isPrioritized: boolean;
    phones: string[];
    whatsappPhone1: string | null;
    whatsappPhone2: string | null;
    emails: string[];
    urlHref: string | null;
    urlLabel: string | null;
    banner: string | null;
  }[];
  paymentGateways: { id: string; name: string; logo: string; url: string }[];
};
