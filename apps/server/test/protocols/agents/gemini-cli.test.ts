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
} from './agent-support.ts';
import { toolResultsIn } from './tool-results.ts';

/**
 * Gemini CLI (`gemini -p`, pinned in apps/server's devDependencies) set up as docs/agents.md
 * says: GOOGLE_GEMINI_BASE_URL, GEMINI_API_KEY and `security.auth.selectedType: "gemini-api-key"`.
 * Only the glob tool is offered, so the mock's call (pattern "mock" in dir_path "mock") finds
 * the workspace's `mock/mock` file.
 */
function writeGeminiSettings(workspace: AgentWorkspace) {
  mkdirSync(join(workspace.home, '.gemini'));
  const settings = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    tools: { core: ['glob'] },
  };
  writeFileSync(join(workspace.home, '.gemini', 'settings.json'), JSON.stringify(settings));
}

interface GeminiTokens {
  prompt: number;
  candidates: number;
  thoughts: number;
}

interface GeminiResult {
  response: string;
  stats: {
    models: Record<string, { api: { totalRequests: number }; tokens: GeminiTokens }>;
    tools: { totalCalls: number; totalSuccess: number; byName: Record<string, { success: number }> };
  };
}

describe('Gemini CLI through the gateway', () => {
  let gateway: AgentGateway;
  beforeAll(async () => {
    gateway = await startAgentGateway();
  });
  afterAll(async () => gateway.close());

  async function runGemini(model: string): Promise<GeminiResult> {
    const workspace = createAgentWorkspace();
    try {
      writeGeminiSettings(workspace);
      const env = confinedEnv(gateway, workspace, {
        GOOGLE_GEMINI_BASE_URL: gateway.f.baseUrl,
        GEMINI_API_KEY: gateway.key,
        // Headless runs need the folder trusted; the workspace is a throwaway directory.
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
      });
      const args = ['-p', 'Find the mock file.', '-m', model, '-o', 'json', '--approval-mode', 'yolo'];
      const run = await runAgent('gemini', args, { cwd: workspace.cwd, env });
      expectSuccess(run);
      // Nothing but the gateway: no telemetry, update check or sync went out through the proxy.
      expect(gateway.trap.attempts).toEqual([]);
      return JSON.parse(run.stdout) as GeminiResult;
    } finally {
      workspace.remove();
    }
  }

  const cases: Array<[string, AgentChannelKind]> = [
    ['a Gemini channel (pass-through)', 'gemini'],
    ['an OpenAI channel (converted)', 'openai'],
    ['an Anthropic channel (converted)', 'anthropic'],
  ];

  it.each(cases)(
    'answers through %s after a tool round trip, billed exactly',
    async (_label, channel) => {
      const model = AGENT_MODELS[channel];
      let result: GeminiResult | undefined;
      const calls = await expectAgentBilled(gateway, { model, channel }, async () => {
        result = await runGemini(model);
        const stats = result.stats.models[model];
        if (!stats) throw new Error(`no stats for ${model}: ${JSON.stringify(result.stats)}`);
        return {
          calls: stats.api.totalRequests,
          prompt: stats.tokens.prompt,
          completion: stats.tokens.candidates + stats.tokens.thoughts,
        };
      });
      expect(result?.response).toMatch(new RegExp(`^Hello from mock ${model}: `));
      expect(result?.stats.tools).toMatchObject({
        totalCalls: 1,
        totalSuccess: 1,
        byName: { glob: { success: 1 } },
      });
      expect(calls).toHaveLength(2);
      expect(toolResultsIn(calls[0]!)).toEqual([]);
      const results = toolResultsIn(calls[1]!);
      expect(results).toHaveLength(1);
      expect(results[0]).toContain('/mock/mock');
    },
    90_000,
  );
});
