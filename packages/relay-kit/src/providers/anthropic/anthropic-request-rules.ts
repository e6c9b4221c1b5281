import type { ProviderSettings } from '../../spec/provider-settings.js';
import { settingForModel } from '../../spec/provider-settings.js';

/** The model suffix that turns extended thinking on (`claude.thinking_adapter_enabled`). */
export const THINKING_SUFFIX = '-thinking';
/** The smallest `max_tokens` the thinking adapter sends (budget 1024 at the default 0.8). */
export const THINKING_MIN_MAX_TOKENS = 1280;
/** Anthropic's smallest accepted thinking budget. */
const MIN_THINKING_BUDGET = 1024;

/**
 * Applies the site's Claude settings to a Messages body (mutates the copy it is given) and
 * returns the model to send:
 *
 * - The `-thinking` suffix (when the adapter is enabled): the suffix is removed, `max_tokens`
 *   raised to at least 1280, `thinking = {type: "enabled", budget_tokens: floor(max_tokens ×
 *   percentage)}` (unless the body already has `thinking`), `temperature` 1, `top_p`/`top_k` dropped.
 * - `max_tokens` missing → `claude.default_max_tokens` for the model, else `default`, else 8192.
 * - Thinking turned on by the client (or `reasoning_effort`): `temperature` 1 and `top_p`/`top_k`
 *   dropped as Anthropic requires, and `max_tokens` kept above the budget.
 *
 * Returns `changed: false` when the body was left untouched, so the caller can forward bytes.
 */
export function applyClaudeRules(
  body: Record<string, unknown>,
  model: string,
  settings: ProviderSettings,
  warnings: string[],
): { model: string; changed: boolean } {
  const claude = settings.claude;
  let changed = false;
  let finalModel = model;
  const suffixed =
    claude.thinkingAdapterEnabled && model.endsWith(THINKING_SUFFIX) && model !== THINKING_SUFFIX;
  if (suffixed) {
    finalModel = model.slice(0, -THINKING_SUFFIX.length);
    changed = true;
  }
  if (body.model !== finalModel) {
    body.model = finalModel;
    changed = true;
  }
  if (typeof body.max_tokens !== 'number' || body.max_tokens <= 0) {
    const fallback = settingForModel(claude.defaultMaxTokens, model, 8192);
    body.max_tokens = suffixed ? settingForModel(claude.defaultMaxTokens, finalModel, fallback) : fallback;
    changed = true;
  }
  if (suffixed && !isEnabledThinking(body.thinking)) {
    const maxTokens = Math.max(body.max_tokens as number, THINKING_MIN_MAX_TOKENS);
    body.max_tokens = maxTokens;
    const budget = Math.floor(maxTokens * claude.thinkingBudgetPercentage);
    body.thinking = { type: 'enabled', budget_tokens: clampBudget(budget, maxTokens) };
    body.temperature = 1;
  }
  if (isEnabledThinking(body.thinking)) {
    changed = prepareForThinking(body, warnings) || changed;
  }
  return { model: finalModel, changed };
}

/** Anthropic's constraints on a thinking request; returns true when the body changed. */
function prepareForThinking(body: Record<string, unknown>, warnings: string[]): boolean {
  let changed = false;
  const thinking = body.thinking as Record<string, unknown>;
  const budget = typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens : MIN_THINKING_BUDGET;
  if (typeof body.max_tokens === 'number' && body.max_tokens <= budget) {
    body.max_tokens = budget + MIN_THINKING_BUDGET;
    warnings.push(`parameter "max_tokens" was raised to ${body.max_tokens} to exceed the thinking budget`);
    changed = true;
  }
  if (body.temperature !== undefined && body.temperature !== 1) {
    body.temperature = 1;
    warnings.push('parameter "temperature" was set to 1 because thinking is enabled');
    changed = true;
  }
  for (const field of ['top_p', 'top_k']) {
    if (Object.hasOwn(body, field)) {
      delete body[field];
      warnings.push(`parameter "${field}" was removed because thinking is enabled`);
      changed = true;
    }
  }
  return changed;
}

function isEnabledThinking(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'enabled';
}

function clampBudget(budget: number, maxTokens: number): number {
  return Math.max(MIN_THINKING_BUDGET, Math.min(budget, maxTokens - 1));
}

/** The extra headers `claude.model_headers_settings` defines for a model (values joined with `,`). */
export function claudeModelHeaders(settings: ProviderSettings, model: string): Record<string, string> {
  const table = settings.claude.modelHeaders;
  const headers: Record<string, string> = {};
  if (!Object.hasOwn(table, model)) return headers;
  for (const [name, values] of Object.entries(table[model]!)) {
    const list = Array.isArray(values) ? values : [String(values)];
    if (list.length > 0) headers[name.toLowerCase()] = list.join(',');
  }
  return headers;
}
