import { type AppLoadContext, data, redirect } from 'react-router';
import { callApi } from './api.server.ts';
import type { Me, Role } from './contract.ts';
import { signInUrl } from './paths.ts';

/** One GET /me per request, however many loaders of the page ask (the layout's and the screen's). */
const answers = new WeakMap<Request, Promise<Me | null>>();

/** The signed-in operator, or null: any answer but 200 (401, or a 404 while the API is absent) is «no session». */
export function currentOperator(context: AppLoadContext, request: Request): Promise<Me | null> {
  let answer = answers.get(request);
  if (!answer) {
    answer = callApi<Me>(context, request, '/me').then((result) =>
      result.ok && result.status === 200 && result.data?.operator ? result.data : null,
    );
    answers.set(request, answer);
  }
  return answer;
}

/**
 * The signed-in operator; without a session, a redirect to the sign-in page (which returns here afterwards). With
 * `role` (or several: any of them), an operator without it gets a 403 page (the API refuses the calls anyway).
 */
export async function requireOperator(
  context: AppLoadContext,
  request: Request,
  role?: Role | readonly Role[],
): Promise<Me> {
  const me = await currentOperator(context, request);
  if (!me) throw redirect(signInUrl(request));
  const allowed: readonly Role[] | undefined = typeof role === 'string' ? [role] : role;
  if (allowed && !me.operator.roles.some((held) => allowed.includes(held))) {
    throw data({ message: 'Tu rol no permite usar esta pantalla.' }, { status: 403 });
  }
  return me;
}
