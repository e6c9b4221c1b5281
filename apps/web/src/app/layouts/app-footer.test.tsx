import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../testing/render-with-providers';
import { AppFooter } from './app-footer';

describe('AppFooter', () => {
  it('shows the product name and version by default', () => {
    renderWithProviders(<AppFooter />, { status: { version: 'v1.2.3' } });
    expect(screen.getByTestId('app-footer')).toHaveTextContent('Switchyard v1.2.3');
    expect(screen.getByRole('link', { name: 'New API' })).toHaveAttribute(
      'href',
      expect.stringContaining('new-api'),
    );
  });

  it('renders footer_html sanitized', () => {
    renderWithProviders(<AppFooter />, {
      status: {
        footer_html: '<b>Custom footer</b><img src="x" onerror="alert(1)"><script>alert(2)</script>',
      },
    });
    const footer = screen.getByTestId('app-footer');
    expect(screen.getByText('Custom footer').tagName).toBe('B');
    expect(footer.querySelector('script')).toBeNull();
    expect(footer.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(footer).not.toHaveTextContent('Switchyard');
  });
});
