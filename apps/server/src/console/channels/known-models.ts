import { CHANNEL_TYPES, type KnownModel } from '@switchyard/shared';
import type { OptionStore } from '../../options/option-store.ts';

/** The `created` stamp of every built-in model entry (the reference uses the same fixed date). */
const KNOWN_MODEL_CREATED = 1_626_777_600;

/**
 * GET /api/channel/models: every model the gateway knows of, as OpenAI model objects — the
 * channel types' default models (owned by the first type listing them) followed by the keys of
 * the ModelRatio and ModelPrice options (owned by 'custom'), without duplicates.
 */
export function listKnownModels(options: OptionStore): KnownModel[] {
  const owners = new Map<string, string>();
  for (const type of CHANNEL_TYPES) {
    for (const model of type.defaultModels) if (!owners.has(model)) owners.set(model, type.label);
  }
  for (const key of ['ModelRatio', 'ModelPrice']) {
    const table = options.getJson<unknown>(key);
    if (typeof table !== 'object' || table === null || Array.isArray(table)) continue;
    for (const model of Object.keys(table)) if (!owners.has(model)) owners.set(model, 'custom');
  }
  return [...owners].map(([id, owner]) => ({
    id,
    object: 'model',
    created: KNOWN_MODEL_CREATED,
    owned_by: owner,
  }));
}
