import { AlipayCircleOutlined, WechatOutlined } from '@ant-design/icons';
import type { PaymentMethod } from '@switchyard/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, InputNumber, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useQuotaDisplay } from '../../../lib/quota';
import { useSiteStatus } from '../../../lib/site-status';
import { createPayment } from '../api/create-payment';
import { getPayable } from '../api/get-payable';
import { walletKeys } from '../api/wallet-keys';
import { PayConfirmModal } from './pay-confirm-modal';
import { submitPaymentForm } from './submit-payment-form';
import { checkTopUpAmount, minimumAmount, type TopUpProblem, type TopUpSettings } from './top-up-rules';

const METHODS: { key: PaymentMethod; icon: ReactNode; labelKey: string }[] = [
  { key: 'zfb', icon: <AlipayCircleOutlined />, labelKey: 'topUp.alipay' },
  { key: 'wx', icon: <WechatOutlined />, labelKey: 'topUp.wechat' },
];

/** Online top-up: amount, the payable sum, a payment method, a confirmation, then the payment page. */
export function OnlineTopUpCard() {
  const { t } = useTranslation('wallet');
  const status = useSiteStatus();
  const display = useQuotaDisplay();
  const settings: TopUpSettings = {
    onlineEnabled: status.enable_online_topup === true,
    minTopUp: Number(status.min_topup) > 0 ? Number(status.min_topup) : 1,
    displayInCurrency: display.displayInCurrency,
    quotaPerUnit: display.quotaPerUnit,
  };
  const [amount, setAmount] = useState<number | null>(() => minimumAmount(settings));
  const [pending, setPending] = useState<{ method: PaymentMethod; payable: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const problem = checkTopUpAmount(amount, settings);
  const describe = (found: TopUpProblem) => t(found.key, found);

  const payable = useQuery({
    queryKey: [...walletKeys.all, 'payable', amount],
    queryFn: () => getPayable(amount ?? 0),
    enabled: problem === null,
    meta: { silentError: true },
    staleTime: 60_000,
  });

  const start = async (method: PaymentMethod) => {
    if (problem) {
      notify.error(describe(problem));
      return;
    }
    setBusy(true);
    try {
      const sum = await getPayable(amount ?? 0);
      setPending({ method, payable: sum });
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const confirm = async () => {
    if (!pending || amount === null) return;
    setBusy(true);
    try {
      const order = await createPayment(amount, pending.method);
      submitPaymentForm(order.url, { ...order.form });
      setPending(null);
    } catch (error) {
      showApiError(error);
    } finally {
      setBusy(false);
    }
  };

  const methodLabel = pending ? t(METHODS.find((m) => m.key === pending.method)?.labelKey ?? '') : '';
  return (
    <Card title={t('topUp.title')}>
      {!settings.onlineEnabled ? (
        <Alert type="info" showIcon title={t('topUp.notEnabled')} style={{ marginBottom: 12 }} />
      ) : null}
      <Flex vertical gap={12}>
        <Flex gap={8} wrap align="center">
          <InputNumber
            aria-label={t('topUp.amount')}
            placeholder={t('topUp.amount')}
            min={1}
            step={settings.displayInCurrency ? 1 : settings.quotaPerUnit}
            value={amount}
            onChange={(value) => setAmount(typeof value === 'number' ? value : null)}
            prefix={settings.displayInCurrency ? '$' : undefined}
            style={{ width: 220 }}
            disabled={!settings.onlineEnabled}
          />
          <Typography.Text type="secondary" data-testid="payable">
            {problem
              ? problem.key === 'topUp.notEnabled'
                ? ''
                : describe(problem)
              : payable.isFetching
                ? t('topUp.calculating')
                : payable.data !== undefined
                  ? t('topUp.payable', { money: payable.data })
                  : payable.error
                    ? payable.error.message
                    : ''}
          </Typography.Text>
        </Flex>
        <Flex gap={8} wrap>
          {METHODS.map((method) => (
            <Button
              key={method.key}
              icon={method.icon}
              loading={busy && pending === null}
              disabled={!settings.onlineEnabled}
              onClick={() => void start(method.key)}
            >
              {t(method.labelKey)}
            </Button>
          ))}
        </Flex>
      </Flex>
      <PayConfirmModal
        open={pending !== null}
        amount={settings.displayInCurrency ? `$${amount ?? 0}` : String(amount ?? 0)}
        payable={pending ? t('topUp.money', { money: pending.payable }) : ''}
        methodLabel={methodLabel}
        loading={busy}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
