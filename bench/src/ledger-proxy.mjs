/**
 * The floor for a Node gateway that bills every call durably: the bare proxy (bare-proxy.mjs)
 * plus the least such a gateway must do per call, and nothing else. It checks a bearer key
 * against a Map, reads and parses the JSON body (the model decides the price), reserves quota in
 * SQLite before calling the upstream (a conditional balance update and a ledger row, so a crash
 * can be reconciled), buffers the upstream's answer to read its usage, answers, and then settles:
 * deletes the ledger row, moves the user's and the token's balances to the real cost, adds the
 * channel's used quota and inserts one usage log row (the rows Switchyard's ledger writes; under
 * load Switchyard appends that row to an unindexed journal first and moves it in batches, ADR-35). The
 * statements of one event-loop turn share one transaction (WAL, synchronous=NORMAL, as Switchyard
 * runs SQLite; the ledger table clustered by its key, WITHOUT ROWID, as Switchyard's). No routing, pricing tables, rate limits, content checks, metrics or logs.
 * `--log-indexes 7` gives the log table Switchyard's seven indexes (what the console's log
 * filters need), `2` only created_at and user_id.
 *
 *   node bench/src/ledger-proxy.mjs --port 4100 --upstream http://127.0.0.1:4010 --key sk-...
 *
 * It loads the server's better-sqlite3, so both run the same SQLite build.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    upstream: { type: 'string' },
    key: { type: 'string' },
    'log-indexes': { type: 'string' },
  },
});
if (!values.port || !values.upstream || !values.key) {
  process.stderr.write(
    'usage: ledger-proxy.mjs --port <port> --upstream <origin> --key <key> [--log-indexes 2|7]\n',
  );
  process.exit(2);
}
const origin = new URL(values.upstream).origin;
const Database = createRequire(new URL('../../apps/server/package.json', import.meta.url))('better-sqlite3');

const directory = mkdtempSync(join(tmpdir(), 'ledger-proxy-'));
const db = new Database(join(directory, 'ledger.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`
  CREATE TABLE users (id INTEGER PRIMARY KEY, quota INTEGER NOT NULL, used_quota INTEGER NOT NULL DEFAULT 0,
    request_count INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE tokens (id INTEGER PRIMARY KEY, remain_quota INTEGER NOT NULL, used_quota INTEGER NOT NULL DEFAULT 0,
    accessed_time INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE channels (id INTEGER PRIMARY KEY, used_quota INTEGER NOT NULL DEFAULT 0);
  CREATE TABLE reservations (id TEXT PRIMARY KEY, user_id INTEGER NOT NULL, amount INTEGER NOT NULL, created_at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id INTEGER NOT NULL, created_at INTEGER NOT NULL,
    type INTEGER NOT NULL, username TEXT NOT NULL, token_name TEXT NOT NULL, model_name TEXT NOT NULL,
    quota INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL,
    channel_id INTEGER NOT NULL, token_id INTEGER NOT NULL, "group" TEXT NOT NULL, other TEXT);
  CREATE INDEX logs_created ON logs (created_at, type);
  CREATE INDEX logs_user ON logs (user_id, created_at);
  INSERT INTO users (id, quota) VALUES (1, 1000000000000);
  INSERT INTO tokens (id, remain_quota) VALUES (1, 1000000000000);
  INSERT INTO channels (id) VALUES (1);
`);
if (values['log-indexes'] !== '2') {
  db.exec(`
    CREATE INDEX logs_username ON logs (username);
    CREATE INDEX logs_token_name ON logs (token_name);
    CREATE INDEX logs_channel ON logs (channel_id);
    CREATE INDEX logs_token ON logs (token_id);
    CREATE INDEX logs_group ON logs ("group");
  `);
}
const reserveBalance = db.prepare('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?');
const reserveToken = db.prepare(
  'UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?',
);
const insertReservation = db.prepare('INSERT INTO reservations VALUES (?, ?, ?, ?)');
const settleToken = db.prepare(
  'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
);
const channelCounter = db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?');
const deleteReservation = db.prepare('DELETE FROM reservations WHERE id = ?');
const settleBalance = db.prepare(
  'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + 1 WHERE id = ?',
);
const insertLog = db.prepare(
  'INSERT INTO logs (user_id, created_at, type, username, token_name, model_name, quota, prompt_tokens, completion_tokens, channel_id, token_id, "group", other) VALUES (?, ?, 2, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?)',
);

const books =
  db.prepare(`SELECT u.quota, u.used_quota, u.request_count, t.remain_quota, c.used_quota AS channel_used,
  (SELECT count(*) FROM reservations) AS reservations, (SELECT count(*) FROM logs) AS logs,
  (SELECT coalesce(sum(quota), 0) FROM logs) AS logged
  FROM users u, tokens t, channels c WHERE u.id = 1 AND t.id = 1 AND c.id = 1`);

/** Work of one event-loop turn, committed together; each piece answers its caller after COMMIT. */
let pending = [];
function submit(piece) {
  return new Promise((resolve, reject) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ piece, resolve, reject });
  });
}
function flush() {
  const batch = pending;
  pending = [];
  const results = [];
  try {
    db.exec('BEGIN');
    for (const { piece } of batch) results.push(piece());
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    for (const { reject } of batch) reject(error);
    return;
  }
  for (let index = 0; index < batch.length; index++) batch[index].resolve(results[index]);
}

const keys = new Map([[values.key, { userId: 1, username: 'bench', tokenName: 'bench', group: 'default' }]]);
const RESERVE = 2_000;
const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 });

function fail(response, status, message) {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type: 'ledger_proxy_error' } }));
}

async function relay(request, response) {
  const caller = keys.get((request.headers.authorization ?? '').slice(7));
  if (!caller) return fail(response, 401, 'invalid key');
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const body = Buffer.concat(chunks);
  const model = JSON.parse(body.toString('utf8')).model;
  const id = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  const reserved = await submit(() => {
    if (reserveBalance.run(RESERVE, caller.userId, RESERVE).changes === 0) return false;
    if (reserveToken.run(RESERVE, 1, RESERVE).changes === 0) {
      reserveBalance.run(-RESERVE, caller.userId, -RESERVE);
      return false;
    }
    insertReservation.run(id, caller.userId, RESERVE, now);
    return true;
  });
  if (!reserved) return fail(response, 403, 'quota exhausted');
  const upstream = await agent.request({
    origin,
    path: request.url,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: request.headers.authorization },
    body,
  });
  const text = await upstream.body.text();
  response.writeHead(upstream.statusCode, { 'content-type': 'application/json' });
  response.end(text);
  const usage = JSON.parse(text).usage ?? {};
  const cost = Math.min(RESERVE, (usage.prompt_tokens ?? 0) + 2 * (usage.completion_tokens ?? 0));
  submit(() => {
    deleteReservation.run(id);
    settleBalance.run(RESERVE - cost, cost, caller.userId);
    settleToken.run(RESERVE - cost, cost, now, 1);
    channelCounter.run(cost, 1);
    insertLog.run(
      caller.userId,
      now,
      caller.username,
      caller.tokenName,
      model,
      cost,
      usage.prompt_tokens ?? 0,
      usage.completion_tokens ?? 0,
      caller.group,
      JSON.stringify({ request_id: id }),
    );
  }).catch((error) => process.stderr.write(`settlement failed: ${error.message}\n`));
}

const server = createServer((request, response) => {
  if (request.url === '/__ledger/health') {
    response.end('ok');
    return;
  }
  if (request.url === '/__ledger/books') {
    // What the calls so far wrote (its test reads it; the benchmarks never call it).
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(books.get()));
    return;
  }
  relay(request, response).catch((error) => {
    if (!response.headersSent) fail(response, 502, String(error.message));
    else response.destroy(error);
  });
});
server.keepAliveTimeout = 65_000;
server.listen({ port: Number(values.port), host: '127.0.0.1', backlog: 8192 }, () => {
  process.stdout.write(`ledger proxy on http://127.0.0.1:${values.port} → ${origin}\n`);
});
const stop = () =>
  server.close(() =>
    agent.close().then(() => {
      db.close();
      rmSync(directory, { recursive: true, force: true });
      process.exit(0);
    }),
  );
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
