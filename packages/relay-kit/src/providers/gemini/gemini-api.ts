/**
 * Lean types of the Gemini (Google AI / Vertex AI `generateContent`) wire format: only the fields
 * Switchyard reads or writes. Everything is optional because readers must check types anyway.
 */

/** One part of a `Content`. Exactly one data field is set. */
export interface GeminiPart {
  text?: string;
  /** The text is a thought summary (reasoning), not answer text. */
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType?: string; data?: string };
  fileData?: { mimeType?: string; fileUri?: string };
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: unknown };
  executableCode?: { language?: string; code?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
}

/** A turn: role `user` or `model`, and its parts. */
export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** `usageMetadata` of a response or stream chunk. */
export interface GeminiUsageMetadata {
  /** All prompt tokens, cached ones included. */
  promptTokenCount?: number;
  /** Answer tokens, thoughts excluded. */
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  /** Prompt tokens served from the context cache (included in `promptTokenCount`). */
  cachedContentTokenCount?: number;
  /** Thinking tokens (not included in `candidatesTokenCount`). */
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
}

/** One candidate of a response or stream chunk. */
export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: string;
  index?: number;
}

/** A `generateContent` response, or one chunk of `streamGenerateContent`. */
export interface GeminiResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string; blockReasonMessage?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
  /** An error object sent inside a stream. */
  error?: unknown;
}

/** A function declaration of a `tools[].functionDeclarations` entry. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** The Google error body: `{"error":{"code","message","status","details"}}`. */
export interface GeminiErrorBody {
  error?: {
    code?: number;
    message?: string;
    status?: string;
    details?: Array<{ '@type'?: string; reason?: string }>;
  };
}

/** Harm categories the gateway sets a threshold for on converted requests. */
export const GEMINI_HARM_CATEGORIES: readonly string[] = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads a field by its lowerCamel name or its proto snake_case name (Google accepts both in JSON:
 * `systemInstruction` / `system_instruction`).
 */
export function readField(record: Readonly<Record<string, unknown>>, camelName: string): unknown {
  const value = record[camelName];
  if (value !== undefined) return value;
  return record[camelName.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)];
}

/** A repeated proto field: an array, or one value standing for a one-element array. */
export function readList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
