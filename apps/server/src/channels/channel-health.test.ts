import { parseOpenAIError, UpstreamError } from '@switchyard/relay-kit';
import { describe, expect, it } from 'vitest';
import {
  FailureWindow,
  type HealthFailure,
  type HealthSettings,
  judgeFailure,
  judgeTestOutcome,
  parseDisableKeywords,
  readHealthSettings,
  slownessReason,
} from './channel-health.ts';

const DEFAULT_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
].join('\n');

const settings = (overrides: Partial<HealthSettings> = {}): HealthSettings => ({
  autoDisable: true,
  autoEnable: true,
  disableThresholdSeconds: 5,
  keywords: parseDisableKeywords(DEFAULT_KEYWORDS),
  ...overrides,
});

const failure = (overrides: Partial<HealthFailure> = {}): HealthFailure => ({
  status: 500,
  code: 'upstream:server_error',
  message: 'internal error',
  channelFault: false,
  ...overrides,
});

const openAI = (status: number, body: unknown) => parseOpenAIError(status, JSON.stringify(body));

describe('judgeFailure (relay and test faults)', () => {
  const table: Array<[string, HealthFailure | UpstreamError, 'disable' | 'none']> = [
    [
      '401 invalid key',
      openAI(401, { error: { message: 'Incorrect API key', code: 'invalid_api_key' } }),
      'disable',
    ],
    ['402 payment required', failure({ status: 402, message: 'pay up' }), 'disable'],
    ['403 forbidden (any provider)', failure({ status: 403, message: 'region not supported' }), 'disable'],
    [
      '429 insufficient_quota',
      openAI(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota' } }),
      'disable',
    ],
    ['429 rate limit', openAI(429, { error: { message: 'Rate limit reached', type: 'requests' } }), 'none'],
    ['500 server error', failure(), 'none'],
    ['400 bad request', openAI(400, { error: { message: 'max_tokens is too large' } }), 'none'],
    [
      'model not found is a fault but not disable-worthy',
      openAI(404, { error: { message: 'The model `x` does not exist', code: 'model_not_found' } }),
      'none',
    ],
    [
      'network failure of a misconfigured address',
      failure({ status: 0, code: 'upstream:network_error', channelFault: true, message: 'ECONNREFUSED' }),
      'none',
    ],
    [
      'upstream code account_deactivated',
      failure({ status: 400, upstreamCode: 'account_deactivated' }),
      'disable',
    ],
    [
      'upstream type insufficient_user_quota',
      failure({ status: 400, type: 'insufficient_user_quota' }),
      'disable',
    ],
    [
      'keyword in the message, any case',
      failure({ status: 400, message: 'PERMISSION DENIED for this project' }),
      'disable',
    ],
    [
      'keyword only in a non-standard raw body',
      failure({
        status: 500,
        message: 'bad response status code 500',
        rawBody: '<p>Your credit balance is too low</p>',
      }),
      'disable',
    ],
  ];
  for (const [name, input, expected] of table) {
    it(`${name} → ${expected}`, () => {
      const decision = judgeFailure(settings(), true, input);
      expect(decision.action).toBe(expected);
      if (expected === 'disable') expect(decision.reason).not.toBe('');
    });
  }

  it('names the status and the message in the reason, and the keyword when one matched', () => {
    expect(judgeFailure(settings(), true, failure({ status: 401, message: 'bad key' })).reason).toBe(
      'status code 401: bad key',
    );
    expect(
      judgeFailure(settings(), true, failure({ status: 400, message: 'Permission denied' })).reason,
    ).toContain('"permission denied"');
  });

  it('does nothing when automatic disabling is off or the channel has auto_ban 0', () => {
    const fault = failure({ status: 401, message: 'bad key' });
    expect(judgeFailure(settings({ autoDisable: false }), true, fault).action).toBe('none');
    expect(judgeFailure(settings(), false, fault).action).toBe('none');
  });

  it('ignores keywords when the option is empty', () => {
    const noKeywords = settings({ keywords: parseDisableKeywords('\n  \n') });
    expect(
      judgeFailure(noKeywords, true, failure({ status: 400, message: 'Permission denied' })).action,
    ).toBe('none');
  });

  it('classifies a real relay-kit UpstreamError for a timeout as no fault', () => {
    const timeout = new UpstreamError({
      status: 0,
      code: 'upstream:timeout',
      message: 'upstream request timed out',
      retryable: true,
      channelFault: false,
    });
    expect(judgeFailure(settings(), true, timeout).action).toBe('none');
  });
});

describe('slowness and judgeTestOutcome', () => {
  it('flags a test slower than the threshold with the reference message; 0 means never', () => {
    expect(slownessReason(settings(), 5000)).toBeUndefined();
    expect(slownessReason(settings(), 5001)).toBe('响应时间 5.00s 超过阈值 5.00s');
    expect(slownessReason(settings({ disableThresholdSeconds: 0 }), 999_999)).toBeUndefined();
    expect(slownessReason(settings({ disableThresholdSeconds: 0.5 }), 1234)).toBe(
      '响应时间 1.23s 超过阈值 0.50s',
    );
  });

  const enabled = { status: 1, autoBan: true };
  const auto = { status: 3, autoBan: true };
  const manual = { status: 2, autoBan: true };
  const fault = failure({ status: 401, message: 'bad key' });

  it('disables an enabled channel on one fault or on slowness', () => {
    expect(judgeTestOutcome(settings(), enabled, { failure: fault, responseMs: 10 }).action).toBe('disable');
    const slow = judgeTestOutcome(settings(), enabled, { responseMs: 6000 });
    expect(slow).toEqual({ action: 'disable', reason: '响应时间 6.00s 超过阈值 5.00s' });
  });

  it('keeps an enabled channel on a non-fault failure, a local error, or with the switches off', () => {
    expect(judgeTestOutcome(settings(), enabled, { failure: failure(), responseMs: 10 }).action).toBe('none');
    expect(judgeTestOutcome(settings(), enabled, { localError: 'unsupported', responseMs: 0 }).action).toBe(
      'none',
    );
    expect(
      judgeTestOutcome(settings({ autoDisable: false }), enabled, { failure: fault, responseMs: 10 }).action,
    ).toBe('none');
    expect(
      judgeTestOutcome(settings(), { status: 1, autoBan: false }, { failure: fault, responseMs: 10 }).action,
    ).toBe('none');
  });

  it('re-enables an automatically disabled channel after a clean, fast pass when the option is on', () => {
    expect(judgeTestOutcome(settings(), auto, { responseMs: 10 }).action).toBe('enable');
    expect(judgeTestOutcome(settings({ autoEnable: false }), auto, { responseMs: 10 }).action).toBe('none');
    expect(judgeTestOutcome(settings(), auto, { responseMs: 6000 }).action).toBe('none');
    expect(judgeTestOutcome(settings(), auto, { failure: failure(), responseMs: 10 }).action).toBe('none');
  });

  it('never touches a manually disabled channel', () => {
    expect(judgeTestOutcome(settings(), manual, { responseMs: 10 }).action).toBe('none');
    expect(judgeTestOutcome(settings(), manual, { failure: fault, responseMs: 10 }).action).toBe('none');
  });
});

describe('FailureWindow', () => {
  it('reaches the threshold only with N faults inside the window', () => {
    const window = new FailureWindow(3, 1000);
    expect(window.record(7, 0)).toBe(1);
    expect(window.record(7, 500)).toBe(2);
    expect(window.record(7, 1200)).toBe(2); // the fault at 0 fell out of the window
    expect(window.reached(window.record(7, 1400))).toBe(true);
    expect(window.record(8, 1400)).toBe(1);
  });

  it('forgets a channel on reset and keeps its list bounded', () => {
    const window = new FailureWindow(2, 10_000);
    for (let time = 0; time < 100; time++) window.record(1, time);
    expect(window.record(1, 100)).toBe(2);
    window.reset(1);
    expect(window.size).toBe(0);
    expect(window.record(1, 101)).toBe(1);
  });
});

describe('readHealthSettings', () => {
  it('reads the four options', () => {
    const values: Record<string, string> = {
      AutomaticDisableChannelEnabled: 'true',
      AutomaticEnableChannelEnabled: 'false',
      ChannelDisableThreshold: '2.5',
      AutomaticDisableKeywords: ' Foo \n\nBar',
    };
    const store = {
      get: (key: string) => values[key] ?? '',
      getBoolean: (key: string) => values[key] === 'true',
      getNumber: (key: string) => Number(values[key]),
    };
    expect(readHealthSettings(store)).toEqual({
      autoDisable: true,
      autoEnable: false,
      disableThresholdSeconds: 2.5,
      keywords: ['foo', 'bar'],
    });
  });
});
