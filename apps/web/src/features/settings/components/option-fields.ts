import type { OptionMap } from '../api/get-options';
import type { OptionChange } from '../api/update-option';

/**
 * How an option is edited:
 * - text / textarea: plain strings;
 * - address: a URL whose trailing slashes are removed before saving;
 * - number: InputNumber with the option's limits;
 * - switch: 'true' / 'false';
 * - json: a JSON text area, checked before saving ('不是合法的 JSON 字符串');
 * - secret: write-only (the server never sends it): shown empty, sent only when something is typed;
 * - select: one of `choices`;
 * - tags: a comma-separated list edited as tags.
 */
export type OptionFieldKind =
  | 'text'
  | 'textarea'
  | 'address'
  | 'number'
  | 'switch'
  | 'json'
  | 'secret'
  | 'select'
  | 'tags';

/** One option field of a settings section. Labels and texts are already translated. */
export interface OptionFieldSpec {
  key: string;
  kind: OptionFieldKind;
  label: string;
  help?: string;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number;
  /** Number of decimals (0 for integers). */
  precision?: number;
  /** Text area height. */
  rows?: number;
  choices?: Array<{ value: string; label: string }>;
  /** Grid width on wide screens; everything stacks at 600 px. */
  width?: 'full' | 'half' | 'third';
  /** Switching this switch off asks for confirmation first. */
  confirmOff?: { title: string; content?: string };
  /** Show the amount in dollars under a quota field. */
  quota?: boolean;
}

/** A form value as antd holds it. */
export type OptionFormValue = string | number | boolean | string[] | null | undefined;
export type OptionFormValues = Record<string, OptionFormValue>;

/** Secrets the server hides from GET /api/option/ (same rule as the server). */
export function isSecretOptionKey(key: string): boolean {
  return /(Token|Secret|Key)$/.test(key) && key !== 'TurnstileSiteKey';
}

/** 'https://example.com//' → 'https://example.com'. */
export function removeTrailingSlash(value: string): string {
  return value.trim().replace(/\/+$/, '');
}

export function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Pretty-prints JSON text for editing; other text is returned as it is. */
export function prettyJson(raw: string): string {
  if (raw.trim() === '') return raw;
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

const splitList = (raw: string) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The form value shown for a stored option value. */
export function toFormValue(field: OptionFieldSpec, raw: string | undefined): OptionFormValue {
  const value = raw ?? '';
  switch (field.kind) {
    case 'switch':
      return value === 'true';
    case 'number': {
      if (value.trim() === '') return null;
      const number = Number(value);
      return Number.isFinite(number) ? number : null;
    }
    case 'secret':
      return '';
    case 'json':
      return prettyJson(value);
    case 'tags':
      return splitList(value);
    default:
      return value;
  }
}

/** The string an option form value is saved as. */
export function serializeFormValue(field: OptionFieldSpec, value: OptionFormValue): string {
  switch (field.kind) {
    case 'switch':
      return value === true ? 'true' : 'false';
    case 'number':
      return value === null || value === undefined || value === '' ? '' : String(value);
    case 'tags':
      return Array.isArray(value)
        ? value
            .map((item) => item.trim())
            .filter(Boolean)
            .join(',')
        : '';
    case 'address':
      return removeTrailingSlash(typeof value === 'string' ? value : '');
    case 'secret':
      return typeof value === 'string' ? value.trim() : '';
    default:
      return value === null || value === undefined ? '' : String(value);
  }
}

/** The initial form values of a section. */
export function buildFormValues(fields: readonly OptionFieldSpec[], options: OptionMap): OptionFormValues {
  const values: OptionFormValues = {};
  for (const field of fields) values[field.key] = toFormValue(field, options[field.key]);
  return values;
}

/**
 * The options whose value differs from what is stored. A secret counts as changed only when the
 * admin typed a new value (it is never shown, so an empty field means "keep").
 */
export function collectChanges(
  fields: readonly OptionFieldSpec[],
  options: OptionMap,
  values: OptionFormValues,
): OptionChange[] {
  const changes: OptionChange[] = [];
  for (const field of fields) {
    const value = serializeFormValue(field, values[field.key]);
    if (field.kind === 'secret') {
      if (value !== '') changes.push({ key: field.key, value });
      continue;
    }
    const stored = serializeFormValue(field, toFormValue(field, options[field.key]));
    if (value !== stored) changes.push({ key: field.key, value });
  }
  return changes;
}
