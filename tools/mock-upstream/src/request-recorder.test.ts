import { describe, expect, it } from 'vitest';
import { type RecordedRequest, RequestRecorder } from './request-recorder.ts';

const entry = (index: number): RecordedRequest => ({
  method: 'POST',
  path: `/${index}`,
  url: `/${index}`,
  headers: {},
  body: undefined,
  scenario: undefined,
  time: index,
});

describe('RequestRecorder', () => {
  it('keeps the most recent requests, oldest first', () => {
    const recorder = new RequestRecorder(3);
    for (let index = 1; index <= 5; index++) recorder.record(entry(index));
    expect(recorder.list().map((request) => request.path)).toEqual(['/3', '/4', '/5']);
    expect(recorder.size).toBe(3);
    recorder.clear();
    expect(recorder.list()).toEqual([]);
    recorder.record(entry(6));
    expect(recorder.list().map((request) => request.path)).toEqual(['/6']);
  });

  it('records nothing with a limit of 0', () => {
    const recorder = new RequestRecorder(0);
    recorder.record(entry(1));
    expect(recorder.list()).toEqual([]);
  });
});
