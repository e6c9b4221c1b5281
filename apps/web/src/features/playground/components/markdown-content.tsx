import Markdown from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import remarkGfm from 'remark-gfm';
import './markdown-content.css';

/**
 * A reply rendered as Markdown (GitHub flavour) with highlighted code blocks. Raw HTML in the
 * text is not rendered (react-markdown escapes it), so model output cannot inject markup.
 */
export function MarkdownContent({ text }: { text: string }) {
  return (
    <div className="pg-markdown">
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[[rehypeHighlight, { detect: true, ignoreMissing: true }]]}
      >
        {text}
      </Markdown>
    </div>
  );
}
