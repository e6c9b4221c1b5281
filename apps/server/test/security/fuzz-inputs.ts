/**
 * Deterministic malformed inputs for the fuzz test: fixed hostile bodies plus seeded random
 * objects whose fields carry the wrong types, extreme numbers, huge and odd strings.
 */

/** One request body: the raw payload and its Content-Type (none when undefined). */
export interface FuzzBody {
  name: string;
  payload?: string | Buffer;
  contentType?: string;
}

/** A small seeded generator (mulberry32), so every run sends the same requests. */
export function seededRandom(seedText: string): () => number {
  // FNV-1a of the text as the seed.
  let seed = 0x811c9dc5;
  for (let index = 0; index < seedText.length; index += 1) {
    seed ^= seedText.charCodeAt(index);
    seed = Math.imul(seed, 0x01000193) >>> 0;
  }
  return () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let value = seed;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const JSON_TYPE = 'application/json';

/** Field names the console and relay bodies use, so random objects reach real validation. */
const FIELDS = [
  'id',
  'ids',
  'name',
  'key',
  'quota',
  'status',
  'role',
  'action',
  'username',
  'display_name',
  'password',
  'password2',
  'email',
  'token',
  'type',
  'models',
  'group',
  'groups',
  'tag',
  'new_tag',
  'priority',
  'weight',
  'base_url',
  'other',
  'model_mapping',
  'amount',
  'payment_method',
  'top_up_code',
  'value',
  'remain_quota',
  'unlimited_quota',
  'expired_time',
  'model_limits',
  'model_limits_enabled',
  'allow_ips',
  'count',
  'model',
  'messages',
  'stream',
  'max_tokens',
  'prompt',
  'input',
  'setting',
  'notify_type',
  'webhook_url',
  'quota_warning_threshold',
  'verification_code',
  'aff_code',
  'code',
  'state',
  'mj_id',
  'task_id',
  'base64Array',
  'customId',
  'taskId',
  '__proto__',
  'constructor',
];

/** Strings that break naive code: injections, control characters, lone surrogates, paths. */
const ODD_STRINGS = [
  '',
  ' ',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00%ff',
  '\u0000\u0001\u001f',
  '\ud800',
  '😀'.repeat(50),
  '9'.repeat(400),
  '-1',
  '1e309',
  'NaN',
  'true',
  'null',
  '{"nested":"json"}',
  '[object Object]',
];

/** Numbers at the edges of every integer column and parser. */
const ODD_NUMBERS = [0, -1, 1.5, -0.000001, 99999999, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e30, 1e308, -1e308];

function randomValue(random: () => number, depth: number): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  switch (Math.floor(random() * (depth > 2 ? 6 : 8))) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return pick(ODD_NUMBERS);
    case 3:
      return pick(ODD_STRINGS);
    case 4:
      return 'x'.repeat(Math.floor(random() * 5000));
    case 5:
      return Math.floor(random() * 1000) - 500;
    case 6:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default:
      return randomObject(random, depth + 1);
  }
}

function randomObject(random: () => number, depth = 0): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  const size = 1 + Math.floor(random() * 6);
  for (let index = 0; index < size; index += 1) {
    object[FIELDS[Math.floor(random() * FIELDS.length)]!] = randomValue(random, depth);
  }
  return object;
}

const json = (name: string, value: unknown): FuzzBody => ({
  name,
  payload: JSON.stringify(value),
  contentType: JSON_TYPE,
});

/** The fixed hostile bodies, sent to every route. */
export function fixedBodies(overLimitBytes: number): FuzzBody[] {
  return [
    { name: 'no body' },
    { name: 'empty JSON body', payload: '', contentType: JSON_TYPE },
    { name: 'malformed JSON', payload: '{"name": "a",', contentType: JSON_TYPE },
    { name: 'trailing garbage', payload: '{"id": 1}}x', contentType: JSON_TYPE },
    { name: 'single quotes', payload: "{'id': 1}", contentType: JSON_TYPE },
    { name: 'null', payload: 'null', contentType: JSON_TYPE },
    { name: 'string', payload: '"hello"', contentType: JSON_TYPE },
    { name: 'number', payload: '42', contentType: JSON_TYPE },
    { name: 'boolean', payload: 'true', contentType: JSON_TYPE },
    json('empty array', []),
    json('array of objects', [{ id: 99999999 }, null, 'x']),
    json('empty object', {}),
    json('unknown ids', { id: 99999999, ids: [99999999, -1, 0], key: 'sk-unknown', tag: 'no-such-tag' }),
    json('negative and fractional ids', { id: -1.5, ids: [2 ** 53 + 2], quota: -1e308 }),
    json('huge strings', {
      name: 'n'.repeat(200_000),
      key: 'k'.repeat(200_000),
      username: 'u'.repeat(5_000),
      password: 'p'.repeat(5_000),
      model: 'm'.repeat(5_000),
    }),
    { name: 'deep nesting', payload: `${'['.repeat(50_000)}${']'.repeat(50_000)}`, contentType: JSON_TYPE },
    {
      name: 'prototype keys',
      payload: '{"__proto__":{"role":100},"constructor":{"prototype":{"role":100}},"id":"1"}',
      contentType: JSON_TYPE,
    },
    { name: 'duplicate keys', payload: '{"id":1,"id":"x","name":null,"name":{}}', contentType: JSON_TYPE },
    { name: 'lone surrogate', payload: '{"name":"\\ud800","key":"\\u0000"}', contentType: JSON_TYPE },
    {
      name: 'invalid UTF-8',
      payload: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      contentType: JSON_TYPE,
    },
    { name: 'text/plain', payload: 'hello', contentType: 'text/plain' },
    { name: 'form', payload: 'id=1&name=x&name=y', contentType: 'application/x-www-form-urlencoded' },
    { name: 'multipart junk', payload: '--b\r\nnot a part', contentType: 'multipart/form-data; boundary=b' },
    { name: 'XML', payload: '<id>1</id>', contentType: 'application/xml' },
    { name: 'JSON with odd charset', payload: '{"id":1}', contentType: 'application/json; charset=utf-7' },
    { name: 'JSON in a text type', payload: '{"id":1}', contentType: 'text/json' },
    {
      name: 'over the body limit',
      payload: JSON.stringify({ name: 'o'.repeat(overLimitBytes) }),
      contentType: JSON_TYPE,
    },
  ];
}

/** `count` seeded random objects for one route. */
export function randomBodies(seedText: string, count: number): FuzzBody[] {
  const random = seededRandom(seedText);
  return Array.from({ length: count }, (_, index) => json(`random #${index}`, randomObject(random)));
}

/** Values put in place of `:id` in a route's path. */
export const ODD_PATH_IDS = [
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  '%00',
  '%2F',
  'x'.repeat(100),
];

/**
 * Path parameters Fastify's router refuses before any hook or error handler runs (a broken
 * percent-escape or invalid UTF-8: 400 FST_ERR_BAD_URL; a parameter over maxParamLength, 100: 414
 * FST_ERR_MAX_PARAM_LENGTH). Their body is Fastify's own until app.ts sets `frameworkErrors`.
 */
export const ROUTER_REFUSED_PATH_IDS = ['%ZZ', '%', '%C0%AF', 'x'.repeat(101)];

/** Query strings sent to every GET route: odd values for the parameters the console and relay read. */
export const ODD_QUERIES = [
  `?${[
    'keyword',
    'token',
    'group',
    'model',
    'username',
    'token_name',
    'model_name',
    'key',
    'email',
    'code',
    'state',
    'turnstile',
    'aff',
    'mj_id',
    'task_id',
    'channel_id',
    'platform',
  ]
    .map((name) => `${name}=%00`)
    .join('&')}`,
  '?p=-1&page_size=99999999&size=abc&id_sort=maybe&tag_mode=2&type=x&channel=abc',
  '?start_timestamp=1e309&end_timestamp=-99999999999999999999&target_timestamp=abc&status_only=2',
  '?p=1&p=2&keyword=a&keyword=b&page_size[]=1',
  `?keyword=${'k'.repeat(5_000)}&email=${'e'.repeat(5_000)}`,
  '?keyword=%ZZ&email=%E0%A4%A&group=%C0%AF',
  '?__proto__[role]=100&constructor[prototype][role]=100',
];
