import type { MockUsage, ReplyPlan } from '../reply-plan.ts';

/** Ids of the output items of one response. */
export interface ResponseItemIds {
  readonly response: string;
  readonly reasoning: string;
  readonly message: string;
  readonly functionCall: string;
  readonly callId: string;
}

/** Responses usage: input (cached inside), output (reasoning inside), and their details. */
export function buildResponsesUsage(usage: MockUsage): Record<string, unknown> {
  const outputTokens = usage.outputTokens + usage.reasoningTokens;
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.promptTokens + outputTokens,
  };
}

/** The finished output items: a reasoning item, then the message or the function call. */
export function buildResponseOutput(plan: ReplyPlan, ids: ResponseItemIds): Record<string, unknown>[] {
  const output: Record<string, unknown>[] = [];
  if (plan.reasoning !== '') {
    output.push({
      id: ids.reasoning,
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: plan.reasoning }],
    });
  }
  if (plan.toolCall) {
    output.push({
      id: ids.functionCall,
      type: 'function_call',
      status: 'completed',
      arguments: plan.toolCall.argumentsJson,
      call_id: ids.callId,
      name: plan.toolCall.name,
    });
  } else {
    output.push({
      id: ids.message,
      type: 'message',
      status: plan.finish === 'length' ? 'incomplete' : 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: plan.text, annotations: [], logprobs: [] }],
    });
  }
  return output;
}

/** The response object around `output`, in the given status (usage only when passed). */
export function buildResponseObject(
  body: Record<string, unknown>,
  model: string,
  ids: ResponseItemIds,
  createdAt: number,
  state: { status: string; output: unknown[]; usage: Record<string, unknown> | null | undefined },
): Record<string, unknown> {
  const incomplete = state.status === 'incomplete';
  const result: Record<string, unknown> = {
    id: ids.response,
    object: 'response',
    created_at: createdAt,
    status: state.status,
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    model,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: body.store !== false,
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    text: { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: typeof body.top_p === 'number' ? body.top_p : 1,
    truncation: 'disabled',
    user: null,
    metadata: {},
  };
  if (state.usage !== undefined) result.usage = state.usage;
  return result;
}
