import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as validatingSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type RouteSchema = Parameters<FastifySerializerCompiler<unknown>>[0];
type Serializer = (data: unknown) => string;

const zodSchemaOf = (schema: unknown): ZodType | undefined => {
  if (schema instanceof z.ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties instanceof z.ZodType ? properties : undefined;
};

/**
 * A response schema as a fast-json-stringify serializer: it writes exactly the schema's properties (what the zod
 * parse kept), with no check. Undefined when the schema cannot be expressed that way; the caller then validates.
 */
export function fastSerializerOf(schema: ZodType): Serializer | undefined {
  try {
    const jsonSchema = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as Serializer;
  } catch {
    return undefined;
  }
}

/**
 * How answers leave (issue #10). With validation (tests, development: RESPONSE_VALIDATION, config.ts) each answer is
 * parsed by its zod schema on the way out, so a handler that returns the wrong shape fails loudly (a 500) where it
 * is written. In production mode the handlers' types already guarantee the shape, and the schema only serializes:
 * a fast-json-stringify function compiled once per route from the same schema (it also writes only the declared
 * properties, as the parse did). A schema it cannot express keeps the validating serializer.
 */
export function responseSerializerCompiler(validate: boolean): FastifySerializerCompiler<unknown> {
  if (validate) return validatingSerializerCompiler as FastifySerializerCompiler<unknown>;
  return (route: RouteSchema) => {
    const schema = zodSchemaOf(route.schema);
    const fast = schema ? fastSerializerOf(schema) : undefined;
    return fast ?? (validatingSerializerCompiler as FastifySerializerCompiler<unknown>)(route);
  };
}
