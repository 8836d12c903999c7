import { ContentHtml } from '#app/components/ContentHtml.tsx';
import { type Banner, loadAbout } from '#app/features/content/about.server.ts';
import { ProvidersCarousel } from '#app/features/content/ProvidersCarousel.tsx';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/quienes-somos';

export const meta = () => [
  ...pageTitle('Quiénes somos'),
  {
    name: 'description',
    content:
      'Conoce Travesía: nuestra historia, la red de prestadores en más de 150 países, el equipo, nuestra misión, visión y valores, y dónde encontrarnos.',
  },
];

export function loader({ context }: Route.LoaderArgs) {
  return loadAbout(context);
}

function Section({
  title,
  id,
  children,
  tone = 'plain',
}: {
  title: string;
  id: string;
  children: React.ReactNode;
  tone?: 'plain' | 'tinted';
}) {
  return (
    <section aria-labelledby={id} className={tone === 'tinted' ? 'bg-brand-50' : ''}>
      <div className="page-width py-10 sm:py-14">
        <h2 id={id} className="mb-4 text-2xl font-bold text-brand-700 sm:text-3xl">
          {title}
        </h2>
        {children}
      </div>
    </section>
  );
}

function BannerCard({ title, data }: { title: string; data: Banner }) {
  return (
    <article className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      {data.banner ? (
        <img src={data.banner} alt="" width={640} height={240} className="h-40 w-full object-cover sm:h-48" />
      ) : null}
      <div className="p-6">
        <h3 className="mb-2 text-xl font-bold text-brand-700">{title}</h3>
        <p className="leading-relaxed text-slate-700">{data.label}</p>
      </div>
    </article>
  );
}

export default function AboutUs({ loaderData }: Route.ComponentProps) {
  const { intro, history, providers, team, mission, vision, valuesHtml, map, address, name } = loaderData;
  return (
    <div>
      <section className="bg-brand-700 text-white surface-dark">
        <div className="page-width grid items-center gap-8 py-10 sm:py-14 md:grid-cols-2">
          <div>
            <h1 className="mb-4 text-3xl font-bold sm:text-4xl">Quiénes somos</h1>
            <p className="mb-4 text-lg leading-relaxed">{intro.text}</p>
            <ContentHtml
              html={intro.html}
              className="text-brand-50 [&_a]:text-white [&_h2]:text-white [&_h3]:text-white"
            />
          </div>
          {intro.image ? (
            <img src={intro.image} alt="" width={560} height={360} className="w-full rounded-2xl bg-white/10" />
          ) : null}
        </div>
      </section>

      <Section title="Nuestra historia" id="historia">
        <p className="mb-3 max-w-3xl text-lg leading-relaxed text-slate-700">{history.text}</p>
        <ContentHtml html={history.html} className="max-w-3xl text-slate-700" />
      </Section>

      <Section title="Nuestros prestadores" id="prestadores" tone="tinted">
        <p className="mb-3 max-w-3xl text-lg leading-relaxed text-slate-700">{providers.text}</p>
        <ContentHtml html={providers.html} className="mb-8 max-w-3xl text-slate-700" />
        {providers.logos.length > 0 ? (
          <>
            <h3 className="mb-1 text-xl font-semibold text-brand-700">{providers.logosTitle}</h3>
            <p className="mb-5 text-slate-600">{providers.logosSubtitle}</p>
            <ProvidersCarousel logos={providers.logos} label={providers.logosTitle || 'Prestadores'} />
          </>
        ) : null}
      </Section>

      <Section title="Nuestro equipo" id="equipo">
        <p className="mb-3 max-w-3xl text-lg leading-relaxed text-slate-700">{team.text}</p>
        <ContentHtml html={team.html} className="max-w-3xl text-slate-700" />
      </Section>

      {mission || vision ? (
        <Section title="Misión y visión" id="mision-vision" tone="tinted">
          <div className="grid gap-6 md:grid-cols-2">
            {mission ? <BannerCard title="Misión" data={mission} /> : null}
            {vision ? <BannerCard title="Visión" data={vision} /> : null}
          </div>
        </Section>
      ) : null}

      {valuesHtml !== null ? (
        <Section title="Nuestros valores" id="valores">
          <ContentHtml html={valuesHtml} className="max-w-3xl text-lg text-slate-700" />
        </Section>
      ) : null}

      <Section title="Nuestra oficina" id="oficina" tone={valuesHtml !== null ? 'tinted' : 'plain'}>
        <div className="grid gap-6 md:grid-cols-[1fr_2fr]">
          <div>
            <address className="mb-4 text-lg not-italic leading-relaxed text-slate-700">
              <strong className="block font-semibold text-brand-700">{name}</strong>
              {address}
            </address>
            {map ? (
              <a
                href={`https://www.openstreetmap.org/?mlat=${map.latitude}&mlon=${map.longitude}#map=17/${map.latitude}/${map.longitude}`}
                target="_blank"
                rel="noopener noreferrer"
                className="font-semibold text-brand-700 underline underline-offset-4"
              >
                Abrir el mapa en una pestaña nueva
              </a>
            ) : null}
          </div>
          {map ? (
            <iframe
              src={map.embedUrl}
              title={`Mapa: oficina de ${name}, ${address}`}
              loading="lazy"
              referrerPolicy="no-referrer"
              className="h-72 w-full rounded-2xl border border-slate-200 sm:h-96"
            />
          ) : null}
        </div>
      </Section>
    </div>
  );
}
