import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { randomAlphanumeric } from '../plugins/request-id.ts';

/** What a one-time code is for. */
export type VerificationPurpose = 'email_verification' | 'password_reset' | 'oauth_state';

/** Validity of e-mail codes, reset links and OAuth states, seconds. */
export const VERIFICATION_TTL_SECONDS: Record<VerificationPurpose, number> = {
  email_verification: 600,
  password_reset: 900,
  oauth_state: 600,
};

const digest = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * One-time codes stored (hashed) in the database, so any node can check a code another node
 * sent. A code is consumed by a successful check; sending a new one replaces older ones.
 */
export class VerificationService {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Issues a new code for the subject (an e-mail address, or a browser's OAuth nonce) and returns
   * it in clear for the mail or the reply.
   */
  async issue(purpose: VerificationPurpose, subject: string): Promise<string> {
    const code =
      purpose === 'email_verification'
        ? String(randomInt(0, 1_000_000)).padStart(6, '0')
        : randomAlphanumeric(32);
    const now = Math.floor(Date.now() / 1000);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('verifications')
        .where('purpose', '=', purpose)
        .where('subject', '=', subject)
        .execute();
      await trx.deleteFrom('verifications').where('expires_at', '<', now).execute();
      await trx
        .insertInto('verifications')
        .values({
          purpose,
          subject,
          code: digest(code),
          created_at: now,
          expires_at: now + VERIFICATION_TTL_SECONDS[purpose],
        })
        .execute();
    });
    return code;
  }

  /** True once for a valid, unexpired code; the code is deleted so it cannot be reused. */
  async consume(purpose: VerificationPurpose, subject: string, code: string): Promise<boolean> {
    if (code === '' || code.length > 128) return false;
    const now = Math.floor(Date.now() / 1000);
    const result = await this.db
      .deleteFrom('verifications')
      .where('purpose', '=', purpose)
      .where('subject', '=', subject)
      .where('code', '=', digest(code))
      .where('expires_at', '>=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
