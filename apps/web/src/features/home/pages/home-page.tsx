import { Skeleton } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SiteContent } from '../../../components/site-content';
import { useHomePageContentQuery } from '../api/get-home-page-content';
import { DefaultLanding } from '../components/default-landing';
import { NoticeModal } from '../components/notice-modal';

/** Height of the console header; a URL home page fills the rest of the window. */
const HEADER_HEIGHT = 64;

/**
 * / (public, no sidebar or padding): the administrator's HomePageContent — Markdown/HTML rendered
 * safely, or a URL shown in a frame filling the page — or the default landing when it is empty.
 * The site notice opens on top once per notice text.
 */
export function HomePage() {
  const { t } = useTranslation('home');
  const content = useHomePageContentQuery();
  const text = content.data ?? '';

  let body: ReactNode;
  if (content.isPending) {
    body = <Skeleton active paragraph={{ rows: 8 }} style={{ padding: 24 }} />;
  } else if (text.trim() === '') {
    body = <DefaultLanding />;
  } else {
    body = (
      <SiteContent
        content={text}
        title={t('content.frameTitle')}
        frameHeight={`calc(100vh - ${HEADER_HEIGHT}px)`}
        contentStyle={{ padding: 24, fontSize: 16 }}
      />
    );
  }

  return (
    <>
      <NoticeModal />
      {body}
    </>
  );
}
