import { type FieldError, fieldErrorCodeList, fieldErrorCodes } from '@travesia/domain/field-errors';
import { errorMessages } from '@travesia/domain/messages';
import { z } from 'zod';

export type { FieldError } from '@travesia/domain/field-errors';

const codesDescription = [
  'What went wrong, for programs: stable, so clients branch on it (the message may be reworded).',
  ...Object.entries(fieldErrorCodes).map(([code, meaning]) => `- \`${code}\`: ${meaning}`),
].join('\n');

/** One problem with one field: its name (dotted path), a machine code and the Spanish message. */
export const fieldErrorSchema = z
  .object({
    field: z.string().describe('The field, as a dotted path of the input (passangers.0.email), or the whole input'),
    code: z.enum(fieldErrorCodeList).describe(codesDescription),
    message: z.string().describe('The problem in Spanish, as the storefront shows it'),
  })
  .meta({ id: 'FieldError' });

/** The error body of spec §3/§8: `{ status, detail, instance, errors }`. */
export const errorBodySchema = z
  .object({
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    errors: z.array(fieldErrorSchema),
    requestId: z
      .string()
      .optional()
      .describe("This request's id, as in its X-Request-Id header and the server's log lines: quote it to support"),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorBody = z.infer<typeof errorBodySchema>;

/** An error that is part of the contract: it is answered as it is, with the catalogue's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly fieldErrors: FieldError[] = [],
    /** Sent as Retry-After (a 429 or 503 that knows when to come back). */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }
}

export const companyNotFound = () => new ApiError(404, errorMessages.companyNotFound);
export const resourceNotFound = () => new ApiError(404, errorMessages.resourceNotFound);

export function errorBody(status: number, detail: string, instance: string, errors: FieldError[] = []): ErrorBody {
  return { status, detail, instance, errors };
}

/** The standard error answers every route documents in the OpenAPI document. */
export const errorResponses = {
  400: errorBodySchema,
  404: errorBodySchema,
  500: errorBodySchema,
} as const;
