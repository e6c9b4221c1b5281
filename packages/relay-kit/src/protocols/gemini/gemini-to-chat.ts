import { isRecord, readField, readList } from '../../providers/gemini/gemini-api.js';
import type { RelayCall } from '../../spec/relay-call.js';
import {
  convertGeminiGenerationConfig,
  convertGeminiSchemaToJsonSchema,
  convertGeminiToolConfig,
} from './gemini-to-chat-config.js';

/**
 * Converts a Gemini call into an `openai-chat` call (the hub format):
 * - `systemInstruction` → a `system` message (texts joined with `\n`).
 * - contents: role `model` → `assistant`; text parts → text; `inlineData` → a data-URL
 *   `image_url` (audio as `input_audio`, other types as a `file` with `file_data`); `fileData` →
 *   `image_url` with its URI; thoughts are dropped; `functionCall` parts → assistant `tool_calls`
 *   with generated ids (`call_<n>`, or the part's own `id`); `functionResponse` parts → `tool`
 *   messages answering the earliest unanswered call of the same name.
 * - `functionDeclarations` → function tools (Gemini types lower-cased); `googleSearch` → chat's
 *   `web_search_options` (each upstream's own search tool, see `ProviderAdapter.webSearch`);
 *   `codeExecution` / `urlContext` → functions of that name (which Gemini upstreams turn back into
 *   the built-in).
 * - `toolConfig` → `tool_choice`; `generationConfig` → sampling fields (see `gemini-to-chat-config`).
 * - streams ask for usage (`stream_options.include_usage`).
 * The chat call has no `rawBody` (the body is new) and keeps model, query and prompt.
 */
export function convertGeminiCallToChat(call: RelayCall): RelayCall {
  const body = call.body;
  const messages: Record<string, unknown>[] = [];
  const system = readField(body, 'systemInstruction');
  if (isRecord(system)) {
    const text = readList(system.parts)
      .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
      .filter((piece) => piece !== '')
      .join('\n');
    if (text !== '') messages.push({ role: 'system', content: text });
  }
  const pending: Array<{ id: string; name: string }> = [];
  let nextId = 0;
  for (const content of readList(readField(body, 'contents'))) {
    if (!isRecord(content)) continue;
    const isModel = content.role === 'model';
    const parts: Record<string, unknown>[] = [];
    const toolCalls: Record<string, unknown>[] = [];
    for (const part of readList(content.parts)) {
      if (!isRecord(part)) continue;
      if (typeof part.text === 'string') {
        if (part.thought !== true) parts.push({ type: 'text', text: part.text });
        continue;
      }
      const call = readField(part, 'functionCall');
      if (isRecord(call)) {
        const name = String(call.name ?? '');
        const id = typeof call.id === 'string' && call.id !== '' ? call.id : `call_${nextId++}`;
        pending.push({ id, name });
        toolCalls.push({
          id,
          type: 'function',
          function: { name, arguments: JSON.stringify(call.args ?? {}) },
        });
        continue;
      }
      const response = readField(part, 'functionResponse');
      if (isRecord(response)) {
        const name = String(response.name ?? '');
        const position = pending.findIndex((item) =>
          typeof response.id === 'string' ? item.id === response.id : item.name === name,
        );
        const id = position === -1 ? `call_${nextId++}` : pending.splice(position, 1)[0]!.id;
        messages.push({ role: 'tool', tool_call_id: id, content: JSON.stringify(response.response ?? {}) });
        continue;
      }
      const media = convertMedia(part);
      if (media !== undefined) parts.push(media);
    }
    if (isModel) {
      if (parts.length === 0 && toolCalls.length === 0) continue;
      const message: Record<string, unknown> = { role: 'assistant', content: joinText(parts) };
      if (toolCalls.length > 0) message.tool_calls = toolCalls;
      messages.push(message);
    } else if (parts.length > 0) {
      const onlyText = parts.every((part) => part.type === 'text');
      messages.push({ role: 'user', content: onlyText ? joinText(parts) : parts });
    }
  }
  const chat: Record<string, unknown> = { model: call.upstreamModel, messages };
  const tools = convertTools(readField(body, 'tools'));
  if (
    readList(readField(body, 'tools')).some(
      (tool) => isRecord(tool) && readField(tool, 'googleSearch') !== undefined,
    )
  ) {
    chat.web_search_options = {};
  }
  if (tools.length > 0) {
    chat.tools = tools;
    const choice = convertGeminiToolConfig(readField(body, 'toolConfig'));
    if (choice !== undefined) chat.tool_choice = choice;
  }
  Object.assign(chat, convertGeminiGenerationConfig(readField(body, 'generationConfig')));
  if (call.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return {
    protocol: 'openai-chat',
    model: call.model,
    upstreamModel: call.upstreamModel,
    stream: call.stream,
    includeUsage: call.stream,
    maxTokens: call.maxTokens,
    body: chat,
    rawBody: undefined,
    path: call.path,
    query: call.query,
    headers: call.headers,
    prompt: call.prompt,
  };
}

function joinText(parts: Record<string, unknown>[]): string | null {
  const texts = parts.filter((part) => part.type === 'text').map((part) => String(part.text));
  return texts.length === 0 ? null : texts.join('');
}

function convertMedia(part: Record<string, unknown>): Record<string, unknown> | undefined {
  const inline = readField(part, 'inlineData');
  if (isRecord(inline)) {
    const mime = String(readField(inline, 'mimeType') ?? 'application/octet-stream');
    const data = String(inline.data ?? '');
    if (mime.startsWith('audio/'))
      return { type: 'input_audio', input_audio: { data, format: mime.slice(6) } };
    if (mime.startsWith('image/'))
      return { type: 'image_url', image_url: { url: `data:${mime};base64,${data}` } };
    return { type: 'file', file: { file_data: `data:${mime};base64,${data}` } };
  }
  const file = readField(part, 'fileData');
  if (isRecord(file))
    return { type: 'image_url', image_url: { url: String(readField(file, 'fileUri') ?? '') } };
  return undefined;
}

function convertTools(tools: unknown): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const tool of readList(tools)) {
    if (!isRecord(tool)) continue;
    for (const declaration of readList(readField(tool, 'functionDeclarations'))) {
      if (!isRecord(declaration) || typeof declaration.name !== 'string') continue;
      const fn: Record<string, unknown> = { name: declaration.name };
      if (typeof declaration.description === 'string') fn.description = declaration.description;
      const schema = readField(declaration, 'parametersJsonSchema');
      const parameters = isRecord(schema) ? schema : convertGeminiSchemaToJsonSchema(declaration.parameters);
      if (parameters !== undefined) fn.parameters = parameters;
      out.push({ type: 'function', function: fn });
    }
    for (const builtIn of ['codeExecution', 'urlContext']) {
      if (readField(tool, builtIn) !== undefined) out.push({ type: 'function', function: { name: builtIn } });
    }
  }
  return out;
}
