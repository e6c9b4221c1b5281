/** Claude model names → Bedrock model ids. */
export const BEDROCK_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-instant-1.2': 'anthropic.claude-instant-v1',
  'claude-2.0': 'anthropic.claude-v2',
  'claude-2.1': 'anthropic.claude-v2:1',
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
};

/**
 * Models Bedrock serves only through cross-region inference profiles: their id gets the region's
 * geography prefix (`us.`, `eu.`, `apac.`).
 */
const CROSS_REGION_ONLY = new Set([
  'anthropic.claude-3-5-haiku-20241022-v1:0',
  'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'anthropic.claude-sonnet-4-20250514-v1:0',
  'anthropic.claude-opus-4-20250514-v1:0',
  'anthropic.claude-opus-4-1-20250805-v1:0',
]);

/** The inference profile prefix of a region (`us-east-1` → `us`), if it has one. */
export function crossRegionPrefix(region: string): string | undefined {
  if (region.startsWith('us-gov-')) return 'us-gov';
  if (region.startsWith('us-')) return 'us';
  if (region.startsWith('eu-')) return 'eu';
  if (region.startsWith('ap-')) return 'apac';
  return undefined;
}

/**
 * The Bedrock model id for a model name: the table above; a name that already is a Bedrock id,
 * an inference profile or an ARN (it contains a dot or a colon) is used as is. Cross-region-only
 * models get the region's prefix.
 */
export function bedrockModelId(model: string, region: string): string {
  const id = BEDROCK_MODEL_IDS[model] ?? model;
  if (!CROSS_REGION_ONLY.has(id)) return id;
  const prefix = crossRegionPrefix(region);
  return prefix === undefined ? id : `${prefix}.${id}`;
}
