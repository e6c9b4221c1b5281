import { createHash } from 'node:crypto';
import type { MockRequestContext } from '../mock-request-context.ts';
import { isRecord } from '../reply-plan.ts';
import { sendJson } from '../response-writer.ts';
import { sendResultJson } from '../scenario-json-writer.ts';

/** The prefix of every access token the mock issues (Google's tokens start with `ya29.`). */
export const mockAccessTokenPrefix = 'ya29.mock-';
const jwtBearerGrant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (segment === undefined || !/^[A-Za-z0-9_-]+$/.test(segment)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Why an assertion is refused, or `undefined` when its header and claims are acceptable. */
function assertionProblem(assertion: string, audience: string): string | undefined {
  const segments = assertion.split('.');
  if (segments.length !== 3 || segments[2] === '')
    return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.';
  const header = decodeSegment(segments[0]);
  const claims = decodeSegment(segments[1]);
  if (header?.alg !== 'RS256') return 'Invalid JWT Signature.';
  if (claims === undefined || typeof claims.iss !== 'string' || claims.iss === '')
    return 'Invalid JWT: no issuer.';
  if (typeof claims.scope !== 'string' || claims.scope === '') return 'Invalid JWT: no scope.';
  if (claims.aud !== audience) return `Invalid JWT audience: expected ${audience}.`;
  const now = Math.floor(Date.now() / 1000);
  const issuedAt = Number(claims.iat);
  const expiresAt = Number(claims.exp);
  if (!(issuedAt <= now + 300 && expiresAt > now && expiresAt - issuedAt <= 3600)) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  }
  return undefined;
}

/**
 * `POST /token`: a stand-in for Google's OAuth token endpoint (`https://oauth2.googleapis.com/token`)
 * for service-account keys whose `token_uri` points at the mock. The form body must carry
 * `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer` and an RS256 JWT `assertion` with
 * `iss`, `scope`, `aud` = this endpoint's URL and a lifetime of at most an hour (the signature is
 * not verified: tests can check it against the recorded request). Answers
 * `{access_token: "ya29.mock-…", expires_in: 3599, token_type: "Bearer"}` — the token is derived
 * from `iss`, so each service account gets its own — or Google's 400 `{error, error_description}`.
 */
export async function handleGoogleToken(context: MockRequestContext): Promise<void> {
  const { response, scenario } = context;
  const form = new URLSearchParams(context.rawBody.toString('utf8'));
  const grantType = form.get('grant_type');
  if (grantType !== jwtBearerGrant) {
    sendJson(response, 400, {
      error: 'unsupported_grant_type',
      error_description: `Invalid grant_type: ${grantType ?? ''}`,
    });
    return;
  }
  const rawUrl = context.request.url ?? '/token';
  const audience = `${context.origin}${rawUrl.split('?')[0]}`;
  const problem = assertionProblem(form.get('assertion') ?? '', audience);
  if (problem !== undefined) {
    sendJson(response, 400, { error: 'invalid_grant', error_description: problem });
    return;
  }
  const claims = decodeSegment((form.get('assertion') ?? '').split('.')[1])!;
  const digest = createHash('sha256').update(String(claims.iss)).digest('hex').slice(0, 24);
  await sendResultJson(response, scenario, {
    access_token: `${mockAccessTokenPrefix}${digest}`,
    expires_in: 3599,
    token_type: 'Bearer',
  });
}
