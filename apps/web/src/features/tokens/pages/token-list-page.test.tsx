import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { TokenListPage } from './token-list-page';

const token = (id: number) => ({
  id,
  user_id: 2,
  name: `token-${id}`,
  key: `${'k'.repeat(44)}${String(id).padStart(4, '0')}`,
  status: 1,
  created_time: 1_700_000_000,
  accessed_time: 1_700_000_000,
  expired_time: -1,
  remain_quota: 500_000,
  used_quota: 0,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
});

describe('TokenListPage', () => {
  it('pages the bare-array list by asking for the next page, and shows keys as sk- + the stored key', async () => {
    const fetch = mockFetch({
      'GET /api/token/': (request) => {
        const page = Number(request.url.searchParams.get('p'));
        const size = Number(request.url.searchParams.get('size'));
        const ids = page === 0 ? Array.from({ length: size }, (_, index) => 100 - index) : [50, 49];
        return ok(ids.map(token));
      },
    });
    renderWithProviders(<TokenListPage />, { user: normalUser, route: '/token' });
    await screen.findByText('token-100');
    expect(fetch.calls('GET /api/token/')[0]?.url.searchParams.get('p')).toBe('0');

    // A full first page offers a second one; the short second page is the last.
    fireEvent.click(await screen.findByTitle('2'));
    await screen.findByText('token-50');
    expect(fetch.calls('GET /api/token/').at(-1)?.url.searchParams.get('p')).toBe('1');
    await waitFor(() => expect(screen.queryByTitle('3')).toBeNull());

    const row = screen.getByText('token-50').closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: /^查\s?看$/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('textbox')).toHaveValue(`sk-${token(50).key}`);
    expect(fetch.unmatched).toHaveLength(0);
  });
});
