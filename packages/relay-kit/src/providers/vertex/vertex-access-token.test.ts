import { createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUpstreamError } from '../../spec/upstream-error.js';
import { createServiceAccountJwt, createVertexTokenSource, VERTEX_SCOPE } from './vertex-access-token.js';
import { parseServiceAccountKey } from './vertex-credentials.js';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const serviceAccountJson = JSON.stringify({
  type: 'service_account',
  project_id: 'switchyard-test',
  private_key_id: 'kid-1',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'relay@switchyard-test.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
});
const account = parseServiceAccountKey(serviceAccountJson);

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

/** A fake token endpoint that verifies the assertion and counts exchanges. */
function tokenEndpoint(responses: Array<() => Response> = []) {
  const calls: Array<{ url: string; assertion: string }> = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const form = new URLSearchParams(String(init?.body));
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const assertion = form.get('assertion') ?? '';
    calls.push({ url: String(input), assertion });
    const next = responses[calls.length - 1];
    if (next) return next();
    return Response.json({
      access_token: `ya29.token-${calls.length}`,
      expires_in: 3599,
      token_type: 'Bearer',
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

describe('Vertex AI service-account JWT', () => {
  it('is RS256-signed for the cloud-platform scope', async () => {
    const jwt = await createServiceAccountJwt(account, 1_700_000_000_123);
    const [header, claims, signature] = jwt.split('.');
    expect(decode(header!)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid-1' });
    expect(decode(claims!)).toEqual({
      iss: 'relay@switchyard-test.iam.gserviceaccount.com',
      scope: VERTEX_SCOPE,
      aud: 'https://oauth2.googleapis.com/token',
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    const verify = createVerify('RSA-SHA256').update(`${header}.${claims}`);
    expect(verify.verify(publicKey, Buffer.from(signature!, 'base64url'))).toBe(true);
  });

  it('rejects malformed keys with clear messages that never quote the key', () => {
    const failure = (key: string) => {
      try {
        parseServiceAccountKey(key);
      } catch (error) {
        if (isUpstreamError(error)) return [error.code, error.channelFault, error.message];
        throw error;
      }
      throw new Error('expected an error');
    };
    expect(failure('AIza-not-json')).toEqual([
      'channel:invalid_key',
      true,
      'the Vertex AI channel key must be a service account JSON key, but it is not valid JSON',
    ]);
    expect(failure('[1]')[2]).toBe('the Vertex AI channel key must be a service account JSON object');
    const { project_id: _p, ...noProject } = JSON.parse(serviceAccountJson);
    expect(failure(JSON.stringify(noProject))[2]).toBe(
      'the Vertex AI service account key has no "project_id"',
    );
    expect(failure(JSON.stringify({ ...noProject, project_id: 'p', private_key: 'secret-rsa' }))[2]).toBe(
      'the Vertex AI service account "private_key" must be a PKCS#8 PEM key (BEGIN PRIVATE KEY)',
    );
  });
});

describe('Vertex AI token source', () => {
  it('caches the token until 5 minutes before expiry, per key', async () => {
    let clock = 1_700_000_000_000;
    const source = createVertexTokenSource(() => clock);
    const endpoint = tokenEndpoint();
    const [first, concurrent] = await Promise.all([
      source.getAccessToken(account, endpoint.fetch),
      source.getAccessToken(account, endpoint.fetch),
    ]);
    expect([first, concurrent]).toEqual(['ya29.token-1', 'ya29.token-1']);
    expect(endpoint.calls).toHaveLength(1);
    expect(endpoint.calls[0]!.url).toBe('https://oauth2.googleapis.com/token');
    clock += (3599 - 301) * 1000;
    expect(await source.getAccessToken(account, endpoint.fetch)).toBe('ya29.token-1');
    clock += 2000;
    expect(await source.getAccessToken(account, endpoint.fetch)).toBe('ya29.token-2');
    const other = parseServiceAccountKey(
      JSON.stringify({ ...JSON.parse(serviceAccountJson), client_email: 'b@x.iam' }),
    );
    expect(await source.getAccessToken(other, endpoint.fetch)).toBe('ya29.token-3');
    expect(endpoint.calls).toHaveLength(3);
  });

  it('reports a refused exchange as a channel fault and does not cache it', async () => {
    const source = createVertexTokenSource();
    const endpoint = tokenEndpoint([
      () =>
        Response.json(
          { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' },
          { status: 400 },
        ),
    ]);
    await expect(source.getAccessToken(account, endpoint.fetch)).rejects.toMatchObject({
      code: 'channel:invalid_key',
      channelFault: true,
      retryable: true,
      message: 'Vertex AI token exchange failed (400): invalid_grant: Invalid JWT Signature.',
    });
    expect(await source.getAccessToken(account, endpoint.fetch)).toBe('ya29.token-2');
    const failing = (async () => {
      throw Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    }) as typeof globalThis.fetch;
    await expect(createVertexTokenSource().getAccessToken(account, failing)).rejects.toMatchObject({
      code: 'upstream:network_error',
    });
  });
});
