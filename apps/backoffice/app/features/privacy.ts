/** The console's «Datos personales» (issue 24, screen 7): what the API answers, and the words the page uses. */

export type SourceCount = { count: number; ids: (number | string)[] };

export type PersonalDataFindings = {
  summary: {
    sales: SourceCount;
    quotations: SourceCount;
    claims: SourceCount;
    contactRequests: SourceCount;
    subscriptions: SourceCount;
  };
  sales: { id: number; status: string; createdAt: string; href: string }[];
  claims: { id: number; number: string; status: string; closed: boolean }[];
  contactRequests: { id: number; subject: string; createdAt: string }[];
  subscriptions: { id: number; email: string; confirmedAt: string | null }[];
};

export type PersonalDataRequest = {
  id: number;
  subject: string;
  kind: 'access' | 'rectification' | 'erasure';
  state: 'open' | 'answered';
  openedBy: string;
  handledBy: string | null;
  answer: string | null;
  createdAt: string;
  answeredAt: string | null;
};

export const kindLabels: Record<PersonalDataRequest['kind'], string> = {
  access: 'Acceso / copia',
  rectification: 'Rectificación',
  erasure: 'Supresión',
};

export const requestStateLabels: Record<PersonalDataRequest['state'], string> = {
  open: 'Abierta',
  answered: 'Respondida',
};

/** The export's download link (same origin: the console's session cookie goes with it). */
export const exportHref = (q: string, format: 'json' | 'pdf') =>
  `/api/backoffice/privacy/export?${new URLSearchParams({ q, format })}`;
