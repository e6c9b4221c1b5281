import { describe, expect, it } from 'vitest';
import { toHex } from '../../util/hash.js';
import { crc32 } from './crc32.js';
import { signAwsRequest, signingKey } from './sigv4.js';

// The credentials of AWS's published Signature Version 4 examples and test suite.
const example = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  date: new Date('2015-08-30T12:36:00Z'),
};

describe('crc32', () => {
  it('computes CRC-32 like zlib', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});

describe('signAwsRequest (AWS SigV4 test suite)', () => {
  it('get-vanilla', () => {
    const signed = signAwsRequest({
      ...example,
      service: 'service',
      method: 'GET',
      url: 'https://example.amazonaws.com/',
      headers: {},
      body: '',
    });
    expect(signed.canonicalRequest).toBe(
      'GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n' +
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(signed.stringToSign).toBe(
      'AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n' +
        'bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63',
    );
    expect(signed.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
    expect(signed.headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, ' +
        'SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });

  it('post-vanilla', () => {
    const signed = signAwsRequest({
      ...example,
      service: 'service',
      method: 'POST',
      url: 'https://example.amazonaws.com/',
      headers: {},
      body: '',
    });
    expect(signed.signature).toBe('5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b');
  });

  it('derives the documented IAM signing key and ListUsers signature', () => {
    expect(toHex(signingKey(example.secretAccessKey, '20150830', 'us-east-1', 'iam'))).toBe(
      'c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9',
    );
    const signed = signAwsRequest({
      ...example,
      service: 'iam',
      method: 'GET',
      url: 'https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: '',
    });
    expect(signed.signature).toBe('5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7');
  });

  it('encodes path segments twice (Bedrock model ids with a colon)', () => {
    const signed = signAwsRequest({
      ...example,
      service: 'bedrock',
      method: 'POST',
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(signed.canonicalRequest.split('\n')[1]).toBe(
      '/model/anthropic.claude-3-haiku-20240307-v1%253A0/invoke',
    );
  });
});
