import type { ChannelChanges } from '../../db/repositories/channel-repository.ts';
import { splitCommaList } from '../../db/repositories/channel-repository.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import type { ChannelBatchTagBody, ChannelTagEditBody } from './channel-operation-schemas.ts';

const PRIORITY_MIN = -999;
const PRIORITY_MAX = 1e15;
const WEIGHT_MAX = 2_147_483_647;
const MODEL_MAX = 255;
const GROUP_MAX = 64;
/** channels.group is varchar(255). */
const GROUP_COLUMN_MAX = 255;
const TEXT_MAX_BYTES = 65_535;

export const TAG_REQUIRED = '标签不能为空！';
export const SELECT_CHANNELS_FOR_TAG = '请先选择要设置标签的渠道！';
export const SELECT_CHANNELS_FOR_DELETE = '请先选择要删除的通道！';
export const NOTHING_CHANGED = '没有任何修改！';
export const PRIORITY_NOT_INTEGER = '优先级必须是整数！';
export const WEIGHT_NOT_NON_NEGATIVE = '权重必须是非负整数！';

/** The tag named by a body, trimmed; throws '标签不能为空！' when empty. */
export function requireTag(tag: string | null | undefined): string {
  const value = (tag ?? '').trim();
  if (value === '') throw invalidRequest(TAG_REQUIRED);
  return value;
}

/** An integer from a number or its decimal text; undefined when absent (null, '' or missing). */
function readInteger(value: number | string | null | undefined, message: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return undefined;
    if (!/^[-+]?\d+$/.test(text)) throw invalidRequest(message);
    value = Number(text);
  }
  if (!Number.isSafeInteger(value)) throw invalidRequest(message);
  return value;
}

function checkModelMapping(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest('模型映射必须是合法的 JSON 格式！');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw invalidRequest('模型映射必须是合法的 JSON 格式！');
  return text;
}

function normalizeModels(text: string): string {
  const models = splitCommaList(text);
  if (models.length === 0) throw invalidRequest('请至少选择一个模型！');
  if (models.some((model) => model.length > MODEL_MAX))
    throw invalidRequest(`模型名称不能超过 ${MODEL_MAX} 个字符`);
  const joined = models.join(',');
  if (Buffer.byteLength(joined, 'utf8') > TEXT_MAX_BYTES) throw invalidRequest('模型列表过长');
  return joined;
}

function normalizeGroups(text: string): string {
  const groups = splitCommaList(text);
  if (groups.length === 0) throw invalidRequest('请至少选择一个分组！');
  if (groups.some((group) => group.length > GROUP_MAX))
    throw invalidRequest(`分组名称不能超过 ${GROUP_MAX} 个字符`);
  const joined = groups.join(',');
  if (joined.length > GROUP_COLUMN_MAX) throw invalidRequest('分组过多');
  return joined;
}

/**
 * PUT /api/channel/tag: the channel changes a tag edit makes. Every given field overwrites the
 * field of every channel carrying the tag; absent, null or empty fields leave it unchanged.
 * `new_tag` renames the tag ('' dissolves it: the channels become untagged; the same name is no
 * change). Priority must be an integer (at least -999), weight a non-negative integer.
 * Nothing to change → '没有任何修改！'.
 */
export function tagEditChanges(body: ChannelTagEditBody): { tag: string; changes: ChannelChanges } {
  const tag = requireTag(body.tag);
  const changes: ChannelChanges = {};
  if (body.new_tag !== undefined && body.new_tag !== null) {
    const newTag = body.new_tag.trim();
    if (newTag !== tag) changes.tag = newTag === '' ? null : newTag;
  }
  const modelMapping = body.model_mapping?.trim();
  if (modelMapping) changes.model_mapping = checkModelMapping(modelMapping);
  const models = body.models?.trim();
  if (models) changes.models = normalizeModels(models);
  const groups = body.groups?.trim();
  if (groups) changes.group = normalizeGroups(groups);
  const priority = readInteger(body.priority, PRIORITY_NOT_INTEGER);
  if (priority !== undefined) {
    if (priority < PRIORITY_MIN) throw invalidRequest(`优先级不能小于 ${PRIORITY_MIN}`);
    if (priority > PRIORITY_MAX) throw invalidRequest(PRIORITY_NOT_INTEGER);
    changes.priority = priority;
  }
  const weight = readInteger(body.weight, WEIGHT_NOT_NON_NEGATIVE);
  if (weight !== undefined) {
    if (weight < 0 || weight > WEIGHT_MAX) throw invalidRequest(WEIGHT_NOT_NON_NEGATIVE);
    changes.weight = weight;
  }
  if (Object.keys(changes).length === 0) throw invalidRequest(NOTHING_CHANGED);
  return { tag, changes };
}

/** POST /api/channel/batch/tag: the ids (at least one) and the tag (non-empty). */
export function batchTagInput(body: ChannelBatchTagBody): { ids: number[]; tag: string } {
  const ids = body.ids ?? [];
  if (ids.length === 0) throw invalidRequest(SELECT_CHANNELS_FOR_TAG);
  return { ids, tag: requireTag(body.tag) };
}
