import { LegalPage } from '#app/features/legal/LegalPage.tsx';
import { loadLegalPage } from '#app/features/legal/legal.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/informacion-legal';

export function loader({ context, request }: Route.LoaderArgs) {
  return loadLegalPage(context, request, 'informacion-legal');
}

export const meta = ({ data }: Route.MetaArgs) => [
  ...pageTitle(data?.title ?? 'Información legal'),
  ...(data ? [{ name: 'description', content: data.description }] : []),
];

export default function LegalInformation({ loaderData }: Route.ComponentProps) {
  return <LegalPage page={loaderData} />;
}
