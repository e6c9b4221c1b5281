import { isRecord } from './gemini-api.js';

/** A part of a Gemini candidate as the conversion path sees it. */
export type GeminiPartItem =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'reasoning'; readonly text: string }
  | { readonly kind: 'tool-call'; readonly id: string; readonly name: string; readonly arguments: string };

/**
 * Reads the parts of a candidate's content: `text` (or reasoning when `thought: true`),
 * `functionCall` (arguments serialised as JSON; Google sends them whole, never in pieces, and
 * gives no id unless the client sent one, so one is generated), `executableCode` and
 * `codeExecutionResult` as markdown code fences, and generated images (`inlineData`) as markdown
 * data-URL images. Unknown parts are skipped.
 */
export function readGeminiParts(content: unknown): GeminiPartItem[] {
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
  const items: GeminiPartItem[] = [];
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') {
      if (part.text !== '')
        items.push({ kind: part.thought === true ? 'reasoning' : 'text', text: part.text });
    } else if (isRecord(part.functionCall)) {
      const call = part.functionCall;
      items.push({
        kind: 'tool-call',
        id:
          typeof call.id === 'string' && call.id !== ''
            ? call.id
            : `call_${crypto.randomUUID().replaceAll('-', '')}`,
        name: typeof call.name === 'string' ? call.name : '',
        arguments: JSON.stringify(isRecord(call.args) ? call.args : {}),
      });
    } else if (isRecord(part.executableCode)) {
      const code = part.executableCode;
      const language = typeof code.language === 'string' ? code.language.toLowerCase() : '';
      items.push({
        kind: 'text',
        text: `\n\`\`\`${language === 'language_unspecified' ? '' : language}\n${String(code.code ?? '')}\n\`\`\`\n`,
      });
    } else if (isRecord(part.codeExecutionResult)) {
      const result = part.codeExecutionResult;
      items.push({ kind: 'text', text: `\n\`\`\`output\n${String(result.output ?? '')}\n\`\`\`\n` });
    } else if (isRecord(part.inlineData) && typeof part.inlineData.data === 'string') {
      const mime = typeof part.inlineData.mimeType === 'string' ? part.inlineData.mimeType : 'image/png';
      items.push({ kind: 'text', text: `![image](data:${mime};base64,${part.inlineData.data})` });
    }
  }
  return items;
}
