import { screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../../testing/mock-fetch';
import { adminUser, normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { DashboardPage } from './dashboard-page';

/** One hourly bucket of 200 quota units ($0.0004 at the default 500,000 per dollar). */
const bucket = () => ({
  success: true,
  message: '',
  data: [
    {
      model_name: 'gpt-4o-mini',
      created_at: dayjs().startOf('hour').unix(),
      token_used: 12,
      count: 1,
      quota: 200,
    },
  ],
});

describe('DashboardPage totals', () => {
  it('shows a tiny total with the decimals it needs, not $0.00', async () => {
    mockFetch({ 'GET /api/data/self': { body: bucket() } });
    renderWithProviders(<DashboardPage />, { route: '/detail', user: normalUser });
    await screen.findByText('$0.0004');
    expect(screen.queryByText('$0.00')).toBeNull();
  });

  it('divides by the site QuotaPerUnit', async () => {
    mockFetch({ 'GET /api/data/self': { body: bucket() } });
    renderWithProviders(<DashboardPage />, {
      route: '/detail',
      user: normalUser,
      status: { quota_per_unit: 1_000_000, display_in_currency: true },
    });
    await screen.findByText('$0.0002');
  });

  it('shows raw units when currency display is off', async () => {
    mockFetch({ 'GET /api/data/self': { body: bucket() } });
    renderWithProviders(<DashboardPage />, {
      route: '/detail',
      user: normalUser,
      status: { quota_per_unit: 500_000, display_in_currency: false },
    });
    await screen.findByText('200');
  });
});

describe('DashboardPage requests', () => {
  it('asks for hours over the last day by default, as new-api’s console does', async () => {
    const fetches = mockFetch({ 'GET /api/data/self': { body: bucket() } });
    renderWithProviders(<DashboardPage />, { route: '/detail', user: normalUser });
    await screen.findByText('$0.0004');
    const [request] = fetches.calls('GET /api/data/self');
    const params = request?.url.searchParams;
    expect(params?.get('default_time')).toBe('hour');
    expect(params?.has('utc_offset')).toBe(false);
    const span = Number(params?.get('end_timestamp')) - Number(params?.get('start_timestamp'));
    expect(span).toBeGreaterThan(86_400);
    expect(span).toBeLessThanOrEqual(86_400 + 2 * 3600);
  });

  it('asks for local days over 30 days when the site’s granularity is weeks', async () => {
    const fetches = mockFetch({
      'GET /api/data/': {
        body: { ...bucket(), data: [{ ...bucket().data[0], created_at: dayjs().startOf('day').unix() }] },
      },
    });
    renderWithProviders(<DashboardPage />, {
      route: '/detail',
      user: adminUser,
      status: { data_export_default_time: 'week' },
    });
    await screen.findByText('$0.0004');
    const [request] = fetches.calls('GET /api/data/');
    const params = request?.url.searchParams;
    expect(params?.get('default_time')).toBe('week');
    expect(params?.get('utc_offset')).toBe(String(dayjs().utcOffset()));
    const span = Number(params?.get('end_timestamp')) - Number(params?.get('start_timestamp'));
    expect(Math.round(span / 86_400)).toBe(30);
  });
});
