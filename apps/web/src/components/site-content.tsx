import type { CSSProperties } from 'react';
import { SafeHtml } from './safe-html';

/**
 * True when administrator content is a single http(s) URL. The original console embeds such a
 * value (home page content, about) in a frame instead of rendering it as Markdown.
 */
export function isEmbeddableUrl(content: string): boolean {
  const value = content.trim();
  if (!/^https?:\/\/\S+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Shows administrator-provided site content: a URL in a frame of the given height, anything else
 * as Markdown (which may contain HTML), sanitized by DOMPurify. The frame may run scripts and
 * open pop-ups but cannot navigate the console itself.
 */
export function SiteContent({
  content,
  title,
  frameHeight,
  className,
  contentStyle,
}: {
  content: string;
  /** Accessible name of the frame. */
  title: string;
  /** CSS height of the frame, e.g. 'calc(100vh - 64px)'. */
  frameHeight: string;
  className?: string;
  /** Style of the box around rendered Markdown/HTML (not the frame). */
  contentStyle?: CSSProperties;
}) {
  if (isEmbeddableUrl(content)) {
    return (
      <iframe
        src={content.trim()}
        title={title}
        data-testid="site-content-frame"
        sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-downloads"
        referrerPolicy="no-referrer"
        style={{ display: 'block', width: '100%', height: frameHeight, border: 'none' }}
      />
    );
  }
  return (
    <div data-testid="site-content" style={{ overflowWrap: 'anywhere', overflowX: 'auto', ...contentStyle }}>
      <SafeHtml markdown={content} {...(className ? { className } : {})} />
    </div>
  );
}
