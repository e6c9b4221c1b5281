import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App, ConfigProvider, theme } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { i18n, normalizeLanguage } from '../lib/i18n';
import { useThemeMode } from '../lib/theme';
import { NotifierBridge } from './notifier-bridge';

function ThemedAntd({ children }: { children: ReactNode }) {
  const { i18n: instance } = useTranslation();
  const mode = useThemeMode();
  const language = normalizeLanguage(instance.language);

  useEffect(() => {
    document.documentElement.lang = language;
    document.documentElement.dataset.theme = mode;
    document.documentElement.style.colorScheme = mode;
  }, [language, mode]);

  return (
    <ConfigProvider
      locale={language === 'en' ? enUS : zhCN}
      theme={{ algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm }}
    >
      <App>
        <NotifierBridge />
        {children}
      </App>
    </ConfigProvider>
  );
}

/** Everything a page needs around it: i18n, server-state cache, antd theme/locale and messages. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ThemedAntd>{children}</ThemedAntd>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
