/**
 * `@switchyard/mock-upstream`: a dependency-free stand-in for OpenAI, Anthropic and Gemini
 * upstreams that speaks their real JSON, SSE and error wire formats, with per-request scenarios.
 */

export { summarizeAnthropicMessages } from './anthropic/anthropic-conversation.ts';
export { summarizeGeminiContents } from './gemini/gemini-conversation.ts';
export { defaultScenario, type MockScenario, MockScenarioError, parseScenario } from './mock-scenario.ts';
export {
  defaultRecordLimit,
  type MockUpstream,
  type MockUpstreamOptions,
  startMockUpstream,
} from './mock-upstream-server.ts';
export { summarizeOpenAiMessages } from './openai/openai-chat-conversation.ts';
export { mockPngBase64 } from './openai/openai-media-handlers.ts';
export { invalidApiKey } from './provider-auth.ts';
export type { ConversationSummary } from './reply-plan.ts';
export { argumentFragmentLength, buildReplyText, mockReasoningText, paddingWord } from './reply-plan.ts';
export type { RecordedRequest } from './request-recorder.ts';
export { parseServerSentEvents, parseServerSentJson, type ServerSentEvent } from './server-sent-events.ts';
export { countWords } from './word-count.ts';
