import { ContentHtml } from '#app/components/ContentHtml.tsx';
import { PreviewNotice } from '#app/components/PreviewNotice.tsx';
import type { LegalPageData, Seller } from './types.ts';

const updatedFormat = new Intl.DateTimeFormat('es-CL', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'America/Santiago',
});

/** Spec §9: a phone link drops spaces and parentheses. */
const telHref = (phone: string) => `tel:${phone.replace(/[\s()]/g, '')}`;

/** Who sells, as Ley 19.496 asks an online store to say: names, RUT, legal address and how to reach it. */
function SellerDetails({ seller }: { seller: Seller }) {
  const rows: { term: string; detail: React.ReactNode }[] = [
    { term: 'Razón social', detail: seller.legalName },
    { term: 'Nombre de fantasía', detail: seller.name },
    { term: 'RUT', detail: seller.rut },
    { term: 'Domicilio legal', detail: seller.address },
  ];
  if (seller.email) {
    rows.push({
      term: 'Correo electrónico',
      detail: (
        <a href={`mailto:${seller.email}`} className="font-semibold text-brand-700 underline underline-offset-2">
          {seller.email}
        </a>
      ),
    });
  }
  if (seller.phone) {
    rows.push({
      term: 'Teléfono',
      detail: (
        <a href={telHref(seller.phone)} className="font-semibold text-brand-700 underline underline-offset-2">
          {seller.phone}
        </a>
      ),
    });
  }
  return (
    <section
      aria-labelledby="proveedor"
      className="mb-8 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6"
    >
      <h2 id="proveedor" className="mb-4 text-xl font-bold text-brand-700">
        Identificación del proveedor
      </h2>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
        {rows.map((row) => (
          <div key={row.term} className="contents">
            <dt className="font-semibold text-slate-700">{row.term}</dt>
            <dd className="text-slate-900">{row.detail}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** A legal page: its title, when it last changed, the seller (on /informacion-legal) and the stored text. */
export function LegalPage({ page }: { page: LegalPageData & { preview?: 'draft' | 'invalid' | null } }) {
  return (
    <>
      {page.preview ? <PreviewNotice state={page.preview} /> : null}
      <article className="page-width py-10 *:max-w-3xl sm:py-14">
        <h1 className="mb-3 text-3xl font-bold text-brand-700 sm:text-4xl">{page.title}</h1>
        {page.preview === 'draft' ? (
          <p className="mb-8 text-slate-600">Borrador de la versión {page.version}: aún no está vigente.</p>
        ) : page.version === page.currentVersion ? (
          <p className="mb-8 text-slate-600">
            Versión {page.version}, vigente desde el{' '}
            <time dateTime={page.updatedAt}>{updatedFormat.format(new Date(page.updatedAt))}</time>
          </p>
        ) : (
          <p role="note" className="mb-8 rounded-lg bg-amber-50 px-4 py-3 text-slate-800 ring-1 ring-amber-200">
            Estás leyendo la versión {page.version}, publicada el{' '}
            <time dateTime={page.updatedAt}>{updatedFormat.format(new Date(page.updatedAt))}</time>: la que estaba
            vigente cuando se aceptó.{' '}
            <a href={`/${page.slug}`} className="font-semibold text-brand-700 underline underline-offset-2">
              Ver la versión vigente
            </a>
          </p>
        )}
        {page.slug === 'informacion-legal' ? <SellerDetails seller={page.seller} /> : null}
        <ContentHtml html={page.bodyHtml} className="text-slate-800" />
      </article>
    </>
  );
}
