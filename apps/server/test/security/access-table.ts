/**
 * Who may call each route, from the specification (spec/accounts-and-site-settings.md §6-7,
 * operations-consoles.md §6-7 and the route table of reference-server-behaviour.md §1.2-1.3).
 * Every route the app registers must have a row: a new route fails the authorization matrix
 * until its access is written down here. HEAD routes follow their GET row.
 *
 * - public: anyone, signed in or not.
 * - user / admin / root: console guards (role ≥ 1 / 10 / 100). Anonymous → 401
 *   `{success:false}`; too low a role → HTTP 200 `{success:false, message: 权限不足}`.
 * - session: a console session cookie (the playground; access tokens are refused).
 * - token: a relay token (Authorization: Bearer sk-...); console sessions are not tokens.
 * - token-key: the token key in the query or Authorization header (`/api/log/token`).
 * - not-implemented: 501 for everyone.
 */
export type Access =
  | 'public'
  | 'user'
  | 'admin'
  | 'root'
  | 'session'
  | 'token'
  | 'token-key'
  | 'not-implemented';

export interface AccessRule {
  access: Access;
  /** The call changes the caller irreversibly (deletes the account, ends the session): run it with a throwaway user. */
  disposable?: boolean;
}

/** Answered 501 whatever the method (registered with `all`), after the token check (as the reference). */
const NOT_IMPLEMENTED_PATHS = new Set([
  '/v1/files',
  '/v1/files/*',
  '/v1/fine-tunes',
  '/v1/fine-tunes/*',
  '/v1/images/variations',
]);
/** A built console file served by @fastify/static: GET or HEAD of a path with an extension, no parameters. */
const STATIC_FILE = /^(GET|HEAD) \/(assets\/)?[\w.-]+\.[a-z0-9]+$/i;

const MJ_SUBMIT_KINDS = [
  'imagine',
  'change',
  'simple-change',
  'describe',
  'blend',
  'modal',
  'shorten',
  'action',
  'upload-discord-images',
];

export const ACCESS_TABLE: Record<string, Access | AccessRule> = {
  // Site status and content (public), database check (admin).
  'GET /api/status': 'public',
  'GET /api/notice': 'public',
  'GET /api/about': 'public',
  'GET /api/home_page_content': 'public',
  'GET /api/setup': 'public',
  'GET /api/status/test': 'admin',
  // Options (root) and clearing logs (admin).
  'GET /api/option/': 'root',
  'PUT /api/option/': 'root',
  'POST /api/option/rest_model_ratio': 'root',
  'DELETE /api/log/': 'admin',
  'GET /api/log/clear_progress': 'admin',
  // Sign-in, registration, verification, reset.
  'POST /api/user/login': 'public',
  // Logout ends the caller's session on the server: run it with a throwaway user.
  'GET /api/user/logout': { access: 'public', disposable: true },
  'POST /api/user/register': 'public',
  'GET /api/verification': 'public',
  'GET /api/reset_password': 'public',
  'POST /api/user/reset': 'public',
  // The signed-in user.
  'GET /api/user/self': 'user',
  'PUT /api/user/self': 'user',
  'DELETE /api/user/self': { access: 'user', disposable: true },
  'GET /api/user/token': 'user',
  'GET /api/user/aff': 'user',
  'POST /api/user/aff_transfer': 'user',
  'PUT /api/user/setting': 'user',
  'GET /api/user/self/groups': 'user',
  'GET /api/user/groups': 'public',
  'GET /api/user/models': 'user',
  'GET /api/models': 'user',
  // User administration.
  'GET /api/user/': 'admin',
  'GET /api/user/search': 'admin',
  'GET /api/user/:id': 'admin',
  'POST /api/user/': 'admin',
  'PUT /api/user/': 'admin',
  'POST /api/user/manage': 'admin',
  'DELETE /api/user/:id': 'admin',
  'GET /api/group/': 'admin',
  // Tokens (own).
  'GET /api/token/': 'user',
  'GET /api/token/search': 'user',
  'GET /api/token/:id': 'user',
  'POST /api/token/:id/key': 'user',
  'POST /api/token/': 'user',
  'PUT /api/token/': 'user',
  'DELETE /api/token/:id': 'user',
  // Channels (admin; fetching models of an unsaved channel is root: it calls any URL).
  'GET /api/channel/': 'admin',
  'GET /api/channel/search': 'admin',
  'GET /api/channel/models': 'admin',
  'GET /api/channel/models_enabled': 'admin',
  'GET /api/channel/:id': 'admin',
  'POST /api/channel/': 'admin',
  'PUT /api/channel/': 'admin',
  'DELETE /api/channel/:id': 'admin',
  'GET /api/channel/test/:id': 'admin',
  'GET /api/channel/test': 'admin',
  'GET /api/channel/update_balance/:id': 'admin',
  'GET /api/channel/update_balance': 'admin',
  'POST /api/channel/copy/:id': 'admin',
  'DELETE /api/channel/disabled': 'admin',
  'POST /api/channel/batch': 'admin',
  'POST /api/channel/fix': 'admin',
  'PUT /api/channel/tag': 'admin',
  'POST /api/channel/tag/enabled': 'admin',
  'POST /api/channel/tag/disabled': 'admin',
  'POST /api/channel/batch/tag': 'admin',
  'GET /api/channel/fetch_models/:id': 'admin',
  'POST /api/channel/fetch_models': 'root',
  // Redemption codes (admin), redeeming and online top-up (user), the Epay notification (public).
  'GET /api/redemption/': 'admin',
  'GET /api/redemption/search': 'admin',
  'GET /api/redemption/:id': 'admin',
  'POST /api/redemption/': 'admin',
  'PUT /api/redemption/': 'admin',
  'DELETE /api/redemption/:id': 'admin',
  'POST /api/user/topup': 'user',
  'POST /api/user/amount': 'user',
  'POST /api/user/pay': 'user',
  'GET /api/user/epay/notify': 'public',
  'POST /api/user/epay/notify': 'public',
  // Logs and dashboard data.
  'GET /api/log/': 'admin',
  'GET /api/log/self': 'user',
  'GET /api/log/stat': 'admin',
  'GET /api/log/export': 'admin',
  'GET /api/log/self/stat': 'user',
  'GET /api/log/search': 'admin',
  'GET /api/log/self/search': 'user',
  'GET /api/log/token': 'token-key',
  'OPTIONS /api/log/token': 'public',
  'GET /api/data/': 'admin',
  'GET /api/data/self': 'user',
  'GET /api/pricing': 'public',
  // Drawing and async task lists.
  'GET /api/mj/': 'admin',
  'GET /api/mj/self': 'user',
  'GET /api/task/': 'admin',
  'GET /api/task/self': 'user',
  // Third-party sign-in is public; binding needs the signed-in user.
  'GET /api/oauth/state': 'public',
  'GET /api/oauth/github': 'public',
  'GET /api/oauth/linuxdo': 'public',
  'GET /api/oauth/wechat': 'public',
  'GET /api/oauth/wechat/bind': 'user',
  'GET /api/oauth/telegram/login': 'public',
  'GET /api/oauth/telegram/bind': 'user',
  'GET /api/oauth/email/bind': 'user',
  // Relay.
  'POST /v1/chat/completions': 'token',
  'POST /v1/completions': 'token',
  'POST /v1/embeddings': 'token',
  'POST /v1/engines/:model/embeddings': 'token',
  'POST /v1/moderations': 'token',
  'GET /v1/models': 'token',
  'GET /v1/models/:model': 'token',
  'GET /v1beta/models': 'token',
  'GET /v1beta/openai/models': 'token',
  'POST /v1/messages': 'token',
  'POST /v1/messages/count_tokens': 'token',
  'POST /v1/responses': 'token',
  'POST /v1/models/*': 'token',
  'POST /v1beta/models/*': 'token',
  'POST /v1/images/generations': 'token',
  'POST /v1/images/edits': 'token',
  'POST /v1/audio/speech': 'token',
  'POST /v1/audio/transcriptions': 'token',
  'POST /v1/audio/translations': 'token',
  'POST /v1/rerank': 'token',
  'POST /pg/chat/completions': 'session',
  // Drawing (midjourney-proxy compatible) and music (Suno) tasks: tokens, except the image proxy.
  ...Object.fromEntries(
    ['', '/:mode'].flatMap((prefix) => [
      ...MJ_SUBMIT_KINDS.map((kind) => [`POST ${prefix}/mj/submit/${kind}`, 'token']),
      [`POST ${prefix}/mj/insight-face/swap`, 'token'],
      [`GET ${prefix}/mj/task/:id/fetch`, 'token'],
      [`GET ${prefix}/mj/task/:id/image-seed`, 'token'],
      [`POST ${prefix}/mj/task/list-by-condition`, 'token'],
      [`GET ${prefix}/mj/image/:id`, 'public'],
    ]),
  ),
  'POST /suno/submit/:action': 'token',
  'POST /suno/fetch': 'token',
  'GET /suno/fetch/:id': 'token',
  // Observability (/metrics: loopback or METRICS_TOKEN, checked in test/observability).
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  'GET /metrics': 'public',
};

/** The rule of a route key (`HEAD x` follows `GET x`), or undefined when unlisted. */
export function ruleOf(key: string): AccessRule | undefined {
  if (NOT_IMPLEMENTED_PATHS.has(key.slice(key.indexOf(' ') + 1))) return { access: 'not-implemented' };
  // Files of the built console (one route each when apps/web/dist exists): public.
  if (STATIC_FILE.test(key)) return { access: 'public' };
  const lookup = key.startsWith('HEAD ') ? `GET ${key.slice(5)}` : key;
  const rule = ACCESS_TABLE[lookup];
  if (rule === undefined) return undefined;
  return typeof rule === 'string' ? { access: rule } : rule;
}
