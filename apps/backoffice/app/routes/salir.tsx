import { redirect } from 'react-router';
import { callApi, relayedCookies } from '#app/lib/api.server.ts';
import { formText } from '#app/lib/form.server.ts';
import type { Route } from './+types/salir';

/** Signing out is a post (with the CSRF token); a visit to /backoffice/salir just goes home. */
export function loader() {
  return redirect('/');
}

/** Ends the session on the server and clears the cookie (the API's Set-Cookie passes through), then the sign-in page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const answer = await callApi(context, request, '/sign-out', { method: 'POST', csrfToken: formText(form, 'csrf') });
  return redirect('/ingresar', { headers: relayedCookies(answer.headers) });
}
