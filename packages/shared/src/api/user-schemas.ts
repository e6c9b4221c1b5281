import { type Static, Type } from '@sinclair/typebox';
import { NullableText } from './nullable-text.ts';

/** POST /api/user/login */
export const LoginBody = Type.Object({
  username: Type.String({ maxLength: 255 }),
  password: Type.String({ maxLength: 255 }),
});
export type LoginBody = Static<typeof LoginBody>;

/**
 * POST /api/user/register. `username` and `password` are required; every field may be null,
 * read as '' (NullableText): the reference console sends `aff_code: null` when there is no
 * invite code. `password2`, when sent and not
 * null, must equal `password`.
 */
export const RegisterBody = Type.Object({
  username: Type.Union([Type.String({ maxLength: 255 }), Type.Null()]),
  password: Type.Union([Type.String({ maxLength: 255 }), Type.Null()]),
  password2: NullableText(255),
  email: NullableText(255),
  verification_code: NullableText(64),
  aff_code: NullableText(64),
});
export type RegisterBody = Static<typeof RegisterBody>;

/** POST /api/user/reset */
export const PasswordResetBody = Type.Object({
  email: Type.String({ maxLength: 255 }),
  token: Type.String({ maxLength: 255 }),
});

/** PUT /api/user/self */
export const SelfUpdateBody = Type.Object({
  username: Type.Optional(Type.String({ maxLength: 255 })),
  display_name: Type.Optional(Type.String({ maxLength: 255 })),
  password: Type.Optional(Type.String({ maxLength: 255 })),
  original_password: Type.Optional(Type.String({ maxLength: 255 })),
});

/** POST /api/user/ (admin) */
export const UserCreateBody = Type.Object({
  username: Type.String({ maxLength: 255 }),
  password: Type.String({ maxLength: 255 }),
  display_name: Type.Optional(Type.String({ maxLength: 255 })),
  role: Type.Optional(Type.Integer()),
});

/** PUT /api/user/ (admin) */
export const UserUpdateBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  username: Type.Optional(Type.String({ maxLength: 255 })),
  display_name: Type.Optional(Type.String({ maxLength: 255 })),
  password: Type.Optional(Type.String({ maxLength: 255 })),
  email: Type.Optional(Type.String({ maxLength: 255 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
  quota: Type.Optional(Type.Integer({ minimum: -1e15, maximum: 1e15 })),
  role: Type.Optional(Type.Integer()),
});

/** POST /api/user/manage */
export const UserManageBody = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  action: Type.Union([
    Type.Literal('promote'),
    Type.Literal('demote'),
    Type.Literal('disable'),
    Type.Literal('enable'),
    Type.Literal('delete'),
  ]),
});
export type UserManageAction = Static<typeof UserManageBody>['action'];

/** POST /api/user/aff_transfer */
export const AffTransferBody = Type.Object({ quota: Type.Integer({ minimum: 0, maximum: 1e15 }) });

/** PUT /api/user/setting */
export const UserSettingBody = Type.Object({
  notify_type: Type.Union([Type.Literal('email'), Type.Literal('webhook')]),
  quota_warning_threshold: Type.Number({ minimum: 0 }),
  webhook_url: Type.Optional(Type.String({ maxLength: 2048 })),
  webhook_secret: Type.Optional(Type.String({ maxLength: 512 })),
  notification_email: Type.Optional(Type.String({ maxLength: 255 })),
  accept_unset_model_ratio_model: Type.Optional(Type.Boolean()),
});
export type UserSettingBody = Static<typeof UserSettingBody>;

/** A user as the console sees it (never the password or access token). */
export interface UserView {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  setting: string;
  created_time: number;
  deleted_at: number | null;
  DeletedAt: string | null;
}
