import type { PromptInput, PromptMessage, PromptPart, PromptTool } from '../../spec/prompt-input.js';

/**
 * Extracts the prompt-estimation input from an OpenAI chat body: messages (text parts, images by
 * detail, audio, files, the name, and assistant tool calls as text) and every tool or legacy
 * function definition. Tolerant: entries of unexpected shape are skipped (validation happens in
 * the codec). Collects references only; nothing is tokenized here.
 */
export function openAIChatPromptInput(body: Readonly<Record<string, unknown>>): PromptInput {
  const messages: PromptMessage[] = [];
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (typeof message !== 'object' || message === null) continue;
      const converted = convertMessage(message as Record<string, unknown>);
      if (converted !== undefined) messages.push(converted);
    }
  }
  const tools: PromptTool[] = [];
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (typeof tool !== 'object' || tool === null) continue;
      const fn = (tool as { function?: unknown }).function;
      if (typeof fn === 'object' && fn !== null) pushTool(tools, fn as Record<string, unknown>);
    }
  }
  if (Array.isArray(body.functions)) {
    for (const fn of body.functions) {
      if (typeof fn === 'object' && fn !== null) pushTool(tools, fn as Record<string, unknown>);
    }
  }
  return tools.length > 0 ? { messages, tools } : { messages };
}

function convertMessage(message: Record<string, unknown>): PromptMessage | undefined {
  const role = typeof message.role === 'string' ? message.role : '';
  const name = typeof message.name === 'string' && message.name !== '' ? message.name : undefined;
  const content = message.content;
  const toolCalls = message.tool_calls;
  const functionCall = message.function_call;
  const hasCalls = Array.isArray(toolCalls) || (typeof functionCall === 'object' && functionCall !== null);
  if (typeof content === 'string' && !hasCalls) return { role, name, content };
  const parts: PromptPart[] = [];
  if (typeof content === 'string') {
    parts.push({ type: 'text', text: content });
  } else if (Array.isArray(content)) {
    for (const part of content) {
      const converted = convertPart(part);
      if (converted !== undefined) parts.push(converted);
    }
  }
  if (Array.isArray(toolCalls)) {
    for (const call of toolCalls) {
      const fn =
        typeof call === 'object' && call !== null ? (call as { function?: unknown }).function : undefined;
      if (typeof fn === 'object' && fn !== null) pushCallText(parts, fn as Record<string, unknown>);
    }
  } else if (typeof functionCall === 'object' && functionCall !== null) {
    pushCallText(parts, functionCall as Record<string, unknown>);
  }
  return { role, name, content: parts };
}

function convertPart(part: unknown): PromptPart | undefined {
  if (typeof part === 'string') return { type: 'text', text: part };
  if (typeof part !== 'object' || part === null) return undefined;
  const record = part as Record<string, unknown>;
  switch (record.type) {
    case 'image_url': {
      const image = record.image_url;
      const detail =
        typeof image === 'object' && image !== null ? (image as { detail?: unknown }).detail : undefined;
      return { type: 'image', detail: typeof detail === 'string' ? detail : undefined };
    }
    case 'input_audio':
      return { type: 'audio' };
    case 'file':
      return { type: 'file' };
    default:
      if (typeof record.text === 'string') return { type: 'text', text: record.text };
      if (typeof record.refusal === 'string') return { type: 'text', text: record.refusal };
      return undefined;
  }
}

function pushCallText(parts: PromptPart[], fn: Record<string, unknown>): void {
  if (typeof fn.name === 'string') parts.push({ type: 'text', text: fn.name });
  if (typeof fn.arguments === 'string') parts.push({ type: 'text', text: fn.arguments });
}

function pushTool(tools: PromptTool[], fn: Record<string, unknown>): void {
  if (typeof fn.name !== 'string') return;
  tools.push({
    name: fn.name,
    description: typeof fn.description === 'string' ? fn.description : undefined,
    parameters: fn.parameters,
  });
}
