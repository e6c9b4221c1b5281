import { App } from 'antd';
import { useEffect } from 'react';
import { setNotifier } from '../lib/notify';

/** Routes `notify.*` (used by the api-client and features) to antd's themed App message API. */
export function NotifierBridge() {
  const { message } = App.useApp();
  useEffect(
    () =>
      setNotifier({
        success: (content) => void message.success(content),
        error: (content) => void message.error(content),
        info: (content) => void message.info(content),
        warning: (content) => void message.warning(content),
      }),
    [message],
  );
  return null;
}
