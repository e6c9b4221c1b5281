import { Flex } from 'antd';
import { BalanceCard } from '../components/balance-card';
import { OnlineTopUpCard } from '../components/online-top-up-card';
import { RedeemCard } from '../components/redeem-card';

/** /topup — balance, redeem a code, online top-up. */
export function WalletPage() {
  return (
    <Flex vertical gap={16} style={{ maxWidth: 900 }}>
      <BalanceCard />
      <RedeemCard />
      <OnlineTopUpCard />
    </Flex>
  );
}
