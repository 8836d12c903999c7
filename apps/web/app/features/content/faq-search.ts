/** One FAQ category as the page gets it: answers already sanitised (HTML) and as plain text (for the search). */
export type FaqEntry = { question: string; answerHtml: string; answerText: string };
export type FaqCategory = { category: string; contents: FaqEntry[] };

/** A category or question keeps the index it has in the whole FAQ, so its element ids do not change while filtering. */
export type FaqMatch = {
  index: number;
  category: string;
  contents: (FaqEntry & { index: number })[];
};

/** Lower case, accents and ñ's tilde removed, spaces collapsed: «Cómo» finds «como», «ANULAR» finds «anular». */
export function normalizeForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The longest query the search reads (a visitor never types more; a crafted URL gains nothing). */
export const maxQueryLength = 100;

/**
 * The questions whose question, answer or category holds every word of `query` (in any order), grouped by
 * category in the FAQ's order. An empty query matches everything.
 */
export function searchFaq(categories: FaqCategory[], query: string): FaqMatch[] {
  const words = normalizeForSearch(query.slice(0, maxQueryLength)).split(' ').filter(Boolean);
  const matches: FaqMatch[] = [];
  categories.forEach((group, index) => {
    const categoryText = normalizeForSearch(group.category);
    const contents = group.contents
      .map((entry, entryIndex) => ({ ...entry, index: entryIndex }))
      .filter((entry) => {
        if (words.length === 0) return true;
        const haystack = `${categoryText} ${normalizeForSearch(entry.question)} ${normalizeForSearch(entry.answerText)}`;
        return words.every((word) => haystack.includes(word));
      });
    if (contents.length > 0) matches.push({ index, category: group.category, contents });
  });
  return matches;
}

/** How many questions a search found. */
export const countQuestions = (matches: FaqMatch[]) => matches.reduce((sum, group) => sum + group.contents.length, 0);
