import { Card, Flex, Typography } from 'antd';
import type { ReactNode } from 'react';
import { DEFAULT_SYSTEM_NAME, useSiteStatus } from '../../../lib/site-status';

/** Centered card used by the sign-in screens (logo, system name, title). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  const status = useSiteStatus();
  return (
    <Flex justify="center" style={{ paddingBlock: 24 }}>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
          <img src={status.logo || '/logo.svg'} alt="" width={48} height={48} style={{ borderRadius: 10 }} />
          <Typography.Title level={3} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
          <Typography.Text type="secondary">{status.system_name || DEFAULT_SYSTEM_NAME}</Typography.Text>
        </Flex>
        {children}
      </Card>
    </Flex>
  );
}
