import { stripScenarioDirectives } from '../mock-scenario.ts';
import { type ConversationSummary, isRecord, isThinkingModel, type ToolDefinition } from '../reply-plan.ts';
import { countWords } from '../word-count.ts';

interface GeminiContentText {
  readonly ownText: string;
  readonly allText: string;
  readonly hasFunctionResponse: boolean;
}

/**
 * Reads a Gemini `Content` (`{role, parts}`): `text` parts are its own text; a
 * `functionResponse` counts for tokens (its JSON `response`) but is not echoed.
 */
export function readGeminiContent(content: unknown): GeminiContentText {
  let ownText = '';
  let allText = '';
  let hasFunctionResponse = false;
  const parts = isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (typeof part.text === 'string') {
      ownText = ownText === '' ? part.text : `${ownText} ${part.text}`;
      allText = allText === '' ? part.text : `${allText} ${part.text}`;
    } else if (isRecord(part.functionResponse)) {
      hasFunctionResponse = true;
      const responseText = JSON.stringify(part.functionResponse.response ?? {});
      allText = allText === '' ? responseText : `${allText} ${responseText}`;
    }
  }
  return { ownText, allText, hasFunctionResponse };
}

/**
 * Summarises `systemInstruction` (one message when non-empty) and `contents`; the echoed text is
 * the last user content with text of its own.
 */
export function summarizeGeminiContents(body: Record<string, unknown>): ConversationSummary {
  let countedPromptTokens = 0;
  const systemText = readGeminiContent(body.systemInstruction ?? body.system_instruction).allText;
  if (systemText !== '') countedPromptTokens += countWords(systemText) + 3;
  let lastUserText = '';
  let endsWithToolResult = false;
  const contents = Array.isArray(body.contents) ? body.contents : [];
  for (const content of contents) {
    const text = readGeminiContent(content);
    countedPromptTokens += countWords(text.allText) + 3;
    const role = isRecord(content) ? content.role : undefined;
    if ((role === undefined || role === 'user') && text.ownText !== '') lastUserText = text.ownText;
    endsWithToolResult = text.hasFunctionResponse;
  }
  return { countedPromptTokens, lastUserText: stripScenarioDirectives(lastUserText), endsWithToolResult };
}

/**
 * The function to call: none with `functionCallingConfig.mode: "NONE"` or after a function
 * response; the first of `allowedFunctionNames` when given; else the first declaration.
 */
export function chooseGeminiTool(
  body: Record<string, unknown>,
  conversation: ConversationSummary,
): ToolDefinition | undefined {
  if (conversation.endsWithToolResult || !Array.isArray(body.tools)) return undefined;
  const toolConfig = isRecord(body.toolConfig) ? body.toolConfig : undefined;
  const callingConfig = isRecord(toolConfig?.functionCallingConfig)
    ? toolConfig.functionCallingConfig
    : undefined;
  if (callingConfig?.mode === 'NONE') return undefined;
  const definitions: ToolDefinition[] = [];
  for (const tool of body.tools) {
    if (!isRecord(tool)) continue;
    const declarations = tool.functionDeclarations ?? tool.function_declarations;
    if (!Array.isArray(declarations)) continue;
    for (const declaration of declarations) {
      if (isRecord(declaration) && typeof declaration.name === 'string') {
        definitions.push({
          name: declaration.name,
          parameters: declaration.parameters ?? declaration.parametersJsonSchema,
        });
      }
    }
  }
  const allowed = callingConfig?.allowedFunctionNames;
  if (Array.isArray(allowed) && allowed.length > 0) {
    const match = definitions.find((definition) => definition.name === allowed[0]);
    if (match) return match;
  }
  return definitions[0];
}

/** The generation settings the mock honours: output limit and thinking. */
export function readGeminiGenerationConfig(
  body: Record<string, unknown>,
  model: string,
): { maxTokens: number | undefined; thinking: boolean } {
  const config = isRecord(body.generationConfig) ? body.generationConfig : {};
  const thinkingConfig = isRecord(config.thinkingConfig) ? config.thinkingConfig : {};
  return {
    maxTokens: typeof config.maxOutputTokens === 'number' ? config.maxOutputTokens : undefined,
    thinking: thinkingConfig.includeThoughts === true || isThinkingModel(model),
  };
}
