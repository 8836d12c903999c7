/**
 * What the modules share about personal data (issue 24, screen 7; modules/privacy): who a search names, and what
 * replaces an anonymised field. Each module reads and anonymises its own tables (its `personal-data.ts`).
 */

/** A person as searched: an e-mail (trimmed, lower case) or a document key (certificates' documentSearchKey). */
export type Person = { email: string } | { document: string };

/** What replaces an anonymised personal field. */
export const anonymised = '[anonimizado]';
