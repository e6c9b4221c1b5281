import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSessionUser } from '../../../lib/session';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { DeleteAccountModal } from './delete-account-modal';

const confirmButton = () => screen.getByRole('button', { name: '确认删除' });

describe('DeleteAccountModal', () => {
  it('keeps the delete button disabled until the typed text equals the username', async () => {
    const fetch = mockFetch({ 'DELETE /api/user/self': ok() });
    const { user } = renderWithProviders(<DeleteAccountModal open username="alice" onClose={vi.fn()} />, {
      user: normalUser,
    });
    const input = screen.getByPlaceholderText('输入你的账户名以确认删除');
    expect(confirmButton()).toBeDisabled();
    await user.type(input, 'alic');
    expect(confirmButton()).toBeDisabled();
    await user.type(input, 'ee');
    expect(confirmButton()).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'Alice');
    expect(confirmButton()).toBeDisabled();
    expect(fetch.requests).toHaveLength(0);
  });

  it('deletes the account, logs out and goes to /login', async () => {
    const fetch = mockFetch({ 'DELETE /api/user/self': ok(), 'GET /api/user/logout': ok() });
    const { user } = renderWithProviders(<DeleteAccountModal open username="alice" onClose={vi.fn()} />, {
      user: normalUser,
      path: '/setting',
    });
    await user.type(screen.getByPlaceholderText('输入你的账户名以确认删除'), 'alice');
    expect(confirmButton()).toBeEnabled();
    await user.click(confirmButton());
    expect(await screen.findByTestId('location')).toHaveTextContent('/login');
    await waitFor(() => expect(fetch.calls('GET /api/user/logout')).toHaveLength(1));
    expect(fetch.calls('DELETE /api/user/self')[0]?.headers.get('New-Api-User')).toBe(String(normalUser.id));
    expect(getSessionUser()).toBeNull();
    await screen.findByText('账户已删除！');
  });
});
