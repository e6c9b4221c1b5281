/**
 * The report's "How to reproduce": the harness's command and settings, and the same saturation
 * comparison with plain tools (taskset, curl, autocannon) for a reader who does not trust the
 * harness. bench/README.md gives the same command lines.
 */

/** The plain-tools walk-through: three gateways pinned to CPU 1, upstream and load on CPU 0. */
export const PLAIN_TOOLS = `### With plain tools

The saturation comparison needs nothing of the harness: the mock upstream, the two floors and
Switchyard's bundle, \`taskset\`, \`curl\`, \`jq\` and autocannon. Each gateway runs on CPU 1 with
all its threads (\`taskset\` at start pins every thread the process makes); the upstream and the
load generator share CPU 0. All three gateways stay alive and are loaded one at a time.

\`\`\`bash
npm install && npm run build -w @switchyard/server       # apps/server/dist/main.js
taskset -c 0 node --import tsx tools/mock-upstream/src/cli.ts --port 4010 --record-limit 0 &
taskset -c 1 node bench/src/pool-proxy.mjs --port 4101 --upstream http://127.0.0.1:4010 &
taskset -c 1 node bench/src/bare-proxy.mjs --port 4100 --upstream http://127.0.0.1:4010 &
DATA=$(mktemp -d)
env NODE_ENV=production PORT=4102 SQLITE_PATH=$DATA/switchyard.db DATA_DIR=$DATA \\
  SESSION_SECRET=$(openssl rand -hex 24) GLOBAL_API_RATE_LIMIT_ENABLE=false LOG_LEVEL=warn \\
  taskset -c 1 node --max-semi-space-size=32 apps/server/dist/main.js &   # as npm start runs it

SY=http://127.0.0.1:4102
for ready in http://127.0.0.1:4010/__admin/health http://127.0.0.1:4101/__pool/health \\
  http://127.0.0.1:4100/__bare/health $SY/api/status; do
  until curl -sf $ready > /dev/null; do sleep 0.5; done
done

# Switchyard: log in as root, raise its quota, a channel to the mock, a token
ID=$(curl -s -c $DATA/cookies -H 'content-type: application/json' \\
  -d '{"username":"root","password":"123456"}' $SY/api/user/login | jq .data.id)
api() { curl -s -b $DATA/cookies -H 'content-type: application/json' -H "new-api-user: $ID" "$@"; }
api -X PUT -d "{\\"id\\":$ID,\\"quota\\":1000000000000}" $SY/api/user/ | jq -c '{success, message}'
api -d '{"name":"mock","type":1,"key":"sk-upstream","base_url":"http://127.0.0.1:4010","models":"gpt-4o-mini","group":"default"}' $SY/api/channel/ | jq -c '{success, message}'
KEY=$(api -d '{"name":"bench","unlimited_quota":true,"expired_time":-1}' $SY/api/token/ | jq -r '.data[0].key')
echo "token: $KEY"

# Load: 50 connections, 8 s windows, the gateways in turn, the order rotated each round.
# The floors pass the key on; the mock accepts any key.
BODY='{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are a helpful assistant. Answer briefly."},{"role":"user","content":"Write one short sentence about load testing an AI gateway."}],"max_tokens":64}'
load() {  # load <port> <seconds>
  taskset -c 0 npx autocannon -c 50 -d "$2" -m POST -H 'content-type: application/json' \\
    -H "authorization: Bearer $KEY" -b "$BODY" -j "http://127.0.0.1:$1/v1/chat/completions" \\
    | jq -r '"\\(.requests.average) req/s, \\(.non2xx) non-2xx, \\(.errors) errors"'
}
for port in 4101 4100 4102; do load $port 10 > /dev/null; done     # warm-up: the JIT's steady state
ports=(4101 4100 4102)
for round in 1 2 3 4 5; do
  for i in 0 1 2; do port=\${ports[$(( (i + round) % 3 ))]}; echo "round $round, :$port $(load $port 8)"; done
done
\`\`\`

Take each ratio within a round (Switchyard's rate over a floor's in the same round), then the
median over rounds; report the lowest and highest round beside it. Stop the four processes by
their pids (\`jobs -p\`) when done. A machine running anything else moves every number: run it on
an idle machine and repeat it in one sitting rather than comparing with an older run.`;

/** The whole section: the harness's command and settings, then the plain-tools walk-through. */
export function reproduceSection(): string {
  return `## How to reproduce

\`\`\`sh
npm install
npm run bench                      # full run, writes docs/benchmarks.md
BENCH_QUICK=1 npm run bench        # smoke run (< 1 minute), writes bench/results/quick.md
\`\`\`

Settings (environment): \`BENCH_TARGETS\` (mock,bare,switchyard,portkey), \`BENCH_DURATION\` (s per
phase), \`BENCH_WARMUP\`, \`BENCH_RATES\` (500,1000,2000), \`BENCH_SAT_CONNECTIONS\` (64),
\`BENCH_EMBED_RATE\` (1000), \`BENCH_STREAM_RATE\` (200), \`BENCH_STREAM_CHUNKS\`, \`BENCH_STREAM_INTERVAL_MS\`,
\`BENCH_STREAMS\` (5000), \`BENCH_SLOW_STREAM_MS\` (1000), \`BENCH_STREAM_HOLD\` (15 s), \`BENCH_SOAK\` (s, 0 = none;
600 for the 10-minute soak), \`BENCH_SOAK_RATE\` (500), \`BENCH_WAIT_IDLE\` (s to wait for a quiet machine),
\`BENCH_SATURATION_ROUNDS\` (5; 0 in a quick run), \`BENCH_ROUND_WARMUP\` (10 s), \`BENCH_ROUND_WINDOWS\` (4), \`BENCH_ROUND_REWARM\` (1 s), \`BENCH_POOL\` (1: the rounds also saturate the pool proxy), \`BENCH_FLOOR\` (1: the rounds also saturate the durable-billing floor), \`BENCH_SWITCHYARD\` (dist | source), \`BENCH_SKIP_BUILD\`,
\`BENCH_PIN\` (1), \`BENCH_OUTPUT\` (path or none).
Each run also writes its raw numbers to \`bench/results/latest.json\` (not committed);
\`node --import tsx bench/src/render-report.ts\` renders this page again from them.

${PLAIN_TOOLS}`;
}
