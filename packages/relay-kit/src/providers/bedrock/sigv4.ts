import { hmacSha256, sha256, toHex } from '../../util/hash.js';

/** What {@link signAwsRequest} needs. */
export interface AwsSignInput {
  readonly method: string;
  readonly url: string;
  /** Headers to send and sign (any case); `host` is added from the URL when absent. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string | undefined;
  readonly region: string;
  readonly service: string;
  readonly date: Date;
}

/** The intermediate values of a signature, returned for tests and diagnostics. */
export interface AwsSignature {
  /** Headers to send: the input headers (lowercase) plus `x-amz-date` and `authorization`. */
  readonly headers: Record<string, string>;
  readonly canonicalRequest: string;
  readonly stringToSign: string;
  readonly signature: string;
}

/**
 * Signs a request with AWS Signature Version 4 (header form): canonical request (method,
 * URI-encoded path — every segment encoded again, as AWS does for all services but S3 —, sorted
 * query, sorted lowercase headers with trimmed values, signed header list, payload SHA-256),
 * string to sign over `date/region/service/aws4_request`, key derived by HMAC chain.
 */
export function signAwsRequest(input: AwsSignInput): AwsSignature {
  const url = new URL(input.url);
  const amzDate = input.date.toISOString().replace(/[:-]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers['x-amz-date'] = amzDate;
  if (input.sessionToken) headers['x-amz-security-token'] = input.sessionToken;
  const signed: Record<string, string> = { host: url.host, ...headers };
  const names = Object.keys(signed).sort();
  const canonicalHeaders = names
    .map((name) => `${name}:${signed[name]!.trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalPath(url.pathname),
    canonicalQuery(url.searchParams),
    canonicalHeaders,
    signedHeaders,
    toHex(sha256(input.body)),
  ].join('\n');
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, toHex(sha256(canonicalRequest))].join('\n');
  const key = signingKey(input.secretAccessKey, day, input.region, input.service);
  const signature = toHex(hmacSha256(key, stringToSign));
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers, canonicalRequest, stringToSign, signature };
}

/** The SigV4 signing key: HMAC chain over date, region, service and `aws4_request`. */
export function signingKey(secret: string, day: string, region: string, service: string): Uint8Array {
  const dateKey = hmacSha256(`AWS4${secret}`, day);
  return hmacSha256(hmacSha256(hmacSha256(dateKey, region), service), 'aws4_request');
}

/** RFC 3986 encoding as SigV4 wants it (only unreserved characters stay as they are). */
export function awsUriEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function canonicalPath(pathname: string): string {
  if (pathname === '' || pathname === '/') return '/';
  return pathname
    .split('/')
    .map((segment) => awsUriEncode(segment))
    .join('/');
}

function canonicalQuery(params: URLSearchParams): string {
  const pairs = [...params.entries()].map(
    ([name, value]) => [awsUriEncode(name), awsUriEncode(value)] as const,
  );
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}
