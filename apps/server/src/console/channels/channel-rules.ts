import { type ChannelCreateBody, type ChannelUpdateBody, channelTypeInfo } from '@switchyard/shared';
import type { ChannelChanges, ChannelRow, NewChannel } from '../../db/repositories/channel-repository.ts';
import { splitCommaList } from '../../db/repositories/channel-repository.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';

/** Vertex AI: the key is a service-account JSON document, never split into lines. */
export const VERTEX_CHANNEL_TYPE = 41;
/** 讯飞星火: `other` is the API version, 'v2.1' when empty. */
export const XUNFEI_CHANNEL_TYPE = 18;
export const PRIORITY_MIN = -999;
/** Most channels one batch create may add. */
export const BATCH_MAX_CHANNELS = 1000;
/** abilities.group is varchar(64); abilities.model varchar(255). */
const GROUP_MAX = 64;
const MODEL_MAX = 255;
/** MySQL TEXT holds 65 535 bytes. */
const TEXT_MAX_BYTES = 65_535;

/** The editable fields as both bodies carry them. */
type ChannelFields = Omit<ChannelUpdateBody, 'id'>;

/** JSON-object text fields and the message shown when one is not a JSON object. */
const JSON_FIELDS = [
  ['model_mapping', '模型映射必须是合法的 JSON 格式！'],
  ['status_code_mapping', '状态码映射必须是合法的 JSON 格式！'],
  ['setting', '渠道额外设置必须是合法的 JSON 格式！'],
  ['param_override', '参数覆盖必须是合法的 JSON 格式！'],
  ['header_override', '请求头覆盖必须是合法的 JSON 格式！'],
] as const;

function checkJsonObject(value: string, message: string): string {
  const text = value.trim();
  if (text === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest(message);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidRequest(message);
  return text;
}

/** Trimmed, deduplicated comma list of models; at least one. */
function normalizeModels(models: string | undefined): string {
  const list = splitCommaList(models);
  if (list.length === 0) throw invalidRequest('请至少选择一个模型！');
  if (list.some((model) => model.length > MODEL_MAX))
    throw invalidRequest(`模型名称不能超过 ${MODEL_MAX} 个字符`);
  return list.join(',');
}

/** Trimmed, deduplicated comma list of groups; 'default' when empty. */
function normalizeGroups(group: string | undefined): string {
  const list = splitCommaList(group);
  if (list.length === 0) return 'default';
  if (list.some((name) => name.length > GROUP_MAX))
    throw invalidRequest(`分组名称不能超过 ${GROUP_MAX} 个字符`);
  return list.join(',');
}

function checkType(type: number): number {
  if (!channelTypeInfo(type)) throw invalidRequest('未知的渠道类型');
  return type;
}

function checkPriority(priority: number): number {
  if (priority < PRIORITY_MIN) throw invalidRequest(`优先级不能小于 ${PRIORITY_MIN}`);
  return priority;
}

function checkTextBytes(value: string, label: string): string {
  if (Buffer.byteLength(value, 'utf8') > TEXT_MAX_BYTES) throw invalidRequest(`${label}过长`);
  return value;
}

const text = (value: string | null | undefined) => (value ?? '').trim();
const nullableText = (value: string | null | undefined) => {
  const trimmed = text(value);
  return trimmed === '' ? null : trimmed;
};
const withoutTrailingSlashes = (value: string) => value.replace(/\/+$/, '');

/**
 * The optional fields both create and update normalize the same way; only fields present in the
 * body appear in the result (an explicit 0 priority or weight is kept).
 */
function normalizeCommonFields(body: ChannelFields): ChannelChanges {
  const changes: ChannelChanges = {};
  for (const [field, message] of JSON_FIELDS) {
    const value = body[field];
    if (value !== undefined) changes[field] = checkJsonObject(value ?? '', message);
  }
  if (body.type !== undefined) changes.type = checkType(body.type);
  if (body.base_url !== undefined) changes.base_url = withoutTrailingSlashes(text(body.base_url));
  if (body.other !== undefined) changes.other = text(body.other);
  if (body.group !== undefined) changes.group = normalizeGroups(body.group);
  if (body.tag !== undefined) changes.tag = nullableText(body.tag);
  if (body.openai_organization !== undefined)
    changes.openai_organization = nullableText(body.openai_organization);
  if (body.test_model !== undefined) changes.test_model = nullableText(body.test_model);
  if (body.priority !== undefined) changes.priority = checkPriority(body.priority);
  if (body.weight !== undefined) changes.weight = Math.max(0, body.weight);
  if (body.auto_ban !== undefined) changes.auto_ban = body.auto_ban;
  if (body.max_input_tokens !== undefined) changes.max_input_tokens = body.max_input_tokens;
  if (body.status !== undefined) changes.status = body.status;
  return changes;
}

/** The keys a create body yields: one, or one per non-empty line in batch mode (never for Vertex). */
function splitKeys(key: string, batch: boolean, type: number): string[] {
  const whole = key.trim();
  if (!batch || type === VERTEX_CHANNEL_TYPE) return whole === '' ? [] : [whole];
  return key
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The body of a create call, whether flat or nested as new-api's `{mode, channel}`. */
function flattenCreateBody(body: ChannelCreateBody): ChannelFields & { mode?: 'single' | 'batch' } {
  if (!body.channel) return body;
  return { ...body.channel, mode: body.mode };
}

/**
 * Validates a create body and returns the rows to insert (several in batch mode: the first
 * named `name`, the n-th `name_n`). Throws the console's messages on invalid input.
 */
export function channelsToCreate(rawBody: ChannelCreateBody): NewChannel[] {
  const body = flattenCreateBody(rawBody);
  const name = text(body.name);
  const type = body.type ?? 1;
  const keys = splitKeys(body.key ?? '', body.mode === 'batch', type);
  if (name === '' || keys.length === 0) throw invalidRequest('请填写渠道名称和渠道密钥！');
  const models = normalizeModels(body.models);
  const common = normalizeCommonFields(body);
  if (keys.length > BATCH_MAX_CHANNELS) throw invalidRequest(`一次最多添加 ${BATCH_MAX_CHANNELS} 个渠道`);
  for (const key of keys) checkTextBytes(key, '渠道密钥');
  checkTextBytes(models, '模型列表');
  let other = common.other ?? '';
  if (type === XUNFEI_CHANNEL_TYPE && other === '') other = 'v2.1';
  const base: NewChannel = {
    key: '',
    type: checkType(type),
    name,
    status: 1,
    auto_ban: 1,
    group: 'default',
    priority: 0,
    weight: 0,
    base_url: '',
    status_code_mapping: '',
    ...(common as Partial<NewChannel>),
    other,
    models,
  };
  return keys.map((key, index) => ({ ...base, key, name: index === 0 ? name : `${name}_${index + 1}` }));
}

/**
 * Validates an update body against the stored channel and returns the changes to apply (only the
 * fields present; the key only when a non-empty one is sent).
 */
export function channelChanges(body: ChannelUpdateBody, current: ChannelRow): ChannelChanges {
  const changes = normalizeCommonFields(body);
  if (body.name !== undefined) {
    const name = text(body.name);
    if (name === '') throw invalidRequest('请填写渠道名称和渠道密钥！');
    changes.name = name;
  }
  if (body.models !== undefined) changes.models = checkTextBytes(normalizeModels(body.models), '模型列表');
  const key = text(body.key);
  if (key !== '') changes.key = checkTextBytes(key, '渠道密钥');
  const type = changes.type ?? current.type;
  const other = changes.other ?? current.other ?? '';
  if (type === XUNFEI_CHANNEL_TYPE && other === '') changes.other = 'v2.1';
  return changes;
}
