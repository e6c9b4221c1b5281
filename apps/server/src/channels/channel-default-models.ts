import { CHANNEL_TYPES } from '@switchyard/shared';

/** GET /api/models: channel type id → the models the console offers for it. */
export function channelTypeDefaultModels(): Record<number, string[]> {
  const result: Record<number, string[]> = {};
  for (const type of CHANNEL_TYPES) result[type.id] = [...type.defaultModels];
  return result;
}
