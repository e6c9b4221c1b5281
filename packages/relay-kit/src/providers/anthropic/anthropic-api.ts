/** Lean wire types of the Anthropic Messages API, as far as the gateway reads them. */

/** The `usage` object of a message, `message_start` or `message_delta`. */
export interface AnthropicUsageWire {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** One content block of a response (or of `content_block_start`). */
export interface AnthropicContentBlock {
  type?: string;
  text?: string;
  thinking?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

/** A non-stream response (`type: "message"`). */
export interface AnthropicMessage {
  id?: string;
  type?: string;
  role?: string;
  model?: string;
  content?: AnthropicContentBlock[];
  stop_reason?: string | null;
  stop_sequence?: string | null;
  usage?: AnthropicUsageWire;
}

/** The delta of `content_block_delta` and `message_delta`. */
export interface AnthropicDelta {
  type?: string;
  text?: string;
  thinking?: string;
  signature?: string;
  partial_json?: string;
  stop_reason?: string | null;
  stop_sequence?: string | null;
}

/** Any stream event payload. */
export interface AnthropicStreamEvent {
  type?: string;
  index?: number;
  message?: AnthropicMessage;
  content_block?: AnthropicContentBlock;
  delta?: AnthropicDelta;
  usage?: AnthropicUsageWire;
  error?: { type?: string; message?: string };
}
