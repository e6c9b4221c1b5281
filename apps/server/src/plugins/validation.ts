import { Ajv } from 'ajv';
import type { FastifyInstance, FastifySchema } from 'fastify';

/**
 * Two validators: bodies are checked strictly (no type coercion, so "5" is not a number and
 * wrong types are refused); query strings and path parameters are coerced, as they are text.
 * Unknown body fields are kept, never stripped.
 */
export function installValidation(app: FastifyInstance): void {
  const strict = new Ajv({
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  const coercing = new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    strict: false,
  });
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) =>
    (httpPart === 'body' ? strict : coercing).compile(schema as object),
  );
}
