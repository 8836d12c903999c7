import { LegalPage } from '#app/features/legal/LegalPage.tsx';
import { loadLegalPage } from '#app/features/legal/legal.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/terminos';

export function loader({ context, request }: Route.LoaderArgs) {
  return loadLegalPage(context, request, 'terminos');
}

export const meta = ({ data }: Route.MetaArgs) => [
  ...pageTitle(data?.title ?? 'Términos y condiciones'),
  ...(data ? [{ name: 'description', content: data.description }] : []),
];

export default function Terms({ loaderData }: Route.ComponentProps) {
  return <LegalPage page={loaderData} />;
}
