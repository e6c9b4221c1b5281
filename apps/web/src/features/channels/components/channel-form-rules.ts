import type { ChannelCreateBody, ChannelView } from '@switchyard/shared';
import { isJsonObjectText, splitList } from './channel-rules';

/** Type 18 (讯飞星火): an empty model version means v2.1. */
const XUNFEI = 18;
export const PRIORITY_MIN = -999;

/** The editor's values. Groups and models are lists in the form, comma strings on the wire. */
export interface ChannelFormValues {
  type: number;
  name: string;
  base_url: string;
  key: string;
  batch: boolean;
  other: string;
  models: string[];
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  tag: string;
  priority: number | null;
  weight: number | null;
  openai_organization: string;
  test_model: string;
  auto_ban: boolean;
}

/** Spec §9: type 1, auto-ban on, group default, priority 0, weight 0. */
export const newChannelValues = (): ChannelFormValues => ({
  type: 1,
  name: '',
  base_url: '',
  key: '',
  batch: false,
  other: '',
  models: [],
  groups: ['default'],
  model_mapping: '',
  status_code_mapping: '',
  setting: '',
  tag: '',
  priority: 0,
  weight: 0,
  openai_organization: '',
  test_model: '',
  auto_ban: true,
});

export const channelToFormValues = (channel: ChannelView): ChannelFormValues => ({
  type: channel.type,
  name: channel.name,
  base_url: channel.base_url ?? '',
  key: '',
  batch: false,
  other: channel.other ?? '',
  models: splitList(channel.models),
  groups: splitList(channel.group),
  model_mapping: channel.model_mapping ?? '',
  status_code_mapping: channel.status_code_mapping ?? '',
  setting: channel.setting ?? '',
  tag: channel.tag ?? '',
  priority: channel.priority,
  weight: channel.weight,
  openai_organization: channel.openai_organization ?? '',
  test_model: channel.test_model ?? '',
  auto_ban: channel.auto_ban === 1,
});

/** Message keys (channels:edit.errors.*) of the editor's refusals. */
export type ChannelFormError =
  | 'nameAndKey'
  | 'modelsRequired'
  | 'modelMapping'
  | 'statusCodeMapping'
  | 'setting'
  | 'priorityMin'
  | 'resubmit';

/**
 * Checks the editor values and builds the create/update body: name and key required when
 * creating, at least one model, JSON fields valid, trailing slash of the base URL removed, type 18
 * defaults to v2.1, priority ≥ -999, a negative weight saved as 0, an empty priority or weight
 * ignored, an empty key on update keeps the stored key.
 */
export function buildChannelBody(
  values: ChannelFormValues,
  creating: boolean,
): { body: ChannelCreateBody } | { error: ChannelFormError } {
  const name = values.name.trim();
  const key = values.key.trim();
  if (name === '' || (creating && key === '')) return { error: 'nameAndKey' };
  if (!Array.isArray(values.models)) return { error: 'resubmit' };
  const models = values.models.map((model) => model.trim()).filter(Boolean);
  if (models.length === 0) return { error: 'modelsRequired' };
  if (!isJsonObjectText(values.model_mapping)) return { error: 'modelMapping' };
  if (!isJsonObjectText(values.status_code_mapping)) return { error: 'statusCodeMapping' };
  if (!isJsonObjectText(values.setting)) return { error: 'setting' };
  if (values.priority !== null && values.priority < PRIORITY_MIN) return { error: 'priorityMin' };
  let other = values.other.trim();
  if (values.type === XUNFEI && other === '') other = 'v2.1';
  const body: ChannelCreateBody = {
    type: values.type,
    name,
    base_url: values.base_url.trim().replace(/\/+$/, ''),
    other,
    models: [...new Set(models)].join(','),
    group: values.groups.join(','),
    model_mapping: values.model_mapping.trim(),
    status_code_mapping: values.status_code_mapping.trim(),
    setting: values.setting.trim(),
    tag: values.tag.trim(),
    openai_organization: values.type === 1 ? values.openai_organization.trim() : '',
    test_model: values.test_model.trim(),
    auto_ban: values.auto_ban ? 1 : 0,
  };
  if (values.priority !== null && Number.isFinite(values.priority))
    body.priority = Math.trunc(values.priority);
  if (values.weight !== null && Number.isFinite(values.weight))
    body.weight = Math.max(0, Math.trunc(values.weight));
  if (key !== '') body.key = values.type === 41 || values.batch ? values.key : key;
  if (creating && values.batch) body.mode = 'batch';
  return { body };
}

/** The tag editor's values: everything empty means unchanged; an empty new tag dissolves the tag. */
export interface TagFormValues {
  new_tag: string;
  models: string[];
  groups: string[];
  model_mapping: string;
  priority: string;
  weight: string;
}

export type TagFormError = 'nothingChanged' | 'priorityInteger' | 'weightNonNegative' | 'modelMapping';

/** Builds PUT /api/channel/tag: only the filled fields are sent (each one overwrites every channel). */
export function buildTagEditBody(
  tag: string,
  values: TagFormValues,
): { body: Record<string, string | number> & { tag: string } } | { error: TagFormError } {
  const body: Record<string, string | number> & { tag: string } = { tag };
  const newTag = values.new_tag.trim();
  if (newTag !== tag) body.new_tag = newTag;
  if (values.models.length > 0) body.models = values.models.join(',');
  if (values.groups.length > 0) body.groups = values.groups.join(',');
  const mapping = values.model_mapping.trim();
  if (mapping !== '') {
    if (!isJsonObjectText(mapping)) return { error: 'modelMapping' };
    body.model_mapping = mapping;
  }
  const priority = values.priority.trim();
  if (priority !== '') {
    if (!/^[-+]?\d+$/.test(priority)) return { error: 'priorityInteger' };
    body.priority = Number(priority);
  }
  const weight = values.weight.trim();
  if (weight !== '') {
    if (!/^\+?\d+$/.test(weight)) return { error: 'weightNonNegative' };
    body.weight = Number(weight);
  }
  if (Object.keys(body).length === 1) return { error: 'nothingChanged' };
  return { body };
}
