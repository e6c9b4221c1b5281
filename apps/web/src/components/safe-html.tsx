import { useMemo } from 'react';
import { renderMarkdown, sanitizeHtml } from '../lib/safe-html';

/** Renders administrator-provided HTML or Markdown after DOMPurify sanitization. */
export function SafeHtml({
  html,
  markdown,
  className,
}: {
  html?: string;
  markdown?: string;
  className?: string;
}) {
  const content = useMemo(
    () => (markdown !== undefined ? renderMarkdown(markdown) : sanitizeHtml(html ?? '')),
    [html, markdown],
  );
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the content is sanitized by DOMPurify above.
  return <div className={className} dangerouslySetInnerHTML={{ __html: content }} />;
}
