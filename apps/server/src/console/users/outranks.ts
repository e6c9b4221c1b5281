import { Role } from '@switchyard/shared';

/** True when the actor may act on a user of the target's role (root may act on anyone, admins only below them). */
export const outranks = (actorRole: number, targetRole: number): boolean =>
  actorRole > targetRole || actorRole >= Role.Root;
