import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, ok } from '../../../testing/mock-fetch';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { AboutPage } from './about-page';

describe('AboutPage', () => {
  it('shows a default text with the version from the status when About is empty', async () => {
    mockFetch({ 'GET /api/about': ok('') });
    renderWithProviders(<AboutPage />, { status: { system_name: 'Gate', version: 'v1.2.3' } });
    await screen.findByText('关于 Gate');
    expect(screen.getByTestId('about-version')).toHaveTextContent('v1.2.3');
    expect(screen.getByRole('link', { name: '设置 → 其他设置' })).toHaveAttribute(
      'href',
      '/setting?tab=other',
    );
  });

  it('renders About as sanitized Markdown', async () => {
    mockFetch({ 'GET /api/about': ok('## Who we are\n\n<a href="javascript:alert(1)">bad</a> <b>bold</b>') });
    renderWithProviders(<AboutPage />);
    await screen.findByRole('heading', { name: 'Who we are' });
    expect(screen.getByText('bad')).not.toHaveAttribute('href', 'javascript:alert(1)');
    expect(screen.getByText('bold').tagName).toBe('B');
  });

  it('embeds an About URL in a frame', async () => {
    mockFetch({ 'GET /api/about': ok(' http://intranet.example/about ') });
    renderWithProviders(<AboutPage />);
    const frame = await screen.findByTitle('关于');
    expect(frame).toHaveAttribute('src', 'http://intranet.example/about');
  });
});
