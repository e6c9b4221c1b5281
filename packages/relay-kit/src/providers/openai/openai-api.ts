/**
 * Lean types of the OpenAI wire format: only the fields Switchyard reads. Everything is optional
 * because OpenAI-compatible upstreams omit or null fields freely; readers must check types.
 */

/** `usage` of a chat completion, completion, embedding or stream chunk. */
export interface OpenAIUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: {
    cached_tokens?: number | null;
    audio_tokens?: number | null;
    /** Some compatible upstreams report prompt-cache writes here. */
    cache_write_tokens?: number | null;
  } | null;
  completion_tokens_details?: {
    reasoning_tokens?: number | null;
    audio_tokens?: number | null;
  } | null;
  /** DeepSeek: prompt tokens served from its context cache. */
  prompt_cache_hit_tokens?: number | null;
  /** DeepSeek: prompt tokens not served from its cache. */
  prompt_cache_miss_tokens?: number | null;
}

/** One tool call (or fragment of one, in streams). */
export interface OpenAIToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

/** `message` of a non-stream choice, or `delta` of a stream choice. */
export interface OpenAIMessageLike {
  role?: string;
  content?: string | null;
  /** DeepSeek, vLLM, many resellers. */
  reasoning_content?: string | null;
  /** OpenRouter and some others. */
  reasoning?: string | null;
  refusal?: string | null;
  tool_calls?: OpenAIToolCall[] | null;
  /** Legacy function calling. */
  function_call?: { name?: string; arguments?: string } | null;
}

/** One choice of a chat completion chunk. */
export interface OpenAIChunkChoice {
  index?: number;
  delta?: OpenAIMessageLike | null;
  finish_reason?: string | null;
  /** Moonshot sends stream usage inside the choice. */
  usage?: OpenAIUsage | null;
}

/** `chat.completion.chunk` */
export interface OpenAIChatChunk {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  choices?: OpenAIChunkChoice[] | null;
  usage?: OpenAIUsage | null;
  error?: OpenAIErrorObject;
}

/** `chat.completion` */
export interface OpenAIChatCompletion {
  id?: string;
  object?: string;
  created?: number;
  model?: string;
  choices?: Array<{
    index?: number;
    message?: OpenAIMessageLike | null;
    /** Legacy completions. */
    text?: string | null;
    finish_reason?: string | null;
  }> | null;
  usage?: OpenAIUsage | null;
}

/** The `error` object of an OpenAI error body `{"error": {...}}`. */
export interface OpenAIErrorObject {
  message?: unknown;
  type?: unknown;
  param?: unknown;
  code?: unknown;
}
