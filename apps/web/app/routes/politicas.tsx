import { LegalPage } from '#app/features/legal/LegalPage.tsx';
import { loadLegalPage } from '#app/features/legal/legal.server.ts';
import { pageTitle } from '#app/lib/website.ts';
import type { Route } from './+types/politicas';

export function loader({ context, request }: Route.LoaderArgs) {
  return loadLegalPage(context, request, 'politicas');
}

export const meta = ({ data }: Route.MetaArgs) => [
  ...pageTitle(data?.title ?? 'Políticas de privacidad'),
  ...(data ? [{ name: 'description', content: data.description }] : []),
];

export default function Policies({ loaderData }: Route.ComponentProps) {
  return <LegalPage page={loaderData} />;
}
