import type { AppServices } from '../../app-services.ts';

/** The public site status read by the console on load (field names are the reference's). */
export function buildPublicStatus(
  services: Pick<AppServices, 'options' | 'version' | 'startTime' | 'config'>,
) {
  const o = services.options;
  const chats = o.getJson<unknown>('Chats');
  return {
    version: services.version,
    start_time: services.startTime,
    email_verification: o.getBoolean('EmailVerificationEnabled'),
    github_oauth: o.getBoolean('GitHubOAuthEnabled'),
    github_client_id: o.get('GitHubClientId'),
    linuxdo_oauth: o.getBoolean('LinuxDOOAuthEnabled'),
    linuxdo_client_id: o.get('LinuxDOClientId'),
    telegram_oauth: o.getBoolean('TelegramOAuthEnabled'),
    telegram_bot_name: o.get('TelegramBotName'),
    system_name: o.get('SystemName'),
    logo: o.get('Logo'),
    footer_html: o.get('Footer'),
    wechat_qrcode: o.get('WeChatAccountQRCodeImageURL'),
    wechat_login: o.getBoolean('WeChatAuthEnabled'),
    server_address: o.get('ServerAddress'),
    price: o.getNumber('Price'),
    min_topup: o.getNumber('MinTopUp'),
    turnstile_check: o.getBoolean('TurnstileCheckEnabled'),
    turnstile_site_key: o.get('TurnstileSiteKey'),
    top_up_link: o.get('TopUpLink'),
    docs_link: o.get('general_setting.docs_link'),
    quota_per_unit: o.getNumber('QuotaPerUnit'),
    display_in_currency: o.getBoolean('DisplayInCurrencyEnabled'),
    enable_batch_update: services.config.batchUpdateEnabled,
    enable_drawing: o.getBoolean('DrawingEnabled'),
    enable_task: o.getBoolean('TaskEnabled'),
    enable_data_export: o.getBoolean('DataExportEnabled'),
    data_export_default_time: o.get('DataExportDefaultTime'),
    default_collapse_sidebar: o.getBoolean('DefaultCollapseSidebar'),
    enable_online_topup: o.get('PayAddress') !== '' && o.get('EpayId') !== '' && o.get('EpayKey') !== '',
    mj_notify_enabled: o.getBoolean('MjNotifyEnabled'),
    chats: Array.isArray(chats) ? chats : [],
    chat_link: o.get('ChatLink'),
    chat_link2: o.get('ChatLink2'),
    demo_site_enabled: o.getBoolean('DemoSiteEnabled'),
    self_use_mode_enabled: o.getBoolean('SelfUseModeEnabled'),
    oidc_enabled: false,
    oidc_client_id: '',
    oidc_authorization_endpoint: '',
    setup: true,
  };
}
