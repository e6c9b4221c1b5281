import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_MODELS,
  type AgentChannelKind,
  type AgentGateway,
  type AgentWorkspace,
  confinedEnv,
  createAgentWorkspace,
  expectAgentBilled,
  expectSuccess,
  runAgent,
  startAgentGateway,
  TOOL_OUTPUT,
} from './agent-support.ts';
import { toolResultsIn } from './tool-results.ts';

/**
 * Codex (`codex exec`, pinned in apps/server's devDependencies) with a custom model provider, as
 * docs/agents.md says: `wire_api = "responses"`, the token in an environment variable. The
 * mock calls Codex's first tool (exec_command) with the command `mock`, which the workspace's
 * `bin/mock` answers; Codex's shell is a login shell, so ~/.profile puts that directory on PATH.
 */
function writeCodexHome(workspace: AgentWorkspace, baseUrl: string, model: string) {
  mkdirSync(join(workspace.home, '.codex'));
  writeFileSync(join(workspace.home, '.profile'), `PATH="${workspace.bin}:$PATH"\nexport PATH\n`);
  writeFileSync(
    join(workspace.home, '.codex', 'config.toml'),
    `model = "${model}"
model_provider = "switchyard"
check_for_update_on_startup = false

[model_providers.switchyard]
name = "Switchyard"
base_url = "${baseUrl}/v1"
env_key = "SWITCHYARD_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

# Nothing but the gateway: no plugin or app sync, no update checks, no analytics or feedback.
[features]
plugins = false
remote_plugin = false
apps = false
in_app_updates = false

[analytics]
enabled = false

[feedback]
enabled = false

[otel]
exporter = "none"
`,
  );
}

type CodexEvent = {
  type: string;
  item?: { type: string; text?: string; aggregated_output?: string; exit_code?: number | null };
  usage?: { input_tokens: number; cached_input_tokens: number; output_tokens: number };
};

describe('Codex through the gateway', () => {
  let gateway: AgentGateway;
  beforeAll(async () => {
    gateway = await startAgentGateway();
  });
  afterAll(async () => gateway.close());

  async function runCodex(model: string): Promise<CodexEvent[]> {
    const workspace = createAgentWorkspace();
    try {
      writeCodexHome(workspace, gateway.f.baseUrl, model);
      const env = confinedEnv(gateway, workspace, { SWITCHYARD_API_KEY: gateway.key, RUST_LOG: 'error' });
      // The workspace is a throwaway directory and the only command run is the fake `mock`:
      // no sandbox (it needs bubblewrap) and no approvals (nobody is there to give them).
      const args = ['exec', '--json', '--strict-config', '--skip-git-repo-check', '-s', 'danger-full-access'];
      const run = await runAgent('codex', [...args, 'Run the mock command.'], { cwd: workspace.cwd, env });
      expectSuccess(run);
      // Nothing but the gateway: no telemetry, update check or sync went out through the proxy.
      expect(gateway.trap.attempts).toEqual([]);
      return run.stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as CodexEvent);
    } finally {
      workspace.remove();
    }
  }

  const cases: Array<[string, AgentChannelKind]> = [
    ['an OpenAI channel (Responses pass-through)', 'openai'],
    ['an Anthropic channel (converted)', 'anthropic'],
    ['a Gemini channel (converted)', 'gemini'],
  ];

  it.each(cases)(
    'answers through %s after a tool round trip, billed exactly',
    async (_label, channel) => {
      const model = AGENT_MODELS[channel];
      let events: CodexEvent[] = [];
      const calls = await expectAgentBilled(gateway, { model, channel }, async () => {
        events = await runCodex(model);
        const usage = events.find((event) => event.type === 'turn.completed')?.usage;
        if (!usage) throw new Error(`no turn.completed event: ${JSON.stringify(events)}`);
        return { calls: 2, prompt: usage.input_tokens, completion: usage.output_tokens };
      });
      const items = events.flatMap((event) =>
        event.type === 'item.completed' && event.item ? [event.item] : [],
      );
      const command = items.find((item) => item.type === 'command_execution');
      expect(command).toMatchObject({ exit_code: 0 });
      expect(command?.aggregated_output).toContain(TOOL_OUTPUT);
      // The mock echoes the start of the last user message; conversion to Anthropic merges Codex's
      // environment context and the prompt into one user message, so only the start is fixed.
      const answer = items.filter((item) => item.type === 'agent_message').map((item) => item.text);
      expect(answer).toHaveLength(1);
      expect(answer[0]).toMatch(new RegExp(`^Hello from mock ${model}: `));
      expect(calls).toHaveLength(2);
      expect(toolResultsIn(calls[0]!)).toEqual([]);
      // The command's report goes back (its output cut to the placeholder max_output_tokens of 1).
      const results = toolResultsIn(calls[1]!);
      expect(results).toHaveLength(1);
      expect(results[0]).toContain('Process exited with code 0');
    },
    90_000,
  );
});
