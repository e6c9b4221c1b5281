import { ErrorCode } from '@switchyard/shared';
import nodemailer from 'nodemailer';
import { GatewayError } from '../errors/gateway-error.ts';
import type { OptionStore } from '../options/option-store.ts';

/** Sends mail through the SMTP options (SMTPServer, SMTPPort, SMTPAccount, SMTPFrom, SMTPToken, SMTPSSLEnabled). */
export interface Mailer {
  send(to: string, subject: string, html: string): Promise<void>;
}

/** Builds a mailer that reads the SMTP options at send time, so option changes apply at once. */
export function createSmtpMailer(options: OptionStore): Mailer {
  return {
    async send(to, subject, html) {
      const host = options.get('SMTPServer').trim();
      if (host === '') {
        throw new GatewayError(ErrorCode.MailFailed, 'SMTP 服务器未配置，请联系管理员', { status: 400 });
      }
      const port = options.getNumber('SMTPPort') || 587;
      const account = options.get('SMTPAccount');
      const secure = options.getBoolean('SMTPSSLEnabled') || port === 465;
      const transport = nodemailer.createTransport({
        host,
        port,
        secure,
        auth: account ? { user: account, pass: options.get('SMTPToken') } : undefined,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
      try {
        await transport.sendMail({
          from: `${options.get('SystemName')} <${options.get('SMTPFrom') || account}>`,
          to,
          subject,
          html,
        });
      } catch (error) {
        throw new GatewayError(ErrorCode.MailFailed, '邮件发送失败，请检查 SMTP 配置或稍后重试', {
          status: 500,
          cause: error,
        });
      } finally {
        transport.close();
      }
    },
  };
}
