import type { OptionMap } from '../api/get-options';
import type { OptionChange } from '../api/update-option';

/** One row of the visual ratio editor. Empty strings mean "not set". */
export interface ModelPricingRow {
  name: string;
  /** Fixed price per call (ModelPrice); when set, the ratios are not used. */
  price: string;
  ratio: string;
  completionRatio: string;
}

export type PricingField = 'price' | 'ratio' | 'completionRatio';
export type BatchType = 'price' | 'ratio' | 'completionRatio' | 'bothRatio';

/** The three options the visual editors write. */
export const PRICING_OPTION_KEYS = ['ModelPrice', 'ModelRatio', 'CompletionRatio'] as const;
export type PricingOptionKey = (typeof PRICING_OPTION_KEYS)[number];
export type PricingMaps = Record<PricingOptionKey, Record<string, number>>;

/** Digits with at most one decimal point, or nothing ("numbers only"; partial input like "1." allowed). */
export function isNumericInput(value: string): boolean {
  return /^(\d+\.?\d*|\.\d+)?$/.test(value.trim());
}

/** A complete number (not empty, not "."). */
export function isNumber(value: string): boolean {
  return value.trim() !== '' && isNumericInput(value) && Number.isFinite(Number(value));
}

/** A row with a fixed price has its ratio fields disabled. */
export const hasFixedPrice = (row: ModelPricingRow): boolean => row.price.trim() !== '';

function parseMap(raw: string | undefined, key: string): Record<string, number> {
  if (raw === undefined || raw.trim() === '') return {};
  const parsed: unknown = JSON.parse(raw);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`${key} is not an object`);
  const map: Record<string, number> = {};
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    const number = typeof value === 'number' ? value : Number(value);
    if (Number.isFinite(number)) map[name] = number;
  }
  return map;
}

/** Reads ModelPrice, ModelRatio and CompletionRatio; throws when one is not a JSON object. */
export function parsePricingMaps(options: OptionMap): PricingMaps {
  return {
    ModelPrice: parseMap(options.ModelPrice, 'ModelPrice'),
    ModelRatio: parseMap(options.ModelRatio, 'ModelRatio'),
    CompletionRatio: parseMap(options.CompletionRatio, 'CompletionRatio'),
  };
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

/** One row per model named in any of the three maps, sorted by name. */
export function rowsFromMaps(maps: PricingMaps): ModelPricingRow[] {
  const names = new Set([
    ...Object.keys(maps.ModelPrice),
    ...Object.keys(maps.ModelRatio),
    ...Object.keys(maps.CompletionRatio),
  ]);
  return [...names].sort().map((name) => ({
    name,
    price: text(maps.ModelPrice[name]),
    ratio: text(maps.ModelRatio[name]),
    completionRatio: text(maps.CompletionRatio[name]),
  }));
}

/**
 * Writes rows into the three maps (starting from `base`): a fixed price goes to ModelPrice only
 * and removes the model's ratios; otherwise the ratio and completion ratio that are set.
 */
export function mapsFromRows(rows: readonly ModelPricingRow[], base?: PricingMaps): PricingMaps {
  const maps: PricingMaps = {
    ModelPrice: { ...(base?.ModelPrice ?? {}) },
    ModelRatio: { ...(base?.ModelRatio ?? {}) },
    CompletionRatio: { ...(base?.CompletionRatio ?? {}) },
  };
  for (const row of rows) {
    delete maps.ModelPrice[row.name];
    delete maps.ModelRatio[row.name];
    delete maps.CompletionRatio[row.name];
    if (isNumber(row.price)) {
      maps.ModelPrice[row.name] = Number(row.price);
      continue;
    }
    if (isNumber(row.ratio)) maps.ModelRatio[row.name] = Number(row.ratio);
    if (isNumber(row.completionRatio)) maps.CompletionRatio[row.name] = Number(row.completionRatio);
  }
  return maps;
}

function canonical(map: Record<string, number>): string {
  return JSON.stringify(
    Object.keys(map)
      .sort()
      .map((name) => [name, map[name]]),
  );
}

/** The pricing options whose content differs from the stored ones, as pretty JSON. */
export function pricingChanges(before: PricingMaps, after: PricingMaps): OptionChange[] {
  return PRICING_OPTION_KEYS.filter((key) => canonical(before[key]) !== canonical(after[key])).map((key) => ({
    key,
    value: JSON.stringify(after[key], null, 2),
  }));
}

/** Batch values as typed in the batch dialog. */
export interface BatchInput {
  type: BatchType;
  value: string;
  /** The completion ratio of bothRatio. */
  completionValue: string;
}

/** Error key (settings namespace) when a batch cannot be applied, else null. */
export function checkBatch(selectedCount: number, input: BatchInput): string | null {
  if (selectedCount === 0) return 'ratio.batch.noSelection';
  if (input.type === 'bothRatio') {
    if (input.value.trim() === '' || input.completionValue.trim() === '') return 'ratio.batch.bothRequired';
    if (!isNumber(input.value) || !isNumber(input.completionValue)) return 'ratio.batch.invalidNumber';
    return null;
  }
  if (!isNumber(input.value)) return 'ratio.batch.invalidNumber';
  return null;
}

/**
 * Applies a batch to the selected rows: a price sets the fixed price; a ratio, completion ratio
 * or both switch the rows to ratio pricing (their fixed price is removed).
 */
export function applyBatch(
  rows: readonly ModelPricingRow[],
  selected: ReadonlySet<string>,
  input: BatchInput,
): ModelPricingRow[] {
  const value = input.value.trim();
  const completion = input.completionValue.trim();
  return rows.map((row) => {
    if (!selected.has(row.name)) return row;
    switch (input.type) {
      case 'price':
        return { ...row, price: value };
      case 'ratio':
        return { ...row, price: '', ratio: value };
      case 'completionRatio':
        return { ...row, price: '', completionRatio: value };
      case 'bothRatio':
        return { ...row, price: '', ratio: value, completionRatio: completion };
      default:
        return row;
    }
  });
}

/** A short stable fingerprint of the pricing options (to reset an editor when they change). */
export function pricingVersion(options: OptionMap): string {
  const source = PRICING_OPTION_KEYS.map((key) => options[key] ?? '').join('\u0000');
  let hash = 5381;
  for (let index = 0; index < source.length; index += 1) {
    hash = ((hash << 5) + hash + source.charCodeAt(index)) | 0;
  }
  return `${source.length}-${hash >>> 0}`;
}
