import { BlockList, isIP } from 'node:net';
import { ErrorCode, Role, TokenStatus, UserStatus } from '@switchyard/shared';
import type { TokenRow } from '../../db/repositories/token-repository.ts';
import { relayRefusal } from '../../errors/gateway-error.ts';
import type { RelayRequest } from '../lane/relay-request.ts';
import type { RelayRuntime } from '../relay-runtime.ts';
import type { CachedUser } from '../token-cache.ts';

const tokenError = (message: string, status = 401) => relayRefusal(ErrorCode.TokenInvalid, message, status);

/**
 * The API key a relay client sent: `Authorization: Bearer`, `x-api-key` (Anthropic clients),
 * `x-goog-api-key` or the `key` query parameter (Gemini clients).
 */
export function readRelayKey(request: RelayRequest): string {
  const authorization = request.headers.authorization;
  let key = '';
  if (typeof authorization === 'string')
    key = authorization.startsWith('Bearer ') ? authorization.slice(7) : authorization;
  for (const header of ['x-api-key', 'x-goog-api-key'] as const) {
    if (key.trim() !== '') break;
    const value = request.headers[header];
    if (typeof value === 'string') key = value;
  }
  if (key.trim() === '' && typeof request.query.key === 'string') key = request.query.key;
  return key.trim();
}

/** Splits `sk-<48 chars>[-<channelId>]` into the stored key and an optional pinned channel. */
export function parseRelayKey(raw: string): { key: string; channelId: number | null } {
  const body = raw.startsWith('sk-') ? raw.slice(3) : raw;
  // indexOf rather than split('-'): the key is the part before the first dash, the channel the
  // part after it up to the next dash (about half the CPU of the split, once per relay call).
  const dash = body.indexOf('-');
  if (dash === -1) return { key: body, channelId: null };
  const key = body.slice(0, dash);
  const next = body.indexOf('-', dash + 1);
  const channel = next === -1 ? body.slice(dash + 1) : body.slice(dash + 1, next);
  if (/^\d{1,10}$/.test(channel)) return { key, channelId: Number(channel) };
  return { key, channelId: null };
}

const allowListCache = new WeakMap<TokenRow, BlockList | null>();

/** The token's IP allow-list (one IP or CIDR per line), parsed once per cached token row. */
function allowListOf(token: TokenRow): BlockList | null {
  const cached = allowListCache.get(token);
  if (cached !== undefined) return cached;
  const list = new BlockList();
  let entries = 0;
  for (const line of token.allow_ips.split(/[\n,]/)) {
    const value = line.trim();
    if (value === '') continue;
    const [address = '', prefix] = value.split('/');
    const family = isIP(address);
    if (family === 0) continue;
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (prefix !== undefined) list.addSubnet(address, Number(prefix), type);
    else list.addAddress(address, type);
    entries++;
  }
  const result = entries > 0 ? list : null;
  allowListCache.set(token, result);
  return result;
}

/** True when the client address passes the token's allow-list (an empty list allows all). */
export function isAddressAllowed(token: TokenRow, address: string): boolean {
  const list = allowListOf(token);
  if (!list) return true;
  const normalized = address.startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIP(normalized);
  if (family === 0) return false;
  return list.check(normalized, family === 6 ? 'ipv6' : 'ipv4');
}

/** Who a relay call is made for, once its key checked out. */
export interface AuthenticatedCaller {
  token: TokenRow;
  user: CachedUser;
  pinnedChannelId: number | null;
}

/**
 * Stage 2: authenticates a relay call from the in-memory token cache (no database read on a
 * hit) and applies the token and user checks of the reference (§2.4). Expired and exhausted
 * tokens are refused, and their status is persisted off the response path. With the token and
 * its user cached (the hot path) the answer comes synchronously, with no promise; a refusal is
 * thrown then, else the promise rejects with it.
 */
export function authenticateToken(
  request: RelayRequest,
  runtime: RelayRuntime,
  markStatus: (tokenId: number, status: number) => void,
): AuthenticatedCaller | Promise<AuthenticatedCaller> {
  const raw = readRelayKey(request);
  if (raw === '' || raw.length > 200) throw tokenError('未提供令牌');
  const { key, channelId } = parseRelayKey(raw);
  if (key === '') throw tokenError('无效的令牌');
  const cached = runtime.tokenCache.cachedToken(key);
  if (cached === undefined) {
    return runtime.tokenCache
      .token(key)
      .then((token) => checkToken(request, runtime, markStatus, token, channelId));
  }
  return checkToken(request, runtime, markStatus, cached, channelId);
}

function checkToken(
  request: RelayRequest,
  runtime: RelayRuntime,
  markStatus: (tokenId: number, status: number) => void,
  token: TokenRow | null,
  channelId: number | null,
): AuthenticatedCaller | Promise<AuthenticatedCaller> {
  if (!token) throw tokenError('无效的令牌');
  if (token.status === TokenStatus.Exhausted) throw tokenError('该令牌额度已用尽');
  if (token.status === TokenStatus.Expired) throw tokenError('该令牌已过期');
  if (token.status !== TokenStatus.Enabled) throw tokenError('该令牌状态不可用');
  if (token.expired_time !== -1 && token.expired_time < Math.floor(Date.now() / 1000)) {
    markStatus(token.id, TokenStatus.Expired);
    throw tokenError('该令牌已过期');
  }
  if (!token.unlimited_quota && token.remain_quota <= 0) {
    markStatus(token.id, TokenStatus.Exhausted);
    throw tokenError('该令牌额度已用尽');
  }
  const cached = runtime.tokenCache.cachedUser(token.user_id);
  if (cached === undefined) {
    return runtime.tokenCache.user(token.user_id).then((user) => checkUser(request, token, user, channelId));
  }
  return checkUser(request, token, cached, channelId);
}

function checkUser(
  request: RelayRequest,
  token: TokenRow,
  user: CachedUser | null,
  channelId: number | null,
): AuthenticatedCaller {
  if (!user || user.deleted) throw tokenError('无效的令牌');
  if (user.status !== UserStatus.Enabled) throw tokenError('用户已被封禁', 403);
  if (!isAddressAllowed(token, request.ip)) throw tokenError('您的 IP 不在令牌允许访问的列表中', 403);
  if (channelId !== null && user.role < Role.Admin) throw tokenError('普通用户不支持指定渠道', 403);
  return { token, user, pinnedChannelId: channelId };
}
