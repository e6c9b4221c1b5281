import { Result, Spin } from 'antd';

/** A full-page message (configuration problems) or a spinner with a caption. */
export function ChatNotice({ kind, text }: { kind: 'error' | 'loading'; text: string }) {
  if (kind === 'loading') {
    return (
      <div style={{ padding: 48, textAlign: 'center' }}>
        <Spin size="large" />
        <div style={{ marginTop: 16 }}>{text}</div>
      </div>
    );
  }
  return <Result status="warning" title={text} />;
}
