import { isRecord, readField, readList } from '../../providers/gemini/gemini-api.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { describe, MAX_TOKENS_LIMIT } from '../openai-chat/openai-chat-schemas.js';

const PART_DATA_FIELDS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
] as const;
const CALLING_MODES = new Set(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']);

/**
 * Validates a `generateContent` body strictly (types of every field the gateway reads or
 * converts; both lowerCamel and snake_case names, as Google accepts): `contents` (role `user` or
 * `model`, parts with exactly one of text / inlineData / fileData / functionCall /
 * functionResponse / executableCode / codeExecutionResult), `systemInstruction`, `tools`,
 * `toolConfig`, `generationConfig` and `safetySettings`. Returns `maxOutputTokens` (0 = unset).
 */
export function validateGeminiRequest(body: Readonly<Record<string, unknown>>): {
  maxTokens: number | undefined;
} {
  const contents = readField(body, 'contents');
  if (contents === undefined || contents === null) invalid('contents', '"contents" is required');
  if (!Array.isArray(contents)) invalid('contents', `"contents" must be an array, got ${describe(contents)}`);
  if (contents.length === 0) invalid('contents', '"contents" must contain at least one content');
  contents.forEach((content, index) => {
    validateContent(content, `contents[${index}]`, true);
  });
  const system = readField(body, 'systemInstruction');
  if (system !== undefined && system !== null) validateContent(system, 'systemInstruction', false);
  validateTools(readField(body, 'tools'));
  validateToolConfig(readField(body, 'toolConfig'));
  validateSafetySettings(readField(body, 'safetySettings'));
  return { maxTokens: validateGenerationConfig(readField(body, 'generationConfig')) };
}

function validateContent(content: unknown, path: string, checkRole: boolean): void {
  if (!isRecord(content)) invalid(path, `${path} must be an object, got ${describe(content)}`);
  const role = content.role;
  if (checkRole && role !== undefined && role !== 'user' && role !== 'model') {
    invalid(`${path}.role`, `${path}.role must be "user" or "model"`);
  }
  const parts = content.parts;
  if (parts === undefined || parts === null) invalid(`${path}.parts`, `${path}.parts is required`);
  if (!Array.isArray(parts) && !isRecord(parts)) {
    invalid(`${path}.parts`, `${path}.parts must be an array, got ${describe(parts)}`);
  }
  readList(parts).forEach((part, index) => {
    validatePart(part, `${path}.parts[${index}]`);
  });
}

function validatePart(part: unknown, path: string): void {
  if (!isRecord(part)) invalid(path, `${path} must be an object, got ${describe(part)}`);
  const present = PART_DATA_FIELDS.filter((field) => readField(part, field) !== undefined);
  if (present.length !== 1) {
    invalid(path, `${path} must have exactly one of ${PART_DATA_FIELDS.join(', ')}`);
  }
  const field = present[0]!;
  const value = readField(part, field);
  const at = `${path}.${field}`;
  if (field === 'text') {
    if (typeof value !== 'string') invalid(at, `${at} must be a string, got ${describe(value)}`);
  } else if (!isRecord(value)) {
    invalid(at, `${at} must be an object, got ${describe(value)}`);
  } else if (field === 'inlineData') {
    requireString(value, 'mimeType', at);
    requireString(value, 'data', at);
  } else if (field === 'fileData') {
    requireString(value, 'fileUri', at);
    optionalType(readField(value, 'mimeType'), 'string', `${at}.mimeType`);
  } else if (field === 'functionCall') {
    requireString(value, 'name', at);
    const args = value.args;
    if (args !== undefined && args !== null && !isRecord(args))
      invalid(`${at}.args`, `${at}.args must be an object`);
  } else if (field === 'functionResponse') {
    requireString(value, 'name', at);
    const response = value.response;
    if (response !== undefined && !isRecord(response))
      invalid(`${at}.response`, `${at}.response must be an object`);
  }
  optionalType(part.thought, 'boolean', `${path}.thought`);
  optionalType(readField(part, 'thoughtSignature'), 'string', `${path}.thoughtSignature`);
}

function validateTools(tools: unknown): void {
  if (tools === undefined || tools === null) return;
  if (!Array.isArray(tools)) invalid('tools', `"tools" must be an array, got ${describe(tools)}`);
  tools.forEach((tool, index) => {
    const path = `tools[${index}]`;
    if (!isRecord(tool)) invalid(path, `${path} must be an object, got ${describe(tool)}`);
    const declarations = readField(tool, 'functionDeclarations');
    if (declarations === undefined) {
      for (const name of ['googleSearch', 'googleSearchRetrieval', 'codeExecution', 'urlContext']) {
        const value = readField(tool, name);
        if (value !== undefined && !isRecord(value))
          invalid(`${path}.${name}`, `${path}.${name} must be an object`);
      }
      return;
    }
    if (!Array.isArray(declarations))
      invalid(`${path}.functionDeclarations`, `${path}.functionDeclarations must be an array`);
    declarations.forEach((declaration, position) => {
      const at = `${path}.functionDeclarations[${position}]`;
      if (!isRecord(declaration)) invalid(at, `${at} must be an object, got ${describe(declaration)}`);
      requireString(declaration, 'name', at);
      optionalType(declaration.description, 'string', `${at}.description`);
      const parameters = declaration.parameters ?? readField(declaration, 'parametersJsonSchema');
      if (parameters !== undefined && parameters !== null && !isRecord(parameters)) {
        invalid(`${at}.parameters`, `${at}.parameters must be an object`);
      }
    });
  });
}

function validateToolConfig(config: unknown): void {
  if (config === undefined || config === null) return;
  if (!isRecord(config)) invalid('toolConfig', `"toolConfig" must be an object, got ${describe(config)}`);
  const calling = readField(config, 'functionCallingConfig');
  if (calling === undefined || calling === null) return;
  if (!isRecord(calling))
    invalid('toolConfig.functionCallingConfig', '"toolConfig.functionCallingConfig" must be an object');
  const mode = calling.mode;
  if (mode !== undefined && (typeof mode !== 'string' || !CALLING_MODES.has(mode))) {
    invalid(
      'toolConfig.functionCallingConfig.mode',
      '"toolConfig.functionCallingConfig.mode" must be AUTO, ANY, NONE or VALIDATED',
    );
  }
  const allowed = readField(calling, 'allowedFunctionNames');
  if (
    allowed !== undefined &&
    !(Array.isArray(allowed) && allowed.every((name) => typeof name === 'string'))
  ) {
    invalid(
      'toolConfig.functionCallingConfig.allowedFunctionNames',
      '"allowedFunctionNames" must be an array of strings',
    );
  }
}

function validateSafetySettings(settings: unknown): void {
  if (settings === undefined || settings === null) return;
  if (!Array.isArray(settings))
    invalid('safetySettings', `"safetySettings" must be an array, got ${describe(settings)}`);
  settings.forEach((setting, index) => {
    const path = `safetySettings[${index}]`;
    if (!isRecord(setting)) invalid(path, `${path} must be an object, got ${describe(setting)}`);
    requireString(setting, 'category', path);
    requireString(setting, 'threshold', path);
  });
}

function validateGenerationConfig(config: unknown): number | undefined {
  if (config === undefined || config === null) return undefined;
  if (!isRecord(config))
    invalid('generationConfig', `"generationConfig" must be an object, got ${describe(config)}`);
  const at = (name: string) => `generationConfig.${name}`;
  numberIn(readField(config, 'temperature'), at('temperature'), 0, 2);
  numberIn(readField(config, 'topP'), at('topP'), 0, 1);
  numberIn(readField(config, 'topK'), at('topK'), 0, Number.MAX_SAFE_INTEGER);
  integerIn(readField(config, 'candidateCount'), at('candidateCount'), 1, 8);
  const maxTokens = integerIn(
    readField(config, 'maxOutputTokens'),
    at('maxOutputTokens'),
    0,
    MAX_TOKENS_LIMIT,
  );
  const stops = readField(config, 'stopSequences');
  if (
    stops !== undefined &&
    stops !== null &&
    !(Array.isArray(stops) && stops.every((stop) => typeof stop === 'string'))
  ) {
    invalid(at('stopSequences'), '"generationConfig.stopSequences" must be an array of strings');
  }
  optionalType(readField(config, 'responseMimeType'), 'string', at('responseMimeType'));
  const schema = readField(config, 'responseSchema');
  if (schema !== undefined && schema !== null && !isRecord(schema))
    invalid(at('responseSchema'), '"generationConfig.responseSchema" must be an object');
  const thinking = readField(config, 'thinkingConfig');
  if (thinking !== undefined && thinking !== null) {
    if (!isRecord(thinking))
      invalid(at('thinkingConfig'), '"generationConfig.thinkingConfig" must be an object');
    integerIn(
      readField(thinking, 'thinkingBudget'),
      at('thinkingConfig.thinkingBudget'),
      -1,
      MAX_TOKENS_LIMIT,
    );
    optionalType(readField(thinking, 'includeThoughts'), 'boolean', at('thinkingConfig.includeThoughts'));
    optionalType(readField(thinking, 'thinkingLevel'), 'string', at('thinkingConfig.thinkingLevel'));
  }
  return maxTokens === 0 ? undefined : maxTokens;
}

function requireString(record: Record<string, unknown>, name: string, path: string): void {
  const value = readField(record, name);
  if (typeof value !== 'string' || value === '')
    invalid(`${path}.${name}`, `${path}.${name} must be a non-empty string`);
}

function optionalType(value: unknown, type: 'string' | 'boolean', path: string): void {
  if (value !== undefined && value !== null && typeof value !== type) {
    invalid(path, `"${path}" must be a ${type}, got ${describe(value)}`);
  }
}

function numberIn(value: unknown, path: string, min: number, max: number): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    invalid(path, `"${path}" must be a number between ${min} and ${max}, got ${describe(value)}`);
  }
}

function integerIn(value: unknown, path: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    invalid(path, `"${path}" must be an integer between ${min} and ${max}, got ${describe(value)}`);
  }
  return value;
}

function invalid(param: string, message: string): never {
  throw new RelayRequestError('request:invalid_body', message, { param });
}
