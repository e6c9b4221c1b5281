import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_MODELS,
  type AgentChannelKind,
  type AgentGateway,
  CLAUDE_CODE_DEFAULT_MODEL,
  confinedEnv,
  createAgentWorkspace,
  expectAgentBilled,
  expectSuccess,
  runAgent,
  startAgentGateway,
} from './agent-support.ts';
import { toolResultsIn } from './tool-results.ts';

/**
 * Claude Code (`claude -p`, pinned in apps/server's devDependencies) set up as docs/agents.md
 * says: ANTHROPIC_BASE_URL and ANTHROPIC_AUTH_TOKEN. Only the Glob tool is offered, so the
 * mock's tool call (placeholder arguments: pattern "mock" in path "mock") finds the workspace's
 * `mock/mock` file, and the next call carries that result back.
 */
interface ClaudeResult {
  is_error: boolean;
  result: string;
  num_turns: number;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  };
}

describe('Claude Code through the gateway', () => {
  let gateway: AgentGateway;
  beforeAll(async () => {
    gateway = await startAgentGateway();
  });
  afterAll(async () => gateway.close());

  async function runClaude(model: string | undefined): Promise<ClaudeResult> {
    const workspace = createAgentWorkspace();
    try {
      const env = confinedEnv(gateway, workspace, {
        ANTHROPIC_BASE_URL: gateway.f.baseUrl,
        ANTHROPIC_AUTH_TOKEN: gateway.key,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
        DISABLE_BUG_COMMAND: '1',
        // A refusal fails the run at once instead of after ten retries.
        CLAUDE_CODE_MAX_RETRIES: '0',
      });
      const args = ['-p', 'Find the mock file.', '--tools', 'Glob', '--output-format', 'json'];
      if (model !== undefined) args.push('--model', model);
      const run = await runAgent('claude', args, { cwd: workspace.cwd, env });
      expectSuccess(run);
      // Nothing but the gateway: no telemetry, update check or sync went out through the proxy.
      expect(gateway.trap.attempts).toEqual([]);
      return JSON.parse(run.stdout) as ClaudeResult;
    } finally {
      workspace.remove();
    }
  }

  const cases: Array<[string, AgentChannelKind]> = [
    ['an Anthropic channel (pass-through)', 'anthropic'],
    ['an OpenAI channel (converted)', 'openai'],
    ['a Gemini channel (converted)', 'gemini'],
  ];

  it.each(cases)(
    'answers through %s after a tool round trip, billed exactly',
    async (_label, channel) => {
      const model = AGENT_MODELS[channel];
      let result: ClaudeResult | undefined;
      const calls = await expectAgentBilled(gateway, { model, channel }, async () => {
        result = await runClaude(model);
        const usage = result.usage;
        return {
          calls: result.num_turns,
          prompt: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
          completion: usage.output_tokens,
        };
      });
      expect(result?.is_error).toBe(false);
      expect(result?.result).toMatch(new RegExp(`^Hello from mock ${model}: `));
      // First call: the model asks for Glob; second: Glob's real output goes back, the model answers.
      expect(calls).toHaveLength(2);
      expect(toolResultsIn(calls[0]!)).toEqual([]);
      const results = toolResultsIn(calls[1]!);
      expect(results).toHaveLength(1);
      expect(results[0]).toContain('mock/mock');
    },
    90_000,
  );

  it('runs with its default model (the newest request shape) on an Anthropic channel, billed exactly', async () => {
    let result: ClaudeResult | undefined;
    const model = CLAUDE_CODE_DEFAULT_MODEL;
    const calls = await expectAgentBilled(gateway, { model, channel: 'anthropic' }, async () => {
      result = await runClaude(undefined);
      const usage = result.usage;
      return {
        calls: result.num_turns,
        prompt: usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens,
        completion: usage.output_tokens,
      };
    });
    expect(result?.result).toMatch(new RegExp(`^Hello from mock ${model}: `));
    expect(calls.map((call) => (call.body as { model: string }).model)).toEqual([model, model]);
    expect(toolResultsIn(calls[1]!).join()).toContain('mock/mock');
  }, 90_000);
});
