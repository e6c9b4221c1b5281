import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Sanitizes administrator-provided HTML (footer, notices) before it is injected. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] });
}

/** Renders Markdown (which may contain HTML) to sanitized HTML. */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown, { async: false }));
}
