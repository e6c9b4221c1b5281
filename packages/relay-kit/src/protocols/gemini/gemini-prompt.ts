import { isRecord, readField, readList } from '../../providers/gemini/gemini-api.js';
import type { PromptInput, PromptMessage, PromptPart, PromptTool } from '../../spec/prompt-input.js';

/**
 * The prompt-estimation input of a Gemini body: `systemInstruction` as a system message, each
 * content as a message (text, media as images/audio/files, function calls and responses as their
 * JSON text), and every function declaration. References only; nothing is tokenized here.
 */
export function geminiPromptInput(body: Readonly<Record<string, unknown>>): PromptInput {
  const messages: PromptMessage[] = [];
  const system = readField(body, 'systemInstruction');
  if (isRecord(system)) messages.push({ role: 'system', content: promptParts(system.parts) });
  for (const content of readList(readField(body, 'contents'))) {
    if (!isRecord(content)) continue;
    messages.push({
      role: content.role === 'model' ? 'assistant' : 'user',
      content: promptParts(content.parts),
    });
  }
  const tools: PromptTool[] = [];
  for (const tool of readList(readField(body, 'tools'))) {
    if (!isRecord(tool)) continue;
    for (const declaration of readList(readField(tool, 'functionDeclarations'))) {
      if (!isRecord(declaration) || typeof declaration.name !== 'string') continue;
      tools.push({
        name: declaration.name,
        description: typeof declaration.description === 'string' ? declaration.description : undefined,
        parameters: declaration.parameters ?? readField(declaration, 'parametersJsonSchema'),
      });
    }
  }
  return tools.length > 0 ? { messages, tools } : { messages };
}

function promptParts(parts: unknown): PromptPart[] {
  const out: PromptPart[] = [];
  for (const part of readList(parts)) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') {
      out.push({ type: 'text', text: part.text });
      continue;
    }
    const media = readField(part, 'inlineData') ?? readField(part, 'fileData');
    if (isRecord(media)) {
      const mime = String(readField(media, 'mimeType') ?? 'image/');
      out.push(
        mime.startsWith('image/')
          ? { type: 'image' }
          : mime.startsWith('audio/')
            ? { type: 'audio' }
            : { type: 'file' },
      );
      continue;
    }
    const call = readField(part, 'functionCall');
    if (isRecord(call)) {
      out.push({ type: 'text', text: `${String(call.name ?? '')} ${JSON.stringify(call.args ?? {})}` });
      continue;
    }
    const response = readField(part, 'functionResponse');
    if (isRecord(response)) out.push({ type: 'text', text: JSON.stringify(response.response ?? {}) });
  }
  return out;
}
