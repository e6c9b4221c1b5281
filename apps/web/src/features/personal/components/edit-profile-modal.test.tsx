import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getSessionUser } from '../../../lib/session';
import { fail, mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { useSelfQuery } from '../api/get-self';
import { ProfileCard } from './profile-card';

/** The profile card fed by the self query, as on the personal settings page. */
function SelfProfile() {
  const self = useSelfQuery();
  return self.data ? <ProfileCard user={self.data} /> : null;
}

function mockSelf(reply: ReturnType<typeof ok> = ok()) {
  const self = { ...normalUser, email: '', quota: 0, used_quota: 0, request_count: 0 };
  const fetch = mockFetch({
    'GET /api/user/self': () => ok({ ...self }),
    'PUT /api/user/self': (request) => {
      if (reply.body && (reply.body as { success: boolean }).success) {
        Object.assign(self, request.body);
      }
      return reply;
    },
  });
  return fetch;
}

async function openDialog() {
  const rendered = renderWithProviders(<SelfProfile />, { user: normalUser });
  await rendered.user.click(await screen.findByRole('button', { name: /编辑资料/ }));
  const username = await screen.findByLabelText('用户名');
  const displayName = screen.getByLabelText('显示名称');
  const save = () => rendered.user.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
  return { ...rendered, username, displayName, save };
}

describe('EditProfileModal', () => {
  it('requires a username and enforces the length limits', async () => {
    const fetch = mockSelf();
    const { user, username, displayName, save } = await openDialog();
    await user.clear(username);
    await save();
    // antd replaces an error's node when the form re-validates: query afresh until it settles
    // (a node found once may be detached by the time it is checked on a loaded machine).
    const shows = (text: string) => waitFor(() => expect(screen.getByText(text)).toBeInTheDocument());
    await shows('请输入用户名');
    await user.type(username, 'abcdefghijklm');
    await user.type(displayName, 'x'.repeat(20));
    await save();
    await shows('用户名最多 12 个字符');
    await shows('显示名称最多 20 个字符');
    expect(fetch.calls('PUT /api/user/self')).toHaveLength(0);
  });

  it('sends only the changed field and shows the new name', async () => {
    const fetch = mockSelf();
    const { user, displayName, save } = await openDialog();
    await user.clear(displayName);
    await user.type(displayName, 'Alice Liddell');
    await save();
    await screen.findByText('保存成功');
    expect(fetch.calls('PUT /api/user/self')[0]?.body).toEqual({ display_name: 'Alice Liddell' });
    await screen.findByRole('heading', { name: 'Alice Liddell' });
    expect(getSessionUser()).toMatchObject({ username: 'alice', display_name: 'Alice Liddell' });
    await waitFor(() => expect(fetch.calls('GET /api/user/self')).toHaveLength(2));
  });

  it("shows the server's message and keeps the stored user on failure", async () => {
    const fetch = mockSelf(fail('用户名已存在'));
    const { user, username, save } = await openDialog();
    await user.clear(username);
    await user.type(username, 'bob');
    await save();
    await screen.findByText('用户名已存在');
    expect(fetch.calls('PUT /api/user/self')[0]?.body).toEqual({ username: 'bob' });
    expect(getSessionUser()).toMatchObject({ username: 'alice' });
    expect(screen.getByLabelText('用户名')).toHaveValue('bob');
  });
});
