import {
  GiftOutlined,
  LoginOutlined,
  LogoutOutlined,
  MenuOutlined,
  MoonOutlined,
  SunOutlined,
  TranslationOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Dropdown, Flex, Layout, Tag, Tooltip, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useLogout } from '../../features/auth/api/logout';
import { hasAccess } from '../../lib/access';
import { changeLanguage, type Language, normalizeLanguage } from '../../lib/i18n';
import { notify } from '../../lib/notify';
import { useSessionUser } from '../../lib/session';
import { DEFAULT_SYSTEM_NAME, useSiteStatus } from '../../lib/site-status';
import { toggleThemeMode, useThemeMode } from '../../lib/theme';
import { useIsMobile } from '../../lib/use-is-mobile';
import { type MenuKey, SIDEBAR_ENTRIES } from '../navigation';
import { isNewYearsDay } from './seasonal';

/** Top links, shown when their page exists (home, console dashboard, pricing, about). */
const HEADER_LINK_KEYS: readonly MenuKey[] = ['home', 'detail', 'pricing', 'about'];

export interface AppHeaderProps {
  menuKeys: ReadonlySet<string>;
  /** Shows the button that opens the mobile navigation drawer. */
  onOpenMobileMenu?: () => void;
  /** Overrides "today" (tests). */
  now?: Date;
}

export function AppHeader({ menuKeys, onOpenMobileMenu, now }: AppHeaderProps) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const status = useSiteStatus();
  const user = useSessionUser();
  const isMobile = useIsMobile();
  const mode = useThemeMode();
  const location = useLocation();
  const logout = useLogout();
  const systemName = status.system_name || DEFAULT_SYSTEM_NAME;
  const selfUse = status.self_use_mode_enabled === true;
  const demo = status.demo_site_enabled === true;

  const links = SIDEBAR_ENTRIES.filter(
    (entry) =>
      HEADER_LINK_KEYS.includes(entry.key) &&
      menuKeys.has(entry.key) &&
      hasAccess(entry.access, user) &&
      (!entry.flag || status[entry.flag] === true),
  );

  const languageItems = [
    { key: 'zh', label: '中文' },
    { key: 'en', label: 'English' },
  ];

  return (
    <Layout.Header
      data-testid="app-header"
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 12,
        paddingInline: isMobile ? 8 : 16,
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorBorderSecondary}`,
        position: 'sticky',
        top: 0,
        zIndex: 10,
      }}
    >
      {onOpenMobileMenu ? (
        <Button
          type="text"
          icon={<MenuOutlined />}
          aria-label={t('header.openMenu')}
          onClick={onOpenMobileMenu}
        />
      ) : null}
      <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
        <img src={status.logo || '/logo.svg'} alt="" width={28} height={28} style={{ borderRadius: 6 }} />
        {!isMobile || !user ? (
          <Typography.Text strong ellipsis style={{ fontSize: 16, maxWidth: isMobile ? 120 : 240 }}>
            {systemName}
          </Typography.Text>
        ) : null}
      </Link>
      {selfUse ? (
        <Tag color="purple" data-testid="mode-badge">
          {t('header.selfUseMode')}
        </Tag>
      ) : demo ? (
        <Tag color="blue" data-testid="mode-badge">
          {t('header.demoSite')}
        </Tag>
      ) : null}
      {!isMobile ? (
        <Flex gap={4} component="nav">
          {links.map((entry) => (
            <Link key={entry.key} to={entry.path}>
              <Button type={location.pathname === entry.path ? 'link' : 'text'}>
                {t(entry.key === 'detail' ? 'header.console' : `menu.${entry.key}`)}
              </Button>
            </Link>
          ))}
        </Flex>
      ) : null}
      <Flex gap={4} align="center" style={{ marginInlineStart: 'auto' }}>
        {isNewYearsDay(now) ? (
          <Button type="text" icon={<GiftOutlined />} onClick={() => notify.success('Happy New Year!!!')}>
            {isMobile ? null : 'Happy New Year!!!'}
          </Button>
        ) : null}
        <Tooltip title={mode === 'dark' ? t('header.lightMode') : t('header.darkMode')}>
          <Button
            type="text"
            aria-label={t('header.toggleTheme')}
            icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
            onClick={toggleThemeMode}
          />
        </Tooltip>
        <Dropdown
          menu={{
            items: languageItems,
            selectable: true,
            selectedKeys: [normalizeLanguage(i18n.language)],
            onClick: ({ key }) => void changeLanguage(key as Language),
          }}
        >
          <Button type="text" aria-label={t('header.language')} icon={<TranslationOutlined />} />
        </Dropdown>
        {user ? (
          <Dropdown
            menu={{
              items: [{ key: 'logout', icon: <LogoutOutlined />, label: t('header.logout') }],
              onClick: ({ key }) => {
                if (key === 'logout') void logout();
              },
            }}
          >
            <Button type="text" data-testid="user-menu" style={{ paddingInline: 4 }}>
              <Avatar size="small" style={{ backgroundColor: token.colorPrimary }}>
                {(user.username || '?').charAt(0).toUpperCase()}
              </Avatar>
              {!isMobile ? <span>{user.username}</span> : null}
            </Button>
          </Dropdown>
        ) : (
          <>
            <Link to="/login">
              <Button type="text" icon={<LoginOutlined />}>
                {t('header.login')}
              </Button>
            </Link>
            {!isMobile && !selfUse ? (
              <Link to="/register">
                <Button type="text" icon={<UserAddOutlined />}>
                  {t('header.register')}
                </Button>
              </Link>
            ) : null}
          </>
        )}
      </Flex>
    </Layout.Header>
  );
}
