import { isRecord, readField } from '../../providers/gemini/gemini-api.js';

/**
 * `thinkingConfig` → OpenAI `reasoning_effort`:
 * - `thinkingLevel` (`low` / `medium` / `high`, Gemini 3) is copied as is (`minimal` too).
 * - `thinkingBudget`: 0 → `minimal` (the least OpenAI offers), -1 (dynamic) → `medium`,
 *   1–1024 → `low`, 1025–8192 → `medium`, above → `high`.
 */
export function thinkingToReasoningEffort(thinking: unknown): string | undefined {
  if (!isRecord(thinking)) return undefined;
  const level = readField(thinking, 'thinkingLevel');
  if (typeof level === 'string' && ['minimal', 'low', 'medium', 'high'].includes(level.toLowerCase())) {
    return level.toLowerCase();
  }
  const budget = readField(thinking, 'thinkingBudget');
  if (typeof budget !== 'number') return undefined;
  if (budget === 0) return 'minimal';
  if (budget < 0) return 'medium';
  if (budget <= 1024) return 'low';
  return budget <= 8192 ? 'medium' : 'high';
}

/**
 * `generationConfig` → chat fields: temperature, topP → top_p, maxOutputTokens → max_tokens,
 * stopSequences → stop, candidateCount → n, seed, presence/frequency penalties,
 * responseMimeType `application/json` → `response_format` (`json_schema` named `response` when a
 * schema is given, else `json_object`), thinkingConfig → reasoning_effort. `topK` has no OpenAI
 * equivalent and is dropped.
 */
export function convertGeminiGenerationConfig(config: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isRecord(config)) return out;
  const copy = (from: string, to: string) => {
    const value = readField(config, from);
    if (typeof value === 'number') out[to] = value;
  };
  copy('temperature', 'temperature');
  copy('topP', 'top_p');
  copy('maxOutputTokens', 'max_tokens');
  copy('candidateCount', 'n');
  copy('seed', 'seed');
  copy('presencePenalty', 'presence_penalty');
  copy('frequencyPenalty', 'frequency_penalty');
  if (out.max_tokens === 0) delete out.max_tokens;
  const stops = readField(config, 'stopSequences');
  if (Array.isArray(stops) && stops.length > 0) out.stop = stops;
  if (readField(config, 'responseMimeType') === 'application/json') {
    const jsonSchema = readField(config, 'responseJsonSchema');
    const schema = isRecord(jsonSchema)
      ? jsonSchema
      : convertGeminiSchemaToJsonSchema(readField(config, 'responseSchema'));
    out.response_format =
      schema === undefined
        ? { type: 'json_object' }
        : { type: 'json_schema', json_schema: { name: 'response', schema } };
  }
  const effort = thinkingToReasoningEffort(readField(config, 'thinkingConfig'));
  if (effort !== undefined) out.reasoning_effort = effort;
  return out;
}

/** `toolConfig.functionCallingConfig` → `tool_choice` (ANY with one allowed name → that function). */
export function convertGeminiToolConfig(config: unknown): unknown {
  const calling = isRecord(config) ? readField(config, 'functionCallingConfig') : undefined;
  if (!isRecord(calling)) return undefined;
  const allowed = readField(calling, 'allowedFunctionNames');
  switch (calling.mode) {
    case 'NONE':
      return 'none';
    case 'ANY':
      if (Array.isArray(allowed) && allowed.length === 1)
        return { type: 'function', function: { name: allowed[0] } };
      return 'required';
    case 'AUTO':
    case 'VALIDATED':
      return 'auto';
    default:
      return undefined;
  }
}

/**
 * A Gemini `Schema` (OpenAPI subset, upper-case types such as `OBJECT`) as JSON Schema: types
 * lower-cased, `nullable: true` → `type: [t, "null"]`, nested schemas converted.
 */
export function convertGeminiSchemaToJsonSchema(schema: unknown): Record<string, unknown> | undefined {
  if (!isRecord(schema)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'propertyOrdering') continue;
    if (key === 'type' && typeof value === 'string') out.type = value.toLowerCase();
    else if (key === 'properties' && isRecord(value)) {
      const properties: Record<string, unknown> = {};
      for (const [name, inner] of Object.entries(value))
        properties[name] = convertGeminiSchemaToJsonSchema(inner) ?? {};
      out.properties = properties;
    } else if (key === 'items') out.items = convertGeminiSchemaToJsonSchema(value) ?? {};
    else if (key === 'anyOf' && Array.isArray(value))
      out.anyOf = value.map((item) => convertGeminiSchemaToJsonSchema(item) ?? {});
    else out[key] = value;
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}
