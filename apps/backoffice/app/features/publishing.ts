/**
 * The publishing model as the console shows it (issue 25, ADR 019): the shapes the API's generic routes answer for
 * every kind (`/<kind>/:key`, `/draft`, `/publish`, `/scheduled`, `/history`, `/rollback`, `/preview-link`) and their
 * words. Used by «Precios» and «El sitio».
 */
export type Publication = {
  id: number;
  status: 'scheduled' | 'published' | 'cancelled';
  publishAt: string;
  publishAtChile: string;
  publishedAt: string | null;
  createdBy: string;
  rollbackOf: number | null;
  changes: string[];
};

export type PublishingItem<Body> = {
  live: Body;
  draft: { body: Body; version: number; updatedAt: string; updatedBy: string } | null;
  changes: string[];
  scheduled: Publication | null;
};

export const publicationStatusLabels: Record<Publication['status'], string> = {
  scheduled: 'Programada',
  published: 'Publicada',
  cancelled: 'Cancelada',
};

/** What a console action answers: a notice, the fields in error, and a preview link when one was made. */
export type PublishingResult = {
  ok: boolean;
  message: string;
  previewUrl?: string;
  errors?: Record<string, string>;
};
