import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { notify } from '../../lib/notify';
import { useSessionUser } from '../../lib/session';
import { useSiteStatus } from '../../lib/site-status';
import { readString } from '../../lib/storage';
import { buildSidebarItems, type SidebarItem, selectedMenuKeys } from '../navigation';

type MenuItem = Required<MenuProps>['items'][number];

/** The sidebar's menu (used in the desktop Sider and the mobile drawer). */
export function SidebarMenu({
  menuKeys,
  onNavigate,
}: {
  menuKeys: ReadonlySet<string>;
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const status = useSiteStatus();
  const location = useLocation();
  const reportedParseFailure = useRef(false);

  const { items, chatParseFailed } = useMemo(
    () => buildSidebarItems({ user, status, availableKeys: menuKeys, storedChats: readString('chats') }),
    [user, status, menuKeys],
  );

  useEffect(() => {
    if (chatParseFailed && !reportedParseFailure.current) {
      reportedParseFailure.current = true;
      notify.error(t('menu.chatParseFailed'));
    }
  }, [chatParseFailed, t]);

  const toMenuItem = (item: SidebarItem): MenuItem => {
    const label = item.label ?? t(item.labelKey ?? '');
    if (item.children) {
      return { key: item.key, icon: item.icon, label, children: item.children.map(toMenuItem) };
    }
    return {
      key: item.key,
      icon: item.icon,
      label: (
        <Link to={item.path} onClick={onNavigate}>
          {label}
        </Link>
      ),
    };
  };

  return (
    <Menu
      mode="inline"
      selectedKeys={selectedMenuKeys(location.pathname)}
      defaultOpenKeys={location.pathname.startsWith('/chat') ? ['chat'] : []}
      items={items.map(toMenuItem)}
      style={{ borderInlineEnd: 'none' }}
      aria-label={t('menu.ariaLabel')}
    />
  );
}
