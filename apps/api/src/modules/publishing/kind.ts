import type { z } from 'zod';
import type { Database } from '#app/db/client.ts';

/**
 * What the publishing model needs of one kind of item (prices of a plan, and next FAQ, site, blog, legal pages…). The
 * module that owns the data implements it and exports it; app.ts (workflows/publishing.ts) hands the kinds to the
 * publishing module, which therefore imports no module it publishes for (no cycles, and publishing never writes
 * another module's tables: `apply` does, in the publishing transaction).
 */
export type PublishableKind<Body = unknown> = {
  /** Stable name stored with drafts and publications, and the console's path (`/api/backoffice/<kind>`). */
  kind: string;
  /** The shape of a body; a body that does not parse is a 400 with its field errors. */
  schema: z.ZodType<Body>;
  /** The live item as a body (what the storefront shows now); undefined for an unknown key (404). */
  current(db: Database, key: string): Promise<Body | undefined>;
  /**
   * Makes `body` live, inside the publishing transaction `tx` (with the audit row and the publication row). Throws an
   * ApiError (400) if the body cannot be applied (a region the plan is no longer sold for, say).
   */
  apply(tx: Database, key: string, body: Body): Promise<void>;
  /** The read-cache scopes a publication clears on every instance (undefined: all of it). */
  cacheScopes(key: string): string[] | undefined;
  /** A readable diff in Spanish, one line per change ("Europa · Adulto: USD 3,00 → USD 3,30 por día"). */
  describe(db: Database, key: string, before: Body | null, after: Body): Promise<string[]>;
  /**
   * The storefront page (path and query, no origin) that shows the item, where a preview link opens it with the
   * draft (`vista-previa=<token>` is added), and the scope the token is bound to (what the page asks the API for:
   * the sample quotation's id), so a link opens that page only. Optional: a kind without it has no preview link.
   */
  previewPath?(db: Database, key: string, draft: Body): Promise<{ path: string; scope: string }>;
};

export type Kinds = ReadonlyMap<string, PublishableKind>;

/**
 * A kind as the publishing model holds it: bodies reach `apply`, `describe` and `previewPath` only after `schema`
 * parsed them (saveDraft), so typing them `unknown` there loses nothing.
 */
export const publishable = <Body>(kind: PublishableKind<Body>) => kind as unknown as PublishableKind;

/** Registers kinds by name (each kind's name once). */
export function kindsOf(...kinds: PublishableKind[]): Kinds {
  const map = new Map<string, PublishableKind>();
  for (const kind of kinds) {
    if (map.has(kind.kind)) throw new Error(`Publishing kind ${kind.kind} registered twice`);
    map.set(kind.kind, kind);
  }
  return map;
}
