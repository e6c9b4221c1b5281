import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { normalUser, renderWithProviders } from '../../../testing/render-with-providers';
import { NOTICE_STORAGE_KEY } from '../components/notice-modal';
import { HomePage } from './home-page';

describe('HomePage', () => {
  it('shows the default landing with the API address when no content is set', async () => {
    mockFetch({ 'GET /api/home_page_content': ok(''), 'GET /api/notice': ok('') });
    renderWithProviders(<HomePage />, { status: { system_name: 'Gate', version: 'v9.9.9' } });
    await screen.findByTestId('default-landing');
    expect(screen.getByRole('heading', { level: 1, name: 'Gate' })).toBeInTheDocument();
    expect(screen.getByTestId('api-base-url')).toHaveValue(window.location.origin);
    expect(screen.getByText('v9.9.9')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /登录/ })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: /注册/ })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: /模型价格/ })).toHaveAttribute('href', '/pricing');
  });

  it('offers the console instead of sign-in to a logged-in user and hides sign-up in self-use mode', async () => {
    mockFetch({ 'GET /api/home_page_content': ok(''), 'GET /api/notice': ok('') });
    renderWithProviders(<HomePage />, { user: normalUser, status: { self_use_mode_enabled: true } });
    await screen.findByRole('link', { name: /进入控制台/ });
    expect(screen.queryByRole('link', { name: /注册/ })).toBeNull();
  });

  it('renders Markdown and HTML content without scripts or event handlers', async () => {
    mockFetch({
      'GET /api/home_page_content': ok(
        '# Welcome\n\n<img src="x.png" onerror="alert(1)" alt="pic"><script>window.hacked = true</script>',
      ),
      'GET /api/notice': ok(''),
    });
    const { container } = renderWithProviders(<HomePage />);
    await screen.findByRole('heading', { name: 'Welcome' });
    expect(screen.getByAltText('pic')).not.toHaveAttribute('onerror');
    expect(container.querySelector('script')).toBeNull();
    expect(screen.queryByTestId('default-landing')).toBeNull();
    expect(window.localStorage.getItem('home_page_content')).toContain('# Welcome');
  });

  it('shows a URL in a frame', async () => {
    mockFetch({ 'GET /api/home_page_content': ok('https://example.com/landing'), 'GET /api/notice': ok('') });
    renderWithProviders(<HomePage />);
    const frame = await screen.findByTitle('首页内容');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame).toHaveAttribute('src', 'https://example.com/landing');
  });

  it('shows the notice once per text and remembers the dismissed text', async () => {
    mockFetch({ 'GET /api/home_page_content': ok(''), 'GET /api/notice': ok('Maintenance **tonight**') });
    const first = renderWithProviders(<HomePage />);
    const dialog = await screen.findByRole('dialog', { name: '公告' });
    expect(dialog).toHaveTextContent('Maintenance tonight');
    await first.user.click(screen.getByRole('button', { name: '关闭公告' }));
    expect(window.localStorage.getItem(NOTICE_STORAGE_KEY)).toBe('Maintenance **tonight**');
    first.unmount();

    renderWithProviders(<HomePage />);
    await screen.findByTestId('default-landing');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog', { name: '公告' })).toBeNull();
  });

  it('shows the notice again when its text changes', async () => {
    window.localStorage.setItem(NOTICE_STORAGE_KEY, 'old notice');
    mockFetch({ 'GET /api/home_page_content': ok(''), 'GET /api/notice': ok('new notice') });
    renderWithProviders(<HomePage />);
    await waitFor(() => expect(screen.getByRole('dialog', { name: '公告' })).toHaveTextContent('new notice'));
  });
});
