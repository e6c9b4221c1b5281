import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Router error boundary: a page chunk failed to load or a page crashed while rendering. */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <Result
      status="error"
      title={t('routeError.title')}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
      }
    />
  );
}
