import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../testing/render-with-providers';
import { MessageBubble } from './message-bubble';

const reply = (content: string, status: 'loading' | 'incomplete' | 'complete' | 'error') => ({
  id: 'a',
  role: 'assistant' as const,
  content,
  status,
});

describe('MessageBubble', () => {
  it('renders a reply as Markdown with highlighted code, raw HTML escaped', async () => {
    const text = 'Some **bold** text\n\n```js\nconst x = 1;\n```\n\n<img src=x onerror=alert(1)>';
    const { container } = renderWithProviders(<MessageBubble message={reply(text, 'complete')} />);
    expect(await screen.findByText('bold')).toHaveProperty('tagName', 'STRONG');
    expect(container.querySelector('code.hljs')).not.toBeNull();
    expect(container.querySelector('.hljs-keyword')?.textContent).toBe('const');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('[data-status="complete"]')).not.toBeNull();
  });

  it('shows each state: loading, streaming, error', async () => {
    const { rerender } = renderWithProviders(<MessageBubble message={reply('', 'loading')} />);
    await screen.findByText('正在请求…');
    rerender(<MessageBubble message={reply('Part', 'incomplete')} />);
    expect(screen.getByLabelText('正在输出')).toBeInTheDocument();
    rerender(<MessageBubble message={reply('Part\n\nno channel', 'error')} />);
    expect(screen.getByText('请求出错')).toBeInTheDocument();
    expect(screen.getByText('no channel')).toBeInTheDocument();
  });
});
