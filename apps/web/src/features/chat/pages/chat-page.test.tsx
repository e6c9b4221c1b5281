import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { ChatPage } from './chat-page';
import { Chat2LinkPage } from './chat2link-page';

const chats = [{ Next: 'https://chat.test/?key={key}&url={address}' }];

describe('chat pages', () => {
  it('embeds the chat entry with the first enabled key', async () => {
    const fetch = mockFetch({
      'GET /api/token/': ok([
        { id: 4, status: 2, key: 'full4' },
        { id: 7, status: 1, key: 'full7' },
      ]),
    });
    renderWithProviders(<ChatPage />, {
      user: normalUser,
      route: '/chat/0',
      path: '/chat/:id',
      status: { chats, server_address: 'https://api.test' },
    });
    const frame = await screen.findByTitle('聊天');
    expect(frame.getAttribute('src')).toBe('https://chat.test/?key=sk-full7&url=https%3A%2F%2Fapi.test');
    expect(fetch.calls('GET /api/token/')[0]?.url.search).toBe('?p=0&size=100');
  });

  it('reports a bad chat index', async () => {
    const fetch = mockFetch({});
    renderWithProviders(<ChatPage />, {
      user: normalUser,
      route: '/chat/3',
      path: '/chat/:id',
      status: { chats },
    });
    await screen.findByText('聊天链接配置错误，请联系管理员');
    expect(fetch.requests).toHaveLength(0);
  });

  it('without an enabled token, says so and goes to /token after 1.5 s', async () => {
    mockFetch({ 'GET /api/token/': ok([{ id: 4, status: 2, key: 'full4' }]) });
    renderWithProviders(<ChatPage />, {
      user: normalUser,
      route: '/chat/0',
      path: '/chat/:id',
      status: { chats },
    });
    expect(
      await screen.findByText('当前没有可用的启用令牌，请确认是否有令牌处于启用状态！'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('location')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/token'), {
      timeout: 4000,
    });
  });

  it('chat2link redirects to the chat link with the settings', async () => {
    mockFetch({
      'GET /api/token/': ok([{ id: 7, status: 1, key: 'full7' }]),
    });
    const redirect = vi.fn();
    renderWithProviders(<Chat2LinkPage redirect={redirect} />, {
      user: normalUser,
      route: '/chat2link',
      status: { chat_link: 'https://next.test', server_address: 'https://api.test' },
    });
    await waitFor(() => expect(redirect).toHaveBeenCalledTimes(1));
    expect(redirect.mock.calls[0]?.[0]).toBe(
      `https://next.test/#/?settings=${encodeURIComponent('{"key":"sk-full7","url":"https://api.test"}')}`,
    );
  });

  it('chat2link without a chat link asks to configure one', async () => {
    const fetch = mockFetch({});
    renderWithProviders(<Chat2LinkPage redirect={vi.fn()} />, {
      user: normalUser,
      route: '/chat2link',
      status: {},
    });
    await screen.findByText('请联系管理员配置聊天链接');
    expect(fetch.requests).toHaveLength(0);
  });
});
