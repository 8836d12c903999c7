import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as spanish from '@zxcvbn-ts/language-es-es';
import type { FieldError } from '#app/errors.ts';

/**
 * Operators' passwords (issue 24, OWASP ASVS level 2): Argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane),
 * at least 12 characters, judged by a strength estimator (zxcvbn-ts with its common and Spanish dictionaries), no
 * composition rules. `@node-rs/argon2` is prebuilt native code (N-API): no install script, no compiler.
 */
const argon2id = 2; // Algorithm.Argon2id: a const enum, which isolated modules cannot read from a declaration file.
export const argon2Options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const passwordMinLength = 12;
/** Long passphrases are welcome; the cap only keeps one hash from costing more than any other. */
export const passwordMaxLength = 256;
/** zxcvbn's scale: 3 is «safely unguessable: moderate protection from offline slow-hash scenario» (10^10 guesses). */
const minimumScore = 3;

export const passwordMessages = {
  tooShort: `La contraseña debe tener al menos ${passwordMinLength} caracteres.`,
  tooLong: `La contraseña puede tener hasta ${passwordMaxLength} caracteres.`,
  weak: 'La contraseña es fácil de adivinar: usa una frase de varias palabras poco comunes.',
} as const;

let estimator: ZxcvbnFactory | undefined;
function strengthEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...spanish.dictionary },
    graphs: common.adjacencyGraphs,
    translations: spanish.translations,
  });
  return estimator;
}

/**
 * What is wrong with a new password, as the §8 field error (code `weak_password`, the estimator's own Spanish
 * warning when it has one), or null. `context`: words the password must not lean on (the operator's e-mail, name).
 */
export function passwordProblem(password: string, context: string[] = []): FieldError | null {
  const problem = (message: string): FieldError => ({ field: 'password', code: 'weak_password', message });
  if ([...password].length < passwordMinLength) return problem(passwordMessages.tooShort);
  if ([...password].length > passwordMaxLength) return problem(passwordMessages.tooLong);
  const words = context.flatMap((text) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 3);
  const result = strengthEstimator().check(password, words);
  if (result.score >= minimumScore) return null;
  const warning = result.feedback.warning;
  return problem(warning ? `${warning} ${passwordMessages.weak}` : passwordMessages.weak);
}

export const hashPassword = (password: string) => hash(password, argon2Options);

/** A hash of nothing anyone knows, verified against when the account does not exist: the same work, the same time. */
let dummyHash: Promise<string> | undefined;

/** Whether `password` matches `stored`; with no stored hash, a dummy one is verified anyway (and false answered). */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash(`dummy-${Math.random()}-${Date.now()}`, argon2Options);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
