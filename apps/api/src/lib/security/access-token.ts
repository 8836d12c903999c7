import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/** A sale's access token as a query parameter (`?token=`): hex, as the database makes it; anything else opens nothing. */
export const accessTokenQuery = z.object({
  token: z
    .string()
    .max(128)
    .optional()
    .describe("The sale's access token, given to the browser that started the payment"),
});

/** Compares a presented token with the stored one in constant time: its timing tells nothing of how much matched. */
export function accessTokenMatches(stored: string, presented: string | undefined): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(stored);
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
