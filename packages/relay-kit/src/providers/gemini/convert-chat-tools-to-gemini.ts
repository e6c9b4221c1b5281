import type { GeminiFunctionDeclaration } from './gemini-api.js';
import { isRecord } from './gemini-api.js';

/** Schema keywords Gemini's OpenAPI-subset `Schema` understands; everything else is removed. */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'minimum',
  'maximum',
]);
const STRING_FORMATS = new Set(['enum', 'date-time']);
/** Function names that stand for Gemini's built-in tools. */
const BUILT_IN_TOOLS: Readonly<Record<string, string>> = {
  googleSearch: 'googleSearch',
  google_search: 'googleSearch',
  codeExecution: 'codeExecution',
  code_execution: 'codeExecution',
  urlContext: 'urlContext',
};

/**
 * Converts OpenAI `tools` into Gemini `tools`: function tools → one `functionDeclarations` entry
 * with cleaned parameters; a function named `googleSearch` / `codeExecution` (or `urlContext`)
 * → the built-in tool `{googleSearch:{}}`. Other tool types are dropped with a warning.
 */
export function convertChatToolsToGemini(tools: unknown, warnings: string[]): Record<string, unknown>[] {
  if (!Array.isArray(tools)) return [];
  const declarations: GeminiFunctionDeclaration[] = [];
  const builtIns: Record<string, unknown>[] = [];
  for (const tool of tools) {
    const fn = isRecord(tool) && isRecord(tool.function) ? tool.function : undefined;
    if (fn === undefined || typeof fn.name !== 'string') {
      warnings.push(
        `tools of type "${isRecord(tool) ? String(tool.type) : typeof tool}" are not supported by Gemini and were removed`,
      );
      continue;
    }
    const builtIn = BUILT_IN_TOOLS[fn.name];
    if (builtIn !== undefined) {
      builtIns.push({ [builtIn]: {} });
      continue;
    }
    const declaration: GeminiFunctionDeclaration = { name: fn.name };
    if (typeof fn.description === 'string' && fn.description !== '') declaration.description = fn.description;
    const parameters = cleanFunctionParameters(fn.parameters);
    if (parameters !== undefined) declaration.parameters = parameters;
    declarations.push(declaration);
  }
  return declarations.length > 0 ? [{ functionDeclarations: declarations }, ...builtIns] : builtIns;
}

/**
 * Function parameters for Gemini: the cleaned schema, or `undefined` when the function takes no
 * parameters (an object schema with no properties).
 */
export function cleanFunctionParameters(parameters: unknown): Record<string, unknown> | undefined {
  const cleaned = cleanGeminiSchema(parameters);
  if (cleaned === undefined) return undefined;
  const properties = cleaned.properties;
  if (cleaned.type === 'object' && (!isRecord(properties) || Object.keys(properties).length === 0)) {
    return undefined;
  }
  return cleaned;
}

/**
 * Reduces a JSON Schema to what Gemini accepts: unsupported keywords (`additionalProperties`,
 * `$schema`, `$ref`, `strict`...) are removed, `type: ["string","null"]` becomes
 * `type: "string", nullable: true`, `const` becomes a one-value `enum`, string formats other than
 * `enum` / `date-time` are dropped, and `required` keeps only declared properties.
 */
export function cleanGeminiSchema(schema: unknown): Record<string, unknown> | undefined {
  if (!isRecord(schema)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const') {
      if (!Object.hasOwn(schema, 'enum')) out.enum = [value];
      continue;
    }
    if (!SCHEMA_KEYS.has(key)) continue;
    out[key] = value;
  }
  if (Array.isArray(out.type)) {
    const types = out.type.filter((type) => type !== 'null');
    if (types.length < out.type.length) out.nullable = true;
    if (types.length === 1) out.type = types[0];
    else if (types.length === 0) delete out.type;
    else {
      out.anyOf = types.map((type) => ({ type }));
      delete out.type;
    }
  }
  if (out.format !== undefined && out.type === 'string' && !STRING_FORMATS.has(String(out.format))) {
    delete out.format;
  }
  if (isRecord(out.properties)) {
    const properties: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(out.properties)) {
      properties[name] = cleanGeminiSchema(value) ?? {};
    }
    out.properties = properties;
    if (Array.isArray(out.required)) {
      out.required = out.required.filter(
        (name) => typeof name === 'string' && Object.hasOwn(properties, name),
      );
      if ((out.required as unknown[]).length === 0) delete out.required;
    }
  }
  if (out.items !== undefined) out.items = cleanGeminiSchema(out.items) ?? {};
  if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((item) => cleanGeminiSchema(item) ?? {});
  return out;
}

/** OpenAI `tool_choice` → Gemini `toolConfig`; `undefined` when absent or unknown. */
export function convertToolChoiceToGemini(choice: unknown): Record<string, unknown> | undefined {
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  if (isRecord(choice) && isRecord(choice.function) && typeof choice.function.name === 'string') {
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.function.name] } };
  }
  return undefined;
}
