import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shown for every path the route table does not know. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('notFound.message')}
      extra={
        <Link to="/setting">
          <Button type="primary">{t('notFound.back')}</Button>
        </Link>
      }
    />
  );
}
