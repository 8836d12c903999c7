import { data } from 'react-router';
import { requireOperator } from '#app/lib/session.server.ts';
import type { Route } from './+types/no-encontrada';

/** Any other path under /backoffice: the sign-in page without a session, a 404 inside the console with one. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireOperator(context, request);
  throw data({ message: 'La dirección no corresponde a ninguna pantalla de la consola.' }, { status: 404 });
}

export default function NotFound() {
  return null;
}
