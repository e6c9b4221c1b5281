import type { GeminiContent, GeminiPart } from './gemini-api.js';
import { isRecord } from './gemini-api.js';

/** Gemini `contents` and `systemInstruction` built from OpenAI chat messages. */
export interface ConvertedGeminiMessages {
  readonly contents: GeminiContent[];
  readonly systemInstruction: GeminiContent | undefined;
}

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  mp3: 'audio/mp3',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  mov: 'video/mov',
  webm: 'video/webm',
  txt: 'text/plain',
};

/**
 * Converts OpenAI chat messages into Gemini turns (reference behaviour, §3.9):
 * - `system` / `developer` messages are joined with `\n` into `systemInstruction`.
 * - `assistant` becomes role `model`; its `tool_calls` become `functionCall` parts (arguments
 *   parsed as JSON; text that is not a JSON object becomes `{}` with a warning).
 * - `tool` messages become `functionResponse` parts of one user turn, named after the earlier tool
 *   call with the same id; a JSON object result is sent as is, anything else as `{content}`.
 * - Images: data URLs → `inlineData`; http(s) URLs → `fileData` with a MIME type guessed from the
 *   extension (the gateway never downloads). `input_audio` and `file.file_data` → `inlineData`.
 */
export function convertChatMessagesToGemini(messages: unknown, warnings: string[]): ConvertedGeminiMessages {
  const contents: GeminiContent[] = [];
  const systemTexts: string[] = [];
  const toolNames = new Map<string, string>();
  const list = Array.isArray(messages) ? messages : [];
  for (const message of list) {
    if (!isRecord(message)) continue;
    const role = message.role;
    if (role === 'system' || role === 'developer') {
      const text = contentText(message.content);
      if (text !== '') systemTexts.push(text);
      continue;
    }
    if (role === 'tool' || role === 'function') {
      const id = typeof message.tool_call_id === 'string' ? message.tool_call_id : '';
      const name = toolNames.get(id) ?? (typeof message.name === 'string' ? message.name : '');
      const part: GeminiPart = {
        functionResponse: { name, response: toResponseObject(contentText(message.content)) },
      };
      const previous = contents.at(-1);
      if (previous?.role === 'user' && previous.parts?.every((item) => item.functionResponse !== undefined)) {
        previous.parts.push(part);
      } else {
        contents.push({ role: 'user', parts: [part] });
      }
      continue;
    }
    const parts = convertContent(message.content, warnings);
    if (role === 'assistant') {
      if (Array.isArray(message.tool_calls)) {
        for (const toolCall of message.tool_calls) {
          const fn = isRecord(toolCall) && isRecord(toolCall.function) ? toolCall.function : undefined;
          if (fn === undefined || typeof fn.name !== 'string') continue;
          if (typeof toolCall.id === 'string') toolNames.set(toolCall.id, fn.name);
          parts.push({
            functionCall: { name: fn.name, args: parseArguments(fn.arguments, fn.name, warnings) },
          });
        }
      }
      if (parts.length > 0) contents.push({ role: 'model', parts });
      continue;
    }
    if (parts.length > 0) contents.push({ role: 'user', parts });
  }
  return {
    contents,
    systemInstruction: systemTexts.length > 0 ? { parts: [{ text: systemTexts.join('\n') }] } : undefined,
  };
}

/** The text of a message content (string, or the text parts of an array). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let text = '';
  for (const part of content) {
    if (isRecord(part) && typeof part.text === 'string') text += part.text;
    else if (typeof part === 'string') text += part;
  }
  return text;
}

function convertContent(content: unknown, warnings: string[]): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  const parts: GeminiPart[] = [];
  for (const part of content) {
    if (typeof part === 'string') {
      parts.push({ text: part });
      continue;
    }
    if (!isRecord(part)) continue;
    switch (part.type) {
      case 'text':
        if (typeof part.text === 'string') parts.push({ text: part.text });
        break;
      case 'image_url': {
        const image = part.image_url;
        const url = typeof image === 'string' ? image : isRecord(image) ? image.url : undefined;
        if (typeof url === 'string') parts.push(mediaPart(url));
        break;
      }
      case 'input_audio': {
        const audio = isRecord(part.input_audio) ? part.input_audio : {};
        if (typeof audio.data === 'string') {
          const format = typeof audio.format === 'string' ? audio.format : 'wav';
          parts.push({ inlineData: { mimeType: `audio/${format}`, data: audio.data } });
        }
        break;
      }
      case 'file': {
        const file = isRecord(part.file) ? part.file : {};
        if (typeof file.file_data === 'string') parts.push(mediaPart(file.file_data));
        else warnings.push('file parts without file_data cannot be sent to Gemini and were removed');
        break;
      }
      default:
        if (typeof part.text === 'string') parts.push({ text: part.text });
    }
  }
  return parts;
}

/** A data URL becomes `inlineData`; any other URL becomes `fileData`. */
export function mediaPart(url: string): GeminiPart {
  const match = DATA_URL.exec(url);
  if (match !== null) {
    return { inlineData: { mimeType: match[1] ?? 'application/octet-stream', data: match[2] ?? '' } };
  }
  return { fileData: { mimeType: guessMimeType(url), fileUri: url } };
}

/** A MIME type from a URL's file extension (query and fragment ignored); images default to JPEG. */
export function guessMimeType(url: string): string {
  const path = url.split(/[?#]/, 1)[0] ?? '';
  const dot = path.lastIndexOf('.');
  const slash = path.lastIndexOf('/');
  if (dot === -1 || dot < slash) return 'image/jpeg';
  return MIME_BY_EXTENSION[path.slice(dot + 1).toLowerCase()] ?? 'image/jpeg';
}

function parseArguments(raw: unknown, name: string, warnings: string[]): Record<string, unknown> {
  if (isRecord(raw)) return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Reported below.
  }
  warnings.push(`arguments of the tool call "${name}" are not a JSON object and were sent as {}`);
  return {};
}

function toResponseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) return parsed;
  } catch {
    // Plain text result.
  }
  return { content: text };
}
