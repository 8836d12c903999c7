import { errorMessages, parameterMustBeDefined } from '@travesia/domain/messages';
import { z } from 'zod';

/** The error body of spec §3/§8: `{ status, detail, instance, errors }`. */
export const errorBodySchema = z
  .object({
    status: z.number().int(),
    detail: z.string(),
    instance: z.string(),
    errors: z.array(z.object({ field: z.string(), message: z.string() })),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorBody = z.infer<typeof errorBodySchema>;
export type FieldError = ErrorBody['errors'][number];

/** An error that is part of the contract: it is answered as it is, with the catalogue's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(detail);
  }
}

export const companyNotFound = () => new ApiError(404, errorMessages.companyNotFound);
export const resourceNotFound = () => new ApiError(404, errorMessages.resourceNotFound);
export const missingParameter = (name: string) =>
  new ApiError(400, parameterMustBeDefined(name), [{ field: name, message: parameterMustBeDefined(name) }]);

export function errorBody(status: number, detail: string, instance: string, errors: FieldError[] = []): ErrorBody {
  return { status, detail, instance, errors };
}

/** The standard error answers every route documents in the OpenAPI document. */
export const errorResponses = {
  400: errorBodySchema,
  404: errorBodySchema,
  500: errorBodySchema,
} as const;
