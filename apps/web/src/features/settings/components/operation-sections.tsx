import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../api/get-options';
import { ClearLogs } from './clear-logs';
import { ModelRatioEditor } from './model-ratio-editor';
import type { OptionFieldSpec } from './option-fields';
import { OptionSection } from './option-section';

/**
 * The operation tab: general, chat clients, drawing, sensitive words, logs (with clear logs),
 * dashboard, monitoring, quota, groups and the model ratio editor.
 */
export function OperationSections({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');

  const general: OptionFieldSpec[] = [
    {
      key: 'TopUpLink',
      kind: 'text',
      label: t('operation.general.topUpLink'),
      help: t('operation.general.topUpLinkHelp'),
      placeholder: 'https://',
    },
    {
      key: 'ChatLink',
      kind: 'text',
      label: t('operation.general.chatLink'),
      help: t('operation.general.chatLinkHelp'),
      placeholder: 'https://',
    },
    { key: 'ChatLink2', kind: 'text', label: t('operation.general.chatLink2'), placeholder: 'https://' },
    {
      key: 'QuotaPerUnit',
      kind: 'number',
      label: t('operation.general.quotaPerUnit'),
      help: t('operation.general.quotaPerUnitHelp'),
      min: 1,
    },
    {
      key: 'RetryTimes',
      kind: 'number',
      label: t('operation.general.retryTimes'),
      help: t('operation.general.retryTimesHelp'),
      min: 0,
      max: 10,
      precision: 0,
    },
    { key: 'DisplayInCurrencyEnabled', kind: 'switch', label: t('operation.general.displayInCurrency') },
    {
      key: 'DisplayTokenStatEnabled',
      kind: 'switch',
      label: t('operation.general.displayTokenStat'),
      help: t('operation.general.displayTokenStatHelp'),
    },
    { key: 'DefaultCollapseSidebar', kind: 'switch', label: t('operation.general.defaultCollapseSidebar') },
    {
      key: 'DemoSiteEnabled',
      kind: 'switch',
      label: t('operation.general.demoSite'),
      help: t('operation.general.demoSiteHelp'),
    },
    {
      key: 'SelfUseModeEnabled',
      kind: 'switch',
      label: t('operation.general.selfUseMode'),
      help: t('operation.general.selfUseModeHelp'),
    },
  ];

  const chats: OptionFieldSpec[] = [
    {
      key: 'Chats',
      kind: 'json',
      label: t('operation.chats.chats'),
      help: t('operation.chats.chatsHelp'),
      rows: 10,
      placeholder: '[{"ChatGPT Next Web": "https://app.nextchat.dev/#/?settings={...}"}]',
    },
  ];

  const drawing: OptionFieldSpec[] = [
    { key: 'DrawingEnabled', kind: 'switch', label: t('operation.drawing.enabled') },
    {
      key: 'MjNotifyEnabled',
      kind: 'switch',
      label: t('operation.drawing.notify'),
      help: t('operation.drawing.notifyHelp'),
    },
    {
      key: 'MjAccountFilterEnabled',
      kind: 'switch',
      label: t('operation.drawing.accountFilter'),
      help: t('operation.drawing.accountFilterHelp'),
    },
    {
      key: 'MjForwardUrlEnabled',
      kind: 'switch',
      label: t('operation.drawing.forwardUrl'),
      help: t('operation.drawing.forwardUrlHelp'),
    },
    {
      key: 'MjModeClearEnabled',
      kind: 'switch',
      label: t('operation.drawing.modeClear'),
      help: t('operation.drawing.modeClearHelp'),
    },
    {
      key: 'MjActionCheckSuccessEnabled',
      kind: 'switch',
      label: t('operation.drawing.actionCheckSuccess'),
      help: t('operation.drawing.actionCheckSuccessHelp'),
    },
  ];

  const sensitive: OptionFieldSpec[] = [
    { key: 'CheckSensitiveEnabled', kind: 'switch', label: t('operation.sensitive.enabled'), width: 'half' },
    {
      key: 'CheckSensitiveOnPromptEnabled',
      kind: 'switch',
      label: t('operation.sensitive.onPrompt'),
      width: 'half',
    },
    {
      key: 'SensitiveWords',
      kind: 'textarea',
      label: t('operation.sensitive.words'),
      help: t('operation.sensitive.wordsHelp'),
      rows: 6,
    },
  ];

  const logs: OptionFieldSpec[] = [
    {
      key: 'LogConsumeEnabled',
      kind: 'switch',
      label: t('operation.logs.consume'),
      help: t('operation.logs.consumeHelp'),
      width: 'full',
    },
    ...(
      [
        ['LogConsumeRetentionDays', 'retentionConsume'],
        ['LogErrorRetentionDays', 'retentionError'],
        ['LogDetailRetentionDays', 'retentionDetail'],
      ] as const
    ).map(
      ([key, text]): OptionFieldSpec => ({
        key,
        kind: 'number',
        label: t(`operation.logs.${text}`),
        help: t(`operation.logs.${text}Help`),
        min: 0,
        max: 3650,
        precision: 0,
        width: 'third',
      }),
    ),
  ];

  const dashboard: OptionFieldSpec[] = [
    { key: 'DataExportEnabled', kind: 'switch', label: t('operation.dashboard.enabled') },
    {
      key: 'DataExportInterval',
      kind: 'number',
      label: t('operation.dashboard.interval'),
      help: t('operation.dashboard.intervalHelp'),
      min: 1,
      precision: 0,
    },
    {
      key: 'DataExportDefaultTime',
      kind: 'select',
      label: t('operation.dashboard.defaultTime'),
      help: t('operation.dashboard.defaultTimeHelp'),
      choices: [
        { value: 'hour', label: t('operation.dashboard.hour') },
        { value: 'day', label: t('operation.dashboard.day') },
        { value: 'week', label: t('operation.dashboard.week') },
      ],
    },
  ];

  const monitoring: OptionFieldSpec[] = [
    {
      key: 'ChannelDisableThreshold',
      kind: 'number',
      label: t('operation.monitoring.disableThreshold'),
      help: t('operation.monitoring.disableThresholdHelp'),
      min: 0,
      width: 'half',
    },
    {
      key: 'QuotaRemindThreshold',
      kind: 'number',
      label: t('operation.monitoring.quotaRemindThreshold'),
      help: t('operation.monitoring.quotaRemindThresholdHelp'),
      min: 0,
      precision: 0,
      quota: true,
      width: 'half',
    },
    {
      key: 'AutomaticDisableChannelEnabled',
      kind: 'switch',
      label: t('operation.monitoring.autoDisable'),
      width: 'half',
    },
    {
      key: 'AutomaticEnableChannelEnabled',
      kind: 'switch',
      label: t('operation.monitoring.autoEnable'),
      width: 'half',
    },
    {
      key: 'AutomaticDisableKeywords',
      kind: 'textarea',
      label: t('operation.monitoring.keywords'),
      help: t('operation.monitoring.keywordsHelp'),
      rows: 6,
    },
  ];

  const quotaField = (key: string, name: string): OptionFieldSpec => ({
    key,
    kind: 'number',
    label: t(`operation.quota.${name}`),
    help: t(`operation.quota.${name}Help`),
    min: 0,
    precision: 0,
    quota: true,
    width: 'half',
  });
  const quota: OptionFieldSpec[] = [
    quotaField('QuotaForNewUser', 'newUser'),
    quotaField('PreConsumedQuota', 'preConsumed'),
    quotaField('QuotaForInviter', 'inviter'),
    quotaField('QuotaForInvitee', 'invitee'),
  ];

  const groups: OptionFieldSpec[] = [
    {
      key: 'GroupRatio',
      kind: 'json',
      label: t('operation.groups.groupRatio'),
      help: t('operation.groups.groupRatioHelp'),
      placeholder: '{"default": 1, "vip": 1}',
      rows: 6,
    },
    {
      key: 'UserUsableGroups',
      kind: 'json',
      label: t('operation.groups.userUsableGroups'),
      help: t('operation.groups.userUsableGroupsHelp'),
      placeholder: '{"default": "默认分组", "vip": "vip分组"}',
      rows: 6,
    },
  ];

  return (
    <Flex vertical gap={16}>
      <OptionSection id="general" title={t('operation.general.title')} options={options} fields={general} />
      <OptionSection id="chats" title={t('operation.chats.title')} options={options} fields={chats} />
      <OptionSection id="drawing" title={t('operation.drawing.title')} options={options} fields={drawing} />
      <OptionSection
        id="sensitive"
        title={t('operation.sensitive.title')}
        options={options}
        fields={sensitive}
      />
      <OptionSection id="logs" title={t('operation.logs.title')} options={options} fields={logs}>
        <ClearLogs />
      </OptionSection>
      <OptionSection
        id="dashboard"
        title={t('operation.dashboard.title')}
        options={options}
        fields={dashboard}
      />
      <OptionSection
        id="monitoring"
        title={t('operation.monitoring.title')}
        options={options}
        fields={monitoring}
      />
      <OptionSection id="quota" title={t('operation.quota.title')} options={options} fields={quota} />
      <OptionSection
        id="groups"
        title={t('operation.groups.title')}
        description={t('operation.groups.description')}
        options={options}
        fields={groups}
      />
      <ModelRatioEditor options={options} />
    </Flex>
  );
}
