/**
 * `@switchyard/relay-kit`: the provider layer of Switchyard. Pure: no server framework, no
 * database, no network calls. Protocol codecs parse what clients send and write what they expect;
 * provider adapters build upstream requests and read upstream responses; the pass-through tap
 * reads usage from native streams without altering them. The server sends the requests.
 *
 * Typical call (see README.md): codec.parseRequest → estimatePromptTokens → (per attempt)
 * getProviderAdapter(channel.type).buildRequest → send → parseError on non-2xx → for streams,
 * pipe the body through adapter.createPassthroughTap when the protocol is native.
 */

// Anthropic Messages (client codec) and Claude upstreams (Anthropic, AWS Bedrock).
export {
  anthropicMessagesCodec,
  formatAnthropicMessagesResponse,
  parseAnthropicMessagesRequest,
} from './protocols/anthropic-messages/anthropic-messages-codec.js';
export { anthropicMessagesPromptInput } from './protocols/anthropic-messages/anthropic-messages-prompt.js';
export { validateAnthropicMessagesRequest } from './protocols/anthropic-messages/anthropic-messages-schemas.js';
export {
  createAnthropicMessagesStreamWriter,
  formatAnthropicEvent,
} from './protocols/anthropic-messages/anthropic-messages-stream-writer.js';
export {
  anthropicErrorTypeForStatus,
  formatAnthropicErrorBody,
  formatAnthropicStreamError,
  toAnthropicStopReason,
  toAnthropicUsage,
} from './protocols/anthropic-messages/anthropic-messages-wire.js';
export { anthropicToChatCall } from './protocols/anthropic-messages/anthropic-to-chat.js';
// Gemini (client codec) and Google upstreams (Gemini API, Vertex AI).
export { geminiCodec, parseGeminiRequest } from './protocols/gemini/gemini-codec.js';
export { parseGeminiCountTokensRequest } from './protocols/gemini/gemini-count-tokens.js';
export {
  GEMINI_EMBEDDING_METHODS,
  geminiEmbeddingsCodec,
  parseGeminiEmbeddingsRequest,
} from './protocols/gemini/gemini-embeddings-codec.js';
export {
  geminiWantsJsonArrayStream,
  parseGeminiModelMethod,
  parseGeminiPath,
} from './protocols/gemini/gemini-path.js';
export { geminiPromptInput } from './protocols/gemini/gemini-prompt.js';
export { validateGeminiRequest } from './protocols/gemini/gemini-request-schemas.js';
export { createGeminiStreamWriter } from './protocols/gemini/gemini-stream-writer.js';
export { convertGeminiCallToChat } from './protocols/gemini/gemini-to-chat.js';
export { thinkingToReasoningEffort } from './protocols/gemini/gemini-to-chat-config.js';
export {
  formatGeminiErrorBody,
  formatGeminiResponse,
  googleStatusFor,
  toGeminiUsageMetadata,
} from './protocols/gemini/gemini-wire.js';
// OpenAI family: Responses, images, audio, rerank, multipart, Azure/Ollama/Custom/Cloudflare/Zhipu
// and the OpenAI-compatible vendors.
export {
  DEFAULT_SPEECH_MODEL,
  DEFAULT_TRANSCRIPTION_MODEL,
  isTranslationPath,
  openAISpeechCodec,
  openAITranscriptionCodec,
  parseOpenAISpeechRequest,
  parseOpenAITranscriptionRequest,
} from './protocols/openai-audio/openai-audio-codec.js';
// Protocols (client side).
export { openAIChatCodec, parseOpenAIChatRequest } from './protocols/openai-chat/openai-chat-codec.js';
export { openAIChatPromptInput } from './protocols/openai-chat/openai-chat-prompt.js';
export { MAX_TOKENS_LIMIT, validateOpenAIChatRequest } from './protocols/openai-chat/openai-chat-schemas.js';
export {
  formatOpenAIErrorBody,
  formatOpenAIUsageChunk,
  toOpenAIFinishReason,
  toOpenAIUsage,
} from './protocols/openai-chat/openai-chat-wire.js';
export {
  formatOpenAICompletionsResponse,
  openAICompletionsCodec,
  parseOpenAICompletionsRequest,
} from './protocols/openai-completions/openai-completions-codec.js';
export {
  type OpenAICompletionsRequestFields,
  validateOpenAICompletionsRequest,
} from './protocols/openai-completions/openai-completions-schemas.js';
export {
  formatOpenAICompletionsUsageChunk,
  toOpenAICompletionsFinishReason,
} from './protocols/openai-completions/openai-completions-wire.js';
export {
  type OpenAITextPromptInput,
  readOpenAITextInput,
} from './protocols/openai-completions/openai-text-input.js';
export {
  openAIEmbeddingsCodec,
  parseOpenAIEmbeddingsRequest,
} from './protocols/openai-embeddings/openai-embeddings-codec.js';
export {
  type OpenAIEmbeddingsRequestFields,
  readEnginesPathModel,
  validateOpenAIEmbeddingsRequest,
} from './protocols/openai-embeddings/openai-embeddings-schemas.js';
export {
  DEFAULT_IMAGE_MODEL,
  DEFAULT_IMAGE_SIZE,
  isImageEditPath,
  openAIImagesCodec,
  parseOpenAIImagesRequest,
} from './protocols/openai-images/openai-images-codec.js';
export {
  openAIModerationsCodec,
  parseOpenAIModerationsRequest,
} from './protocols/openai-moderations/openai-moderations-codec.js';
export {
  DEFAULT_MODERATION_MODEL,
  type OpenAIModerationsRequestFields,
  validateOpenAIModerationsRequest,
} from './protocols/openai-moderations/openai-moderations-schemas.js';
export {
  formatOpenAIResponsesResponse,
  openAIResponsesCodec,
  parseOpenAIResponsesRequest,
} from './protocols/openai-responses/openai-responses-codec.js';
export { createOpenAIResponsesStreamWriter } from './protocols/openai-responses/openai-responses-stream-writer.js';
export { responsesToChatCall } from './protocols/openai-responses/openai-responses-to-chat.js';
export {
  formatResponsesStreamError,
  toResponsesUsage,
} from './protocols/openai-responses/openai-responses-wire.js';
export { parseRerankRequest, rerankCodec } from './protocols/rerank/rerank-codec.js';
export { anthropicAdapter, readAnthropicUsage } from './providers/anthropic/anthropic-adapter.js';
export { parseAnthropicError } from './providers/anthropic/anthropic-error.js';
export { applyClaudeRules, claudeModelHeaders } from './providers/anthropic/anthropic-request-rules.js';
export { createAnthropicStreamTransformer } from './providers/anthropic/anthropic-stream-transformer.js';
export { createAnthropicUsageTap } from './providers/anthropic/anthropic-usage-tap.js';
export { convertAnthropicResponse } from './providers/anthropic/convert-anthropic-response.js';
export {
  AnthropicStreamUsage,
  convertAnthropicUsage,
} from './providers/anthropic/convert-anthropic-usage.js';
export { convertChatToAnthropic } from './providers/anthropic/convert-chat-to-anthropic.js';
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  convertToAnthropicRequest,
  DEFAULT_ANTHROPIC_VERSION,
  prepareAnthropicBody,
} from './providers/anthropic/convert-to-anthropic-request.js';
export { mapAnthropicFinishReason } from './providers/anthropic/map-anthropic-finish-reason.js';
export { AZURE_CONFIG, AZURE_DEFAULT_API_VERSION } from './providers/azure/azure-config.js';
export {
  AwsEventStreamDecoder,
  createBedrockEventStreamDecoder,
} from './providers/bedrock/aws-event-stream.js';
export {
  BEDROCK_ANTHROPIC_VERSION,
  bedrockAdapter,
  buildBedrockRequest,
  createBedrockAdapter,
  parseBedrockError,
  parseBedrockKey,
} from './providers/bedrock/bedrock-adapter.js';
export { bedrockModelId, crossRegionPrefix } from './providers/bedrock/bedrock-model-ids.js';
export { signAwsRequest } from './providers/bedrock/sigv4.js';
// Providers (upstream side).
export {
  classifyUpstreamError,
  readHeader,
  readRetryAfterMs,
  type UpstreamErrorClassification,
  type UpstreamErrorFacts,
} from './providers/classify-upstream-error.js';
export { CLOUDFLARE_CONFIG } from './providers/cloudflare/cloudflare-config.js';
export { CUSTOM_CONFIG } from './providers/custom/custom-config.js';
export { convertChatMessagesToGemini } from './providers/gemini/convert-chat-messages-to-gemini.js';
export {
  cleanGeminiSchema,
  convertChatToolsToGemini,
} from './providers/gemini/convert-chat-tools-to-gemini.js';
export { convertGeminiResponse } from './providers/gemini/convert-gemini-response.js';
export { convertGeminiUsage, readGeminiUsageFromText } from './providers/gemini/convert-gemini-usage.js';
export {
  convertChatBodyToGemini,
  convertToGeminiRequest,
  GEMINI_DEFAULT_BASE_URL,
  THINKING_BUDGET_BY_EFFORT,
} from './providers/gemini/convert-to-gemini-request.js';
export { geminiAdapter, readGeminiUsage } from './providers/gemini/gemini-adapter.js';
export { parseGeminiError } from './providers/gemini/gemini-error.js';
export { listGeminiModels } from './providers/gemini/gemini-models.js';
export { createGeminiStreamTransformer } from './providers/gemini/gemini-stream-transformer.js';
export { createGeminiUsageTap } from './providers/gemini/gemini-usage-tap.js';
export { mapGeminiFinishReason, toGeminiFinishReason } from './providers/gemini/map-gemini-finish-reason.js';
export { OLLAMA_CONFIG } from './providers/ollama/ollama-config.js';
export { convertOpenAIResponse } from './providers/openai/convert-openai-response.js';
export { convertOpenAIUsage, readOpenAIUsageFromText } from './providers/openai/convert-openai-usage.js';
export {
  convertResponsesUsage,
  readImagesUsage,
  readRerankUsage,
  readResponsesUsage,
  readTranscriptionUsage,
  TRANSCRIPTION_TOKENS_PER_SECOND,
} from './providers/openai/convert-responses-usage.js';
export { convertToOpenAIRequest, joinUrl } from './providers/openai/convert-to-openai-request.js';
export { mapOpenAIFinishReason } from './providers/openai/map-openai-finish-reason.js';
export {
  createOpenAIFamilyAdapter,
  openAIAdapter,
  readOpenAIFamilyUsage,
  readOpenAIUsage,
} from './providers/openai/openai-adapter.js';
export {
  OPENAI_CONFIG,
  OPENAI_MODELS_LISTING,
  OPENAI_PATHS,
  type OpenAIAuthStyle,
  type OpenAIFamilyConfig,
  type OpenAIModelsListing,
  type OpenAIUrlContext,
  type StreamOptionsPolicy,
} from './providers/openai/openai-config.js';
export { parseOpenAIError } from './providers/openai/openai-error.js';
export { listOpenAIFamilyModels, readModelNames } from './providers/openai/openai-list-models.js';
export { CLOUDFLARE_AI_GATEWAY } from './providers/openai/openai-request-target.js';
export { createOpenAIResponsesTap } from './providers/openai/openai-responses-tap.js';
export { createOpenAIStreamTransformer } from './providers/openai/openai-stream-transformer.js';
export { createOpenAIUsageTap } from './providers/openai/openai-usage-tap.js';
export {
  defineOpenAICompatibleProvider,
  type OpenAICompatibleProviderConfig,
} from './providers/openai-compatible/openai-compatible-config.js';
export {
  DEEPSEEK_CONFIG,
  OPENROUTER_HEADERS,
} from './providers/openai-compatible/openai-compatible-providers.js';
export {
  getProviderAdapter,
  isSupportedChannelType,
  listSupportedChannelTypes,
} from './providers/registry.js';
export { DEFAULT_MAX_COLLECTED_CHARS } from './providers/tap-findings.js';
export {
  createServiceAccountJwt,
  createVertexTokenSource,
  VERTEX_SCOPE,
  type VertexTokenSource,
} from './providers/vertex/vertex-access-token.js';
export {
  createVertexAdapter,
  readVertexAuth,
  type VertexAuth,
  vertexAdapter,
} from './providers/vertex/vertex-adapter.js';
export { toVertexClaudeModel, VERTEX_ANTHROPIC_VERSION } from './providers/vertex/vertex-claude-request.js';
export {
  parseServiceAccountKey,
  resolveVertexRegion,
  VERTEX_DEFAULT_REGION,
  type VertexServiceAccount,
} from './providers/vertex/vertex-credentials.js';
export { ZHIPU_V4_CONFIG } from './providers/zhipu/zhipu-config.js';
export { createZhipuToken } from './providers/zhipu/zhipu-token.js';
// Spec: the normalised vocabulary shared by codecs, adapters and the server.
export { type ChannelRuntime, type ChannelSetting, mapChannelModel } from './spec/channel-runtime.js';
export type { FinishReason } from './spec/finish-reason.js';
export type {
  GeneratedText,
  PassthroughTap,
  PassthroughTapOptions,
  PassthroughTapResult,
} from './spec/passthrough-tap.js';
export type { PromptInput, PromptMessage, PromptPart, PromptTool } from './spec/prompt-input.js';
export { PROTOCOLS, type Protocol } from './spec/protocol.js';
export type {
  ClientError,
  ClientRequest,
  ClientStreamOptions,
  ProtocolCodec,
  ResponseMeta,
} from './spec/protocol-codec.js';
export {
  acceptsProtocol,
  type HeadersLike,
  isNativeProtocol,
  type ProviderAdapter,
} from './spec/provider-adapter.js';
export {
  DEFAULT_PROVIDER_SETTINGS,
  type ProviderSettings,
  settingForModel,
} from './spec/provider-settings.js';
export type { RelayCall, RelayQuantities } from './spec/relay-call.js';
export { isRelayRequestError, RelayRequestError, type RelayRequestErrorCode } from './spec/request-error.js';
export type { SseEvent } from './spec/sse-event.js';
export type { StreamPart } from './spec/stream-part.js';
export type { UnifiedChoice, UnifiedResponse, UnifiedToolCall } from './spec/unified-response.js';
export {
  isUpstreamError,
  MAX_RAW_ERROR_BODY,
  UpstreamError,
  type UpstreamErrorCode,
  type UpstreamErrorInit,
  upstreamErrorFromException,
} from './spec/upstream-error.js';
export type { UpstreamRequest } from './spec/upstream-request.js';
export { createUsage, isEmptyUsage, type Usage, type UsageInit } from './spec/usage.js';
// Server-sent events.
export { cutAfterEvent } from './sse/cut-after-event.js';
export {
  createSseParser,
  createSseParserStream,
  DEFAULT_SSE_MAX_BUFFER,
  parseSseText,
  type SseParser,
  type SseParserOptions,
} from './sse/sse-parser.js';
export {
  createSseWriterStream,
  EMPTY_BYTES,
  encodeUtf8,
  formatSseComment,
  formatSseData,
  formatSseEvent,
  formatSseJson,
  SSE_DONE,
  SSE_DONE_BYTES,
} from './sse/sse-writer.js';
// Local token counting.
export {
  countGeneratedTokens,
  countResponseTokens,
  estimateChatPromptTokens,
  estimatePromptTokens,
  MEDIA_TOKENS,
  TOKENS_PER_TOOL_CALL,
  type TokenEstimate,
} from './tokens/estimate-prompt-tokens.js';
export {
  countTextTokens,
  createTokenCounter,
  MAX_EXACT_CHARS,
  type TokenCounter,
} from './tokens/token-counter.js';
export { encodingForModel, preloadTokenizers, type TokenEncodingName } from './tokens/tokenizer.js';
// Utilities.
export { GeneratedTextCollector } from './util/generated-text-collector.js';
export { maskSensitive } from './util/mask-sensitive.js';
export {
  isMultipartContentType,
  MultipartError,
  type MultipartForm,
  type MultipartPart,
  multipartFields,
  parseMultipart,
  readMultipartField,
  writeMultipart,
} from './util/multipart.js';
