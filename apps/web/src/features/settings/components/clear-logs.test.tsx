import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { ClearLogs } from './clear-logs';
import { fastUser } from './test-options';

const clearButton = () => screen.getByText('清除历史日志', { selector: 'button span' });
const confirmButton = () =>
  screen.getByText(/^确\s*定$/, { selector: '.ant-popconfirm button span' }) as HTMLElement;

describe('ClearLogs', () => {
  it('defaults to one month ago and deletes older logs', async () => {
    const fetch = mockFetch({ 'DELETE /api/log/': ok(12) });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    const before = Date.now();
    await user.click(clearButton());
    await waitFor(() => expect(screen.getByText('确定清除所选时间之前的全部日志吗？')).toBeInTheDocument());
    await user.click(confirmButton());
    await screen.findByText('12 条日志已清理！');
    const target = Number(fetch.calls('DELETE /api/log/')[0]?.url.searchParams.get('target_timestamp'));
    const monthAgo = new Date(before);
    monthAgo.setMonth(monthAgo.getMonth() - 1);
    expect(Math.abs(target - monthAgo.getTime() / 1000)).toBeLessThan(120);
  });

  it('needs a chosen time', async () => {
    const fetch = mockFetch({ 'DELETE /api/log/': ok(0) });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    // The clear icon only takes pointer events on hover, which jsdom cannot style.
    const clear = document.querySelector('.ant-picker-clear') as HTMLElement;
    fireEvent.mouseDown(clear);
    fireEvent.mouseUp(clear);
    fireEvent.click(clear);
    await waitFor(() => expect(screen.getByPlaceholderText('选择清除此时间之前的日志')).toHaveValue(''));
    await user.click(clearButton());
    await screen.findByText('请选择日志记录时间');
    expect(screen.queryByText('确定清除所选时间之前的全部日志吗？')).toBeNull();
    expect(fetch.calls('DELETE /api/log/')).toHaveLength(0);
  });

  it('shows a failure with its prefix', async () => {
    mockFetch({ 'DELETE /api/log/': fail('数据库繁忙') });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    await user.click(clearButton());
    await waitFor(() => expect(screen.getByText('确定清除所选时间之前的全部日志吗？')).toBeInTheDocument());
    await user.click(confirmButton());
    await screen.findByText('日志清理失败：数据库繁忙');
  });
});
