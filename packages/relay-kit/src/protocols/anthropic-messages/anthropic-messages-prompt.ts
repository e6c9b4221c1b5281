import type { PromptInput, PromptMessage, PromptPart, PromptTool } from '../../spec/prompt-input.js';
import { isRecord } from './anthropic-messages-schemas.js';

/**
 * Extracts the prompt-estimation input from a (validated) Anthropic Messages body: the system
 * prompt as a system message, every message's text, tool use and tool result text, images and
 * documents as flat-priced media, and the tool definitions. References only; nothing is tokenized.
 */
export function anthropicMessagesPromptInput(body: Readonly<Record<string, unknown>>): PromptInput {
  const messages: PromptMessage[] = [];
  const system = body.system;
  if (typeof system === 'string' && system !== '') messages.push({ role: 'system', content: system });
  else if (Array.isArray(system)) {
    const parts: PromptPart[] = [];
    for (const block of system) collectBlock(block, parts);
    if (parts.length > 0) messages.push({ role: 'system', content: parts });
  }
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isRecord(message)) continue;
      const role = typeof message.role === 'string' ? message.role : '';
      if (typeof message.content === 'string') {
        messages.push({ role, content: message.content });
        continue;
      }
      const parts: PromptPart[] = [];
      if (Array.isArray(message.content)) for (const block of message.content) collectBlock(block, parts);
      messages.push({ role, content: parts });
    }
  }
  const tools: PromptTool[] = [];
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      if (!isRecord(tool) || typeof tool.name !== 'string') continue;
      tools.push({
        name: tool.name,
        description: typeof tool.description === 'string' ? tool.description : undefined,
        parameters: tool.input_schema,
      });
    }
  }
  return tools.length > 0 ? { messages, tools } : { messages };
}

function collectBlock(block: unknown, parts: PromptPart[]): void {
  if (!isRecord(block)) return;
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') parts.push({ type: 'text', text: block.text });
      return;
    case 'image':
      parts.push({ type: 'image' });
      return;
    case 'document':
      parts.push({ type: 'file' });
      return;
    case 'tool_use':
      if (typeof block.name === 'string') parts.push({ type: 'text', text: block.name });
      if (block.input !== undefined) parts.push({ type: 'text', text: JSON.stringify(block.input) });
      return;
    case 'tool_result':
      if (typeof block.content === 'string') parts.push({ type: 'text', text: block.content });
      else if (Array.isArray(block.content)) for (const inner of block.content) collectBlock(inner, parts);
      return;
    case 'thinking':
      if (typeof block.thinking === 'string') parts.push({ type: 'text', text: block.thinking });
      return;
    default:
      return;
  }
}
