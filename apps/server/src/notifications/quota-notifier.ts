import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import { deliverWebhook } from './webhook-delivery.ts';

/** At most one low-quota notice per user in this window (seconds). */
export const QUOTA_NOTICE_INTERVAL_SECONDS = 2 * 60 * 60;

interface UserNoticeSetting {
  notify_type?: string;
  quota_warning_threshold?: number;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
}

function parseSetting(text: string | null): UserNoticeSetting {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null ? (value as UserNoticeSetting) : {};
  } catch {
    return {};
  }
}

/** What the notifier last read about a user: balance (lowered by later charges) and own threshold. */
interface KnownBalance {
  quota: number;
  /** The user's own `quota_warning_threshold`, or null to use the QuotaRemindThreshold option. */
  ownThreshold: number | null;
  readAt: number;
}

/**
 * Warns a user whose balance fell below their threshold (their own `quota_warning_threshold`, or
 * the QuotaRemindThreshold option) by e-mail or https webhook, at most once every 2 hours per
 * user — across nodes when Redis is configured (the throttle uses the shared rate limiter).
 * Runs after settlement, never on the response path; failures are logged, not thrown.
 *
 * The user row is not read on every charge: the last balance read is kept for `maxAgeMs` and
 * lowered by each charge seen here, and the row is read again only when that estimate falls
 * below the threshold, the entry is older than `maxAgeMs`, or the user changed (`forget`, from
 * the change bus). Charges made on other nodes are noticed within `maxAgeMs` at the latest.
 */
export class QuotaNotifier {
  private readonly known = new Map<number, KnownBalance>();

  constructor(
    private readonly services: Pick<AppServices, 'users' | 'options' | 'mailer' | 'rateLimiter'>,
    private readonly log: FastifyBaseLogger,
    private readonly maxAgeMs = 10_000,
    private readonly maxEntries = 100_000,
  ) {}

  /** Drops what is known about a user (their balance or settings changed). */
  forget(userId: number): void {
    this.known.delete(userId);
  }

  /**
   * Checks the balance after a charge. Answers undefined when the kept estimate settles it (the
   * relay's common case, with no promise), else a promise of the read and the notice.
   */
  afterCharge(userId: number, charged: number): Promise<void> | undefined {
    if (charged <= 0) return undefined;
    const now = Date.now();
    const known = this.known.get(userId);
    if (known && now - known.readAt < this.maxAgeMs) {
      known.quota -= charged;
      const threshold = known.ownThreshold ?? this.services.options.getNumber('QuotaRemindThreshold');
      if (threshold <= 0 || known.quota >= threshold) return undefined;
    }
    return this.readAndNotify(userId, now);
  }

  private async readAndNotify(userId: number, now: number): Promise<void> {
    const user = await this.services.users.findById(userId);
    if (!user) {
      this.known.delete(userId);
      return;
    }
    const setting = parseSetting(user.setting);
    const ownThreshold =
      typeof setting.quota_warning_threshold === 'number' && setting.quota_warning_threshold > 0
        ? setting.quota_warning_threshold
        : null;
    if (this.known.size >= this.maxEntries) this.known.clear();
    this.known.set(userId, { quota: user.quota, ownThreshold, readAt: now });
    const threshold = ownThreshold ?? this.services.options.getNumber('QuotaRemindThreshold');
    // The balance read here may already exclude other calls' reservations; the throttle below
    // keeps it to one notice per window either way.
    if (threshold <= 0 || user.quota >= threshold) return;
    const allowed = await this.services.rateLimiter.hit(
      `notify:quota_exceed:${userId}`,
      1,
      QUOTA_NOTICE_INTERVAL_SECONDS,
    );
    if (!allowed) return;
    const { options } = this.services;
    const perUnit = options.getNumber('QuotaPerUnit') || 500_000;
    const remaining = options.getBoolean('DisplayInCurrencyEnabled')
      ? `$${(user.quota / perUnit).toFixed(2)}`
      : String(user.quota);
    const topUpLink = `${options.get('ServerAddress')}/topup`;
    const title = '您的额度即将用尽';
    const content = `您的额度即将用尽，当前剩余额度为 ${remaining}，请及时充值：${topUpLink}`;
    try {
      if (setting.notify_type === 'webhook' && setting.webhook_url) {
        await deliverWebhook(setting.webhook_url, setting.webhook_secret ?? '', {
          type: 'quota_exceed',
          title,
          content,
          values: [remaining, topUpLink],
          timestamp: Math.floor(Date.now() / 1000),
        });
      } else {
        const to = setting.notification_email || user.email;
        if (!to) return;
        await this.services.mailer.send(to, title, `<p>${content}</p>`);
      }
    } catch (error) {
      this.log.warn({ err: error, userId }, 'low-quota notification failed');
    }
  }
}
