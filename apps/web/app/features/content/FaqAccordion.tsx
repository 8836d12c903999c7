import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ContentHtml } from '#app/components/ContentHtml.tsx';
import { plural } from '#app/lib/format.ts';
import type { FaqData } from './faq.server.ts';
import { countQuestions, type FaqMatch, maxQueryLength, searchFaq } from './faq-search.ts';

const categoryKey = (index: number) => `c${index}`;
const questionKey = (category: number, question: number) => `c${category}-q${question}`;

/** While searching, every category with a match opens (its questions stay closed until asked). */
const openCategoriesOf = (matches: FaqMatch[]) => matches.map((group) => categoryKey(group.index));

function Chevron({ open }: { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className={`h-5 w-5 shrink-0 transition-transform motion-reduce:transition-none ${open ? 'rotate-180' : ''}`}
      fill="none"
    >
      <path d="m5 8 5 5 5-5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * Spec §2 FAQ: a two-level accordion (category, then question and answer) with a search over questions and
 * answers. Each level is a real <button> with aria-expanded and aria-controls, inside a heading, so Tab, Enter
 * and Space work as everywhere. The search filters as the visitor types; without JavaScript the form sends
 * `?q=` and the server renders the same filtered list, and every answer is shown (the <noscript> style), since a
 * button cannot open it.
 */
export function FaqAccordion({ categories }: FaqData) {
  const [searchParams, setSearchParams] = useSearchParams();
  // The address is the truth: the loader read the same ?q= for the server render; later ones need no new load.
  const sentQuery = (searchParams.get('q') ?? '').slice(0, maxQueryLength);
  const [query, setQuery] = useState(sentQuery);
  const matches = useMemo(() => searchFaq(categories, query), [categories, query]);
  const searching = query.trim() !== '';
  const [open, setOpen] = useState<Set<string>>(
    () => new Set(sentQuery.trim() ? openCategoriesOf(searchFaq(categories, sentQuery)) : []),
  );

  // A search sent by the address (back, forward, a shared link) replaces what was typed.
  useEffect(() => {
    setQuery(sentQuery);
    if (sentQuery.trim()) setOpen(new Set(openCategoriesOf(searchFaq(categories, sentQuery))));
  }, [sentQuery, categories]);

  const toggle = (key: string) =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  const search = (value: string) => {
    setQuery(value);
    if (value.trim()) {
      const found = openCategoriesOf(searchFaq(categories, value));
      setOpen((previous) => new Set([...previous, ...found]));
    }
  };

  const found = countQuestions(matches);

  return (
    <div>
      <noscript>
        <style>{'.faq-panel{display:block !important}.faq-chevron{display:none}'}</style>
      </noscript>
      <search>
        <form
          method="get"
          action="/faq"
          className="mb-3 flex flex-col gap-2 sm:flex-row"
          onSubmit={(event) => {
            event.preventDefault();
            const q = query.trim();
            setSearchParams(q ? { q } : {}, { replace: true, preventScrollReset: true });
          }}
        >
          <label htmlFor="faq-q" className="sr-only">
            Buscar en las preguntas frecuentes
          </label>
          <input
            id="faq-q"
            name="q"
            type="search"
            value={query}
            maxLength={maxQueryLength}
            onChange={(event) => search(event.target.value)}
            placeholder="Busca por palabra: pago, equipaje, reembolso…"
            autoComplete="off"
            className="min-h-12 flex-1 rounded-xl border border-slate-400 bg-white px-4 text-base focus:border-brand-500"
          />
          <button
            type="submit"
            className="min-h-12 rounded-xl bg-accent-700 px-6 font-bold text-white shadow hover:bg-accent-800"
          >
            Buscar
          </button>
        </form>
      </search>
      <p role="status" className="mb-6 min-h-6 text-sm text-slate-600">
        {searching && found > 0
          ? `${plural(found, 'pregunta encontrada', 'preguntas encontradas')} para «${query.trim()}»`
          : ''}
      </p>

      {searching && found === 0 ? (
        <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6 text-center">
          <p className="mb-2 text-lg font-semibold text-brand-700">
            No encontramos preguntas que coincidan con «{query.trim()}».
          </p>
          <p className="mb-4 text-slate-600">Prueba con otras palabras o revisa todas las preguntas.</p>
          <div className="flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link
              to="/faq"
              replace
              preventScrollReset
              onClick={() => setQuery('')}
              className="font-semibold text-brand-700 underline underline-offset-4"
            >
              Ver todas las preguntas
            </Link>
            <Link to="/contacto" className="font-semibold text-brand-700 underline underline-offset-4">
              Escríbenos tu consulta
            </Link>
          </div>
        </div>
      ) : (
        <ul className="space-y-4">
          {matches.map((group) => {
            const key = categoryKey(group.index);
            const isOpen = open.has(key);
            return (
              <li key={key} className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
                <h2>
                  <button
                    type="button"
                    id={`faq-${key}`}
                    aria-expanded={isOpen}
                    aria-controls={`faq-${key}-panel`}
                    onClick={() => toggle(key)}
                    className="flex min-h-14 w-full items-center justify-between gap-4 bg-brand-50 px-5 py-3 text-left text-lg font-bold text-brand-700 hover:bg-brand-100"
                  >
                    <span>
                      {group.category}{' '}
                      <span className="text-sm font-normal text-slate-600">
                        ({plural(group.contents.length, 'pregunta', 'preguntas')})
                      </span>
                    </span>
                    <span className="faq-chevron">
                      <Chevron open={isOpen} />
                    </span>
                  </button>
                </h2>
                <div
                  id={`faq-${key}-panel`}
                  className={`faq-panel divide-y divide-slate-200 ${isOpen ? '' : 'hidden'}`}
                >
                  {group.contents.map((entry) => {
                    const qKey = questionKey(group.index, entry.index);
                    const questionOpen = open.has(qKey);
                    return (
                      <div key={qKey}>
                        <h3>
                          <button
                            type="button"
                            id={`faq-${qKey}`}
                            aria-expanded={questionOpen}
                            aria-controls={`faq-${qKey}-answer`}
                            onClick={() => toggle(qKey)}
                            className="flex min-h-12 w-full items-center justify-between gap-4 px-5 py-3 text-left font-semibold text-slate-800 hover:bg-slate-50"
                          >
                            <span>{entry.question}</span>
                            <span className="faq-chevron text-brand-700">
                              <Chevron open={questionOpen} />
                            </span>
                          </button>
                        </h3>
                        <ContentHtml
                          id={`faq-${qKey}-answer`}
                          html={entry.answerHtml}
                          className={`faq-panel px-5 pb-5 text-slate-700 ${questionOpen ? '' : 'hidden'}`}
                        />
                      </div>
                    );
                  })}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
