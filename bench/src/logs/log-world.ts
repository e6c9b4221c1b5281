/**
 * The population a filled log table describes: users (a few heavy ones), their tokens, models
 * (a few popular ones) and the channels serving them. Pure and seeded, so a run at 100k rows and
 * one at 10M describe the same world.
 */

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cumulative weights for {@link pick}. */
export type Cumulative = Float64Array;

/** Zipf-like weights 1/rank^s for ranks 1..n, as a cumulative table. */
export function zipfCumulative(n: number, s: number): Cumulative {
  return cumulativeOf(Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s));
}

export function cumulativeOf(weights: readonly number[]): Cumulative {
  const out = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    sum += weights[i]!;
    out[i] = sum;
  }
  return out;
}

/** An index drawn with the table's weights (binary search on u · total). */
export function pick(cumulative: Cumulative, u: number): number {
  const target = u * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export interface WorldUser {
  id: number;
  username: string;
  group: string;
  /** Indexes into World.tokens. */
  tokens: number[];
  tokenCumulative: Cumulative;
}

export interface WorldToken {
  id: number;
  userIndex: number;
  name: string;
  key: string;
  /** Indexes into World.models. */
  models: number[];
  modelCumulative: Cumulative;
}

export interface WorldModel {
  name: string;
  /** Channel ids serving the model. */
  channels: number[];
}

export interface WorldChannel {
  id: number;
  name: string;
  models: string[];
}

export interface World {
  users: WorldUser[];
  userCumulative: Cumulative;
  tokens: WorldToken[];
  models: WorldModel[];
  channels: WorldChannel[];
}

export interface WorldSize {
  users: number;
  tokens: number;
  channels: number;
  models: number;
}

export const FULL_WORLD: WorldSize = { users: 1000, tokens: 5000, channels: 50, models: 200 };

const FAMILIES = [
  'gpt-4o',
  'gpt-4o-mini',
  'claude-3-5-sonnet',
  'gpt-4.1',
  'claude-sonnet-4',
  'gemini-2.5-pro',
  'deepseek-chat',
  'gemini-2.0-flash',
  'o3-mini',
  'qwen-max',
  'claude-3-haiku',
  'deepseek-reasoner',
  'text-embedding-3-small',
  'glm-4',
  'moonshot-v1-8k',
  'llama-3.1-70b',
  'mistral-large',
  'doubao-pro-32k',
  'grok-3',
  'ernie-4.0',
];

/** Model names: families, then dated and suffixed variants (popular families first). */
export function modelNames(count: number): string[] {
  const names: string[] = [];
  const suffixes = [
    '',
    '-2024-08-06',
    '-latest',
    '-preview',
    '-0613',
    '-20241022',
    '-thinking',
    '-search',
    '-v2',
    '-turbo',
  ];
  for (const suffix of suffixes) {
    for (const family of FAMILIES) {
      if (names.length === count) return names;
      names.push(`${family}${suffix}`);
    }
  }
  for (let i = names.length; i < count; i++) names.push(`custom-model-${i}`);
  return names;
}

const GROUPS: Array<[string, number]> = [
  ['default', 0.8],
  ['vip', 0.15],
  ['svip', 0.05],
];

/** Builds the world: user i (0-based) gets id firstUserId + i; tokens and channels count from 1. */
export function buildWorld(size: WorldSize, seed = 42, firstUserId = 2): World {
  const random = seededRandom(seed);
  const names = modelNames(size.models);
  const channels: WorldChannel[] = Array.from({ length: size.channels }, (_, i) => ({
    id: i + 1,
    name: `channel-${String(i + 1).padStart(2, '0')}`,
    models: [],
  }));
  const models: WorldModel[] = names.map((name) => {
    const count = 1 + Math.floor(random() * 3);
    const served = new Set<number>();
    while (served.size < Math.min(count, size.channels)) served.add(1 + Math.floor(random() * size.channels));
    for (const id of served) channels[id - 1]!.models.push(name);
    return { name, channels: [...served] };
  });
  const modelPopularity = zipfCumulative(size.models, 1.1);
  const users: WorldUser[] = Array.from({ length: size.users }, (_, i) => {
    const u = random();
    let group = GROUPS[0]![0];
    let edge = 0;
    for (const [name, share] of GROUPS) {
      edge += share;
      if (u < edge) {
        group = name;
        break;
      }
    }
    return {
      id: firstUserId + i,
      username: `user${String(i + 1).padStart(4, '0')}`,
      group,
      tokens: [],
      tokenCumulative: new Float64Array(0),
    };
  });
  const userCumulative = zipfCumulative(size.users, 1.05);
  const tokens: WorldToken[] = [];
  for (let i = 0; i < size.tokens; i++) {
    // Every user has one token; the rest go mostly to the heavy users.
    const userIndex = i < size.users ? i : pick(userCumulative, random());
    const user = users[userIndex]!;
    const modelCount = 2 + Math.floor(random() * 5);
    const chosen = new Set<number>();
    while (chosen.size < Math.min(modelCount, size.models)) chosen.add(pick(modelPopularity, random()));
    const tokenModels = [...chosen];
    const id = i + 1;
    tokens.push({
      id,
      userIndex,
      name: user.tokens.length === 0 ? 'default' : `${user.username}-key${user.tokens.length}`,
      key: `bench${String(id).padStart(8, '0')}${'k'.repeat(35)}`,
      models: tokenModels,
      modelCumulative: zipfCumulative(tokenModels.length, 1.2),
    });
    user.tokens.push(tokens.length - 1);
  }
  for (const user of users) user.tokenCumulative = zipfCumulative(user.tokens.length, 1);
  return { users, userCumulative, tokens, models, channels };
}
