import { RelayRequestError } from '../../spec/request-error.js';

type Json = Record<string, unknown>;

/** Responses tool types that ask for a web search (the preview names included). */
const WEB_SEARCH_TYPES = new Set(['web_search', 'web_search_preview', 'web_search_2025_08_26']);

/** A Responses `tools` list in chat terms. */
export interface ChatTools {
  /** Chat function tools, those of `namespace` groups flattened in place. */
  readonly functions: Json[];
  /**
   * Chat's `web_search_options` when a web search tool was asked for (its context size and
   * approximate location carried); the adapter maps it to its own search tool or it is dropped.
   */
  readonly webSearch: Json | undefined;
}

/**
 * Converts Responses tools for a chat upstream: `function` tools as chat functions; a
 * `namespace` tool's functions flattened into the list under their own names (so the calls the
 * model makes come back with the names the client declared); `web_search` (and its preview names)
 * as `web_search_options`. Any other built-in tool (file search, code interpreter, computer use,
 * custom tools...) cannot be served by a chat upstream: a `RelayRequestError` naming `tools[i]`
 * and its type.
 */
export function convertResponsesTools(tools: readonly unknown[]): ChatTools {
  const functions: Json[] = [];
  let webSearch: Json | undefined;
  const visit = (tool: unknown, path: string): void => {
    const record = isJson(tool) ? tool : {};
    const type = record.type;
    if (type === 'function') {
      functions.push(chatFunction(record));
      return;
    }
    if (type === 'namespace' && Array.isArray(record.tools)) {
      record.tools.forEach((inner: unknown, index) => {
        visit(inner, `${path}.tools[${index}]`);
      });
      return;
    }
    if (typeof type === 'string' && WEB_SEARCH_TYPES.has(type)) {
      webSearch = webSearchOptions(record);
      return;
    }
    throw new RelayRequestError(
      'request:invalid_body',
      `${path} of type "${String(type)}" is a built-in Responses tool the channel serving this model cannot run`,
      { param: path },
    );
  };
  tools.forEach((tool, index) => {
    visit(tool, `tools[${index}]`);
  });
  return { functions, webSearch };
}

function chatFunction(tool: Json): Json {
  const fn: Json = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.parameters !== undefined) fn.parameters = tool.parameters;
  if (tool.strict !== undefined && tool.strict !== null) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function webSearchOptions(tool: Json): Json {
  const options: Json = {};
  if (typeof tool.search_context_size === 'string') options.search_context_size = tool.search_context_size;
  if (isJson(tool.user_location)) {
    const { type: _type, ...approximate } = tool.user_location;
    options.user_location = { type: 'approximate', approximate };
  }
  return options;
}

/**
 * Responses `tool_choice` in chat terms: the modes as they are, a named function as chat's named
 * function, `allowed_tools` as its mode; a choice of a built-in tool has no chat equivalent and
 * is left out (the model chooses), as is an unknown shape.
 */
export function convertToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  if (!isJson(choice)) return undefined;
  if (choice.type === 'function' && typeof choice.name === 'string') {
    return { type: 'function', function: { name: choice.name } };
  }
  if (choice.type === 'allowed_tools' && typeof choice.mode === 'string') return choice.mode;
  return undefined;
}

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
