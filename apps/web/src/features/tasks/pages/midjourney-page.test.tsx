import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { MidjourneyPage } from './midjourney-page';

const task = {
  id: 1,
  submit_time: 1_700_000_000_000,
  finish_time: 1_700_000_075_000,
  action: 'IMAGINE',
  mj_id: 'mj-123',
  code: 1,
  status: 'SUCCESS',
  progress: '100%',
  image_url: '',
  prompt: 'a red fox in the snow',
  prompt_en: '',
  fail_reason: '',
};

describe('MidjourneyPage', () => {
  it('lists own drawing tasks with duration colour and a prompt dialog', async () => {
    const fetch = mockFetch({ 'GET /api/mj/self/': ok([task]) });
    renderWithProviders(<MidjourneyPage />, { user: normalUser, route: '/midjourney' });
    await screen.findByText('mj-123');
    expect(screen.getByText('75 秒').className).toContain('red');
    expect(screen.getByText('已提交')).toBeInTheDocument();
    expect(screen.getByText('绘图')).toBeInTheDocument();
    const [request] = fetch.calls('GET /api/mj/self/');
    expect(request?.url.searchParams.get('p')).toBe('0');
    const start = Number(request?.url.searchParams.get('start_timestamp'));
    // 30 days back, in milliseconds.
    expect(Math.abs(Date.now() - 30 * 86_400_000 - start)).toBeLessThan(120_000);
    expect(request?.url.searchParams.has('channel_id')).toBe(false);

    fireEvent.click(screen.getByText('a red fox in the snow'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('a red fox in the snow')).toBeInTheDocument();
  });
});
