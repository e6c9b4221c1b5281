import { Spin } from 'antd';

/** Suspense fallback while a page chunk loads. */
export function PageLoading() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: 48 }}>
      <Spin size="large" />
    </div>
  );
}
