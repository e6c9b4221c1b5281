import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../api/get-options';
import type { OptionFieldSpec } from './option-fields';
import { OptionSection } from './option-section';

interface SectionProps {
  options: OptionMap;
}

/** Copyable callback address for an OAuth app ("<ServerAddress>/oauth/github"). */
function CallbackHint({ label, url }: { label: string; url: string }) {
  return (
    <>
      {label}{' '}
      <Typography.Text code copyable={{ text: url }}>
        {url}
      </Typography.Text>
    </>
  );
}

/** ServerAddress, WorkerUrl and WorkerValidKey (trailing slashes removed). */
export function AddressesSection({ options }: SectionProps) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'ServerAddress',
      kind: 'address',
      label: t('system.addresses.serverAddress'),
      help: t('system.addresses.serverAddressHelp'),
      placeholder: 'https://yourdomain.com',
      width: 'full',
    },
    {
      key: 'WorkerUrl',
      kind: 'address',
      label: t('system.addresses.workerUrl'),
      help: t('system.addresses.workerUrlHelp'),
      placeholder: 'https://workername.yourdomain.workers.dev',
      width: 'half',
    },
    {
      key: 'WorkerValidKey',
      kind: 'secret',
      label: t('system.addresses.workerValidKey'),
      help: t('secret.help'),
      width: 'half',
    },
  ];
  return (
    <OptionSection id="addresses" title={t('system.addresses.title')} options={options} fields={fields} />
  );
}

/** Epay payment; refused while ServerAddress is not saved (callbacks need it). */
export function PaymentSection({ options }: SectionProps) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'PayAddress',
      kind: 'address',
      label: t('system.payment.payAddress'),
      placeholder: 'https://pay.example.com',
      width: 'half',
    },
    {
      key: 'CustomCallbackAddress',
      kind: 'address',
      label: t('system.payment.callbackAddress'),
      help: t('system.payment.callbackAddressHelp'),
      placeholder: 'https://yourdomain.com',
      width: 'half',
    },
    { key: 'EpayId', kind: 'text', label: t('system.payment.epayId'), placeholder: '10001', width: 'half' },
    {
      key: 'EpayKey',
      kind: 'secret',
      label: t('system.payment.epayKey'),
      help: t('secret.help'),
      width: 'half',
    },
    {
      key: 'Price',
      kind: 'number',
      label: t('system.payment.price'),
      help: t('system.payment.priceHelp'),
      min: 0,
      step: 0.01,
      width: 'half',
    },
    {
      key: 'MinTopUp',
      kind: 'number',
      label: t('system.payment.minTopUp'),
      help: t('system.payment.minTopUpHelp'),
      min: 1,
      width: 'half',
    },
    {
      key: 'TopupGroupRatio',
      kind: 'json',
      label: t('system.payment.topupGroupRatio'),
      help: t('system.payment.topupGroupRatioHelp'),
      placeholder: '{"default": 1, "vip": 1}',
    },
  ];
  return (
    <OptionSection
      id="payment"
      title={t('system.payment.title')}
      description={t('system.payment.description')}
      options={options}
      fields={fields}
      validate={() => (options.ServerAddress?.trim() ? null : t('system.payment.serverAddressRequired'))}
    />
  );
}

/** Password login (turning it off asks first), password registration, e-mail verification, registration. */
export function LoginSection({ options }: SectionProps) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'PasswordLoginEnabled',
      kind: 'switch',
      label: t('system.login.passwordLogin'),
      confirmOff: {
        title: t('system.login.passwordLoginOffTitle'),
        content: t('system.login.passwordLoginOffContent'),
      },
      width: 'half',
    },
    {
      key: 'PasswordRegisterEnabled',
      kind: 'switch',
      label: t('system.login.passwordRegister'),
      width: 'half',
    },
    {
      key: 'EmailVerificationEnabled',
      kind: 'switch',
      label: t('system.login.emailVerification'),
      help: t('system.login.emailVerificationHelp'),
      width: 'half',
    },
    {
      key: 'RegisterEnabled',
      kind: 'switch',
      label: t('system.login.register'),
      help: t('system.login.registerHelp'),
      width: 'half',
    },
  ];
  return <OptionSection id="login" title={t('system.login.title')} options={options} fields={fields} />;
}

/** E-mail domain whitelist and alias restriction. */
export function EmailRestrictionSection({ options }: SectionProps) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'EmailDomainRestrictionEnabled',
      kind: 'switch',
      label: t('system.emailRestriction.domainRestriction'),
      width: 'half',
    },
    {
      key: 'EmailAliasRestrictionEnabled',
      kind: 'switch',
      label: t('system.emailRestriction.aliasRestriction'),
      help: t('system.emailRestriction.aliasRestrictionHelp'),
      width: 'half',
    },
    {
      key: 'EmailDomainWhitelist',
      kind: 'tags',
      label: t('system.emailRestriction.whitelist'),
      help: t('system.emailRestriction.whitelistHelp'),
      placeholder: 'gmail.com',
    },
  ];
  return (
    <OptionSection
      id="email-restriction"
      title={t('system.emailRestriction.title')}
      description={t('system.emailRestriction.description')}
      options={options}
      fields={fields}
    />
  );
}

/** SMTP server, port (default 587), account, sender, token and SSL. */
export function SmtpSection({ options }: SectionProps) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'SMTPServer',
      kind: 'text',
      label: t('system.smtp.server'),
      placeholder: 'smtp.example.com',
      width: 'half',
    },
    {
      key: 'SMTPPort',
      kind: 'number',
      label: t('system.smtp.port'),
      help: t('system.smtp.portHelp'),
      min: 1,
      max: 65535,
      precision: 0,
      placeholder: '587',
      width: 'half',
    },
    { key: 'SMTPAccount', kind: 'text', label: t('system.smtp.account'), width: 'half' },
    {
      key: 'SMTPFrom',
      kind: 'text',
      label: t('system.smtp.from'),
      help: t('system.smtp.fromHelp'),
      width: 'half',
    },
    {
      key: 'SMTPToken',
      kind: 'secret',
      label: t('system.smtp.token'),
      help: t('secret.help'),
      width: 'half',
    },
    {
      key: 'SMTPSSLEnabled',
      kind: 'switch',
      label: t('system.smtp.ssl'),
      help: t('system.smtp.sslHelp'),
      width: 'half',
    },
  ];
  return (
    <OptionSection
      id="smtp"
      title={t('system.smtp.title')}
      description={t('system.smtp.description')}
      options={options}
      fields={fields}
    />
  );
}

/**
 * The sign-in providers, each with its switch, id and secret in one section: values are saved
 * before switches, so a provider can be configured and turned on with one click.
 */
export function SignInProviderSections({ options }: SectionProps) {
  const { t } = useTranslation('settings');
  const serverAddress = options.ServerAddress || window.location.origin;
  const secretHelp = t('secret.help');

  const github: OptionFieldSpec[] = [
    { key: 'GitHubOAuthEnabled', kind: 'switch', label: t('system.github.enabled') },
    { key: 'GitHubClientId', kind: 'text', label: 'GitHub Client ID' },
    { key: 'GitHubClientSecret', kind: 'secret', label: 'GitHub Client Secret', help: secretHelp },
  ];
  const linuxdo: OptionFieldSpec[] = [
    { key: 'LinuxDOOAuthEnabled', kind: 'switch', label: t('system.linuxdo.enabled') },
    { key: 'LinuxDOClientId', kind: 'text', label: 'Linux DO Client ID' },
    { key: 'LinuxDOClientSecret', kind: 'secret', label: 'Linux DO Client Secret', help: secretHelp },
  ];
  const wechat: OptionFieldSpec[] = [
    { key: 'WeChatAuthEnabled', kind: 'switch', label: t('system.wechat.enabled'), width: 'half' },
    {
      key: 'WeChatServerAddress',
      kind: 'address',
      label: t('system.wechat.serverAddress'),
      placeholder: 'https://wechat.example.com',
      width: 'half',
    },
    {
      key: 'WeChatServerToken',
      kind: 'secret',
      label: t('system.wechat.serverToken'),
      help: secretHelp,
      width: 'half',
    },
    {
      key: 'WeChatAccountQRCodeImageURL',
      kind: 'text',
      label: t('system.wechat.qrCode'),
      placeholder: 'https://example.com/qrcode.png',
      width: 'half',
    },
  ];
  const telegram: OptionFieldSpec[] = [
    { key: 'TelegramOAuthEnabled', kind: 'switch', label: t('system.telegram.enabled') },
    { key: 'TelegramBotToken', kind: 'secret', label: 'Telegram Bot Token', help: secretHelp },
    { key: 'TelegramBotName', kind: 'text', label: t('system.telegram.botName'), placeholder: 'my_bot' },
  ];
  const turnstile: OptionFieldSpec[] = [
    { key: 'TurnstileCheckEnabled', kind: 'switch', label: t('system.turnstile.enabled') },
    { key: 'TurnstileSiteKey', kind: 'text', label: 'Turnstile Site Key' },
    { key: 'TurnstileSecretKey', kind: 'secret', label: 'Turnstile Secret Key', help: secretHelp },
  ];

  return (
    <>
      <OptionSection
        id="github"
        title={t('system.github.title')}
        description={<CallbackHint label={t('system.oauthCallback')} url={`${serverAddress}/oauth/github`} />}
        options={options}
        fields={github}
      />
      <OptionSection
        id="linuxdo"
        title={t('system.linuxdo.title')}
        description={
          <CallbackHint label={t('system.oauthCallback')} url={`${serverAddress}/oauth/linuxdo`} />
        }
        options={options}
        fields={linuxdo}
      />
      <OptionSection
        id="wechat"
        title={t('system.wechat.title')}
        description={t('system.wechat.description')}
        options={options}
        fields={wechat}
      />
      <OptionSection
        id="telegram"
        title={t('system.telegram.title')}
        description={t('system.telegram.description')}
        options={options}
        fields={telegram}
      />
      <OptionSection
        id="turnstile"
        title={t('system.turnstile.title')}
        description={t('system.turnstile.description')}
        options={options}
        fields={turnstile}
      />
    </>
  );
}

/**
 * The system tab: addresses, payment (needs ServerAddress first), login and registration,
 * e-mail restrictions, SMTP and each sign-in provider with its switch, id and secret.
 */
export function SystemSections({ options }: SectionProps) {
  return (
    <Flex vertical gap={16}>
      <AddressesSection options={options} />
      <PaymentSection options={options} />
      <LoginSection options={options} />
      <EmailRestrictionSection options={options} />
      <SmtpSection options={options} />
      <SignInProviderSections options={options} />
    </Flex>
  );
}
