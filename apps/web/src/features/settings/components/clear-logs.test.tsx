import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, mockFetch, ok } from '../../../testing/mock-fetch';
import { adminUser, renderWithProviders } from '../../../testing/render-with-providers';
import { ClearLogs } from './clear-logs';
import { fastUser } from './test-options';

const IDLE = { state: 'idle', target_timestamp: 0, deleted: 0, started_at: 0, finished_at: 0, message: '' };
const progress = (state: string, deleted: number, message = '') => ({
  ...IDLE,
  state,
  deleted,
  target_timestamp: 1_700_000_000,
  started_at: 1_700_000_100,
  finished_at: state === 'running' ? 0 : 1_700_000_200,
  message,
});

const clearButton = () => screen.getByText('清除历史日志', { selector: 'button span' });
const confirmButton = () =>
  screen.getByText(/^确\s*定$/, { selector: '.ant-popconfirm button span' }) as HTMLElement;

describe('ClearLogs', () => {
  it('defaults to one month ago and deletes older logs', async () => {
    const fetch = mockFetch({
      'DELETE /api/log/': ok(12),
      'GET /api/log/clear_progress': ok(progress('done', 12)),
    });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    const before = Date.now();
    await user.click(clearButton());
    await waitFor(() => expect(screen.getByText('确定清除所选时间之前的全部日志吗？')).toBeInTheDocument());
    await user.click(confirmButton());
    await screen.findByText('12 条日志已清理！');
    const params = fetch.calls('DELETE /api/log/')[0]?.url.searchParams;
    // The answer comes after the first batch; the rest is followed through clear_progress.
    expect(params?.get('background')).toBe('true');
    const target = Number(params?.get('target_timestamp'));
    const monthAgo = new Date(before);
    monthAgo.setMonth(monthAgo.getMonth() - 1);
    expect(Math.abs(target - monthAgo.getTime() / 1000)).toBeLessThan(120);
  });

  it('needs a chosen time', async () => {
    const fetch = mockFetch({ 'DELETE /api/log/': ok(0), 'GET /api/log/clear_progress': ok(IDLE) });
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
    mockFetch({ 'DELETE /api/log/': fail('数据库繁忙'), 'GET /api/log/clear_progress': ok(IDLE) });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    await user.click(clearButton());
    await waitFor(() => expect(screen.getByText('确定清除所选时间之前的全部日志吗？')).toBeInTheDocument());
    await user.click(confirmButton());
    await screen.findByText('日志清理失败：数据库繁忙');
  });

  it('follows a clear that goes on after the answer and announces the whole count at the end', async () => {
    let reads = 0;
    mockFetch({
      'DELETE /api/log/': ok(500, '日志清理仍在后台进行'),
      // Idle on first load, running after the DELETE, done on the next poll.
      'GET /api/log/clear_progress': () => {
        reads += 1;
        if (reads === 1) return ok(IDLE);
        return reads === 2 ? ok(progress('running', 500)) : ok(progress('done', 1234));
      },
    });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    await user.click(clearButton());
    await waitFor(() => expect(screen.getByText('确定清除所选时间之前的全部日志吗？')).toBeInTheDocument());
    await user.click(confirmButton());
    await screen.findByText(/正在清理 .* 之前的日志：已删除 500 条/);
    await screen.findByText('1234 条日志已清理！', {}, { timeout: 4000 });
    expect(screen.queryByText('500 条日志已清理！')).toBeNull();
    await screen.findByText(/上次清理：删除了 .* 之前的 1234 条日志/);
  });

  it('shows a clear that stopped, with its reason', async () => {
    mockFetch({ 'GET /api/log/clear_progress': ok(progress('failed', 40, '服务正在停止')) });
    renderWithProviders(<ClearLogs />, { user: adminUser });
    await screen.findByText(/之前的日志中断：已删除 40 条/);
    await screen.findByText('服务正在停止');
  });

  it('says when the progress cannot be read, and reads it again on retry', async () => {
    let reads = 0;
    mockFetch({
      'GET /api/log/clear_progress': () => {
        reads += 1;
        return reads === 1 ? fail('boom') : ok(progress('running', 7));
      },
    });
    const user = fastUser();
    renderWithProviders(<ClearLogs />, { user: adminUser });
    await screen.findByText('无法读取日志清理进度');
    await user.click(screen.getByText(/^重\s*试$/));
    await screen.findByText(/已删除 7 条/);
  });
});
