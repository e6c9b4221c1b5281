/**
 * The parts of a request that local prompt-token estimation needs, extracted by a protocol codec
 * in a protocol-neutral shape. Building it only collects references (no string copies, no
 * tokenizing); the server tokenizes later, and only when it needs an estimate.
 */
export interface PromptInput {
  /** Chat messages; each costs a fixed overhead on top of its content. */
  readonly messages?: readonly PromptMessage[];
  /** Plain inputs counted without message overhead (completions prompt, embeddings input). */
  readonly texts?: readonly string[];
  /** Token ids the client sent directly (completions prompts, embeddings inputs), counted as is. */
  readonly tokenCount?: number;
  /** Tool (function) definitions offered to the model. */
  readonly tools?: readonly PromptTool[];
}

/** One chat message for estimation. */
export interface PromptMessage {
  readonly role: string;
  readonly name?: string | undefined;
  /** Plain text, or content parts (text, images, audio, files). */
  readonly content: string | readonly PromptPart[];
}

/** One content part for estimation. Media is priced flat; images are never downloaded. */
export type PromptPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly detail?: string | undefined }
  | { readonly type: 'audio' }
  | { readonly type: 'file' };

/** One tool definition for estimation; `parameters` is the JSON schema object as sent. */
export interface PromptTool {
  readonly name: string;
  readonly description?: string | undefined;
  readonly parameters?: unknown;
}
