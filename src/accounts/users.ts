import { createHash, randomBytes } from 'node:crypto';
import { type Db, type Tx, unlessTaken } from '../db/client.ts';
import type { UserRole } from '../generated/prisma/client.ts';
import { recordAudit } from './audit.ts';
import { DomainError, found, notFound } from '../domain/errors.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

export const ROLES = ['owner', 'admin', 'analyst', 'viewer', 'agent'] as const satisfies readonly UserRole[];
// `agent` is the lowest: a person of the team who sees only their own agent's calls (issue 10.4).
const RANK: Record<UserRole, number> = { agent: 0, viewer: 1, analyst: 2, admin: 3, owner: 4 };

/** Roles are ordered: each one can do everything the ones below it can. */
export function roleAtLeast(role: UserRole, min: UserRole): boolean {
  return RANK[role] >= RANK[min];
}

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function validatePassword(password: string): void {
  const length = Array.from(password).length;
  if (length < 10) throw new DomainError('weak_password', 'Passwords need at least 10 characters.');
  if (length > 200) throw new DomainError('weak_password', 'Passwords can have at most 200 characters.');
}

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  // Deliberately loose: the invitation link is the real proof that the address works.
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e) || e.length > 254)
    throw new DomainError('invalid_email', `"${email}" is not an email address.`);
  return e;
}

export interface Actor {
  id: string;
  accountId: string;
  role: UserRole;
}

function assertCanGrant(actor: Actor, role: UserRole) {
  if (!roleAtLeast(actor.role, 'admin')) throw new DomainError('forbidden', 'Only owners and admins manage users.');
  // Admins could otherwise promote themselves (or a friend) above their own level.
  if (role === 'owner' && actor.role !== 'owner')
    throw new DomainError('forbidden', 'Only an owner can make someone an owner.');
}

/**
 * The agent an `agent` user is linked to: required for that role (an unlinked agent user would see
 * nothing), one of the account's agents, and meaningless for every other role.
 */
async function linkedAgent(db: Db | Tx, accountId: string, role: UserRole, agentId: string | null | undefined) {
  // Checked for every role: an id of another account's agent is refused as not found, like an
  // unknown one, even where the role would drop it (issue 26: it used to pass silently).
  const agent = agentId ? await db.agent.findFirst({ where: { id: agentId, accountId }, select: { id: true } }) : null;
  if (agentId && !agent) throw notFound('Agent');
  if (role !== 'agent') return null;
  if (!agent) throw new DomainError('agent_required', 'Choose the agent this user is.');
  return agent.id;
}

/** Creates a one-time invitation; the raw token is returned once, only its hash is kept. */
export async function inviteUser(
  db: Db,
  actor: Actor,
  input: { email: string; role: UserRole; agentId?: string | null },
  now = new Date(),
) {
  assertCanGrant(actor, input.role);
  const agentId = await linkedAgent(db, actor.accountId, input.role, input.agentId);
  const email = normalizeEmail(input.email);
  const existing = await db.user.findUnique({ where: { email }, select: { accountId: true, removedAt: true } });
  if (existing && !(existing.accountId === actor.accountId && existing.removedAt)) {
    throw new DomainError('email_taken', `${email} already has an Escucha user.`);
  }
  const token = randomBytes(32).toString('base64url');
  const invitation = await db.$transaction(async (tx) => {
    // A new invitation for the same address replaces older pending ones, so only the latest link works.
    await tx.invitation.updateMany({
      where: { accountId: actor.accountId, email, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    const created = await tx.invitation.create({
      data: {
        accountId: actor.accountId,
        email,
        role: input.role,
        agentId,
        tokenHash: hashToken(token),
        invitedById: actor.id,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      },
    });
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'invitation.created',
      targetType: 'invitation',
      targetId: created.id,
      detail: { email, role: input.role },
    });
    return created;
  });
  return { invitation, token };
}

export async function revokeInvitation(db: Db, actor: Actor, id: string, now = new Date()) {
  assertCanGrant(actor, 'viewer');
  const inv = await found(db.invitation.findFirst({ where: { id, accountId: actor.accountId } }), 'Invitation');
  if (inv.acceptedAt) throw new DomainError('invitation_used', 'This invitation was already accepted.');
  if (inv.revokedAt) return inv;
  return db.$transaction(async (tx) => {
    const revoked = await tx.invitation.update({ where: { id }, data: { revokedAt: now } });
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'invitation.revoked',
      targetType: 'invitation',
      targetId: id,
      detail: { email: inv.email, role: inv.role },
    });
    return revoked;
  });
}

/** Turns a valid invitation into a user (or restores a removed user of the same account). */
export async function acceptInvitation(
  db: Db,
  input: { token: string; name: string; password: string },
  now = new Date(),
) {
  const name = input.name.trim();
  if (!name) throw new DomainError('invalid_name', 'Please tell us your name.');
  if (name.length > 200) throw new DomainError('invalid_name', 'Names can have at most 200 characters.');
  validatePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  return unlessTaken(
    () =>
      db.$transaction(async (tx) => {
        const inv = await tx.invitation.findUnique({ where: { tokenHash: hashToken(input.token) } });
        // One message for every unusable case: the link holder learns nothing about other invitations.
        if (!inv || inv.acceptedAt || inv.revokedAt || inv.expiresAt <= now) {
          throw new DomainError(
            'invalid_invitation',
            'This invitation link is invalid, expired or already used. Ask for a new one.',
          );
        }
        const claimed = await tx.invitation.updateMany({
          where: { id: inv.id, acceptedAt: null },
          data: { acceptedAt: now },
        });
        if (claimed.count === 0) throw new DomainError('invalid_invitation', 'This invitation link was already used.');
        const existing = await tx.user.findUnique({ where: { email: inv.email } });
        if (existing) {
          if (existing.accountId !== inv.accountId || !existing.removedAt)
            throw new DomainError('email_taken', `${inv.email} already has an Escucha user.`);
          return tx.user.update({
            where: { id: existing.id },
            data: { name, passwordHash, role: inv.role, agentId: inv.agentId, removedAt: null },
          });
        }
        return tx.user.create({
          data: {
            accountId: inv.accountId,
            email: inv.email,
            name,
            role: inv.role,
            agentId: inv.agentId,
            passwordHash,
          },
        });
      }),
    () => new DomainError('email_taken', 'That email address already has an Escucha user.'),
  );
}

/** Serialises owner-count checks per account so two concurrent demotions cannot remove both last owners. */
async function assertNotLastOwner(tx: Tx, accountId: string, userId: string) {
  await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
  const owners = await tx.user.count({ where: { accountId, role: 'owner', removedAt: null, id: { not: userId } } });
  if (owners === 0)
    throw new DomainError('last_owner', 'An account needs at least one owner; make someone else owner first.');
}

export async function changeUserRole(
  db: Db,
  actor: Actor,
  userId: string,
  role: UserRole,
  agentIdInput?: string | null,
) {
  assertCanGrant(actor, role);
  return db.$transaction(async (tx) => {
    const user = await found(
      tx.user.findFirst({ where: { id: userId, accountId: actor.accountId, removedAt: null } }),
      'User',
    );
    const agentId = await linkedAgent(
      tx,
      actor.accountId,
      role,
      agentIdInput ?? (role === 'agent' ? user.agentId : null),
    );
    if (user.role === role && user.agentId === agentId) return user;
    if (user.role === 'owner') {
      if (actor.role !== 'owner') throw new DomainError('forbidden', "Only an owner can change an owner's role.");
      await assertNotLastOwner(tx, actor.accountId, user.id);
    }
    // The role and its sessions' view of the calls change together: sessions re-read the user on each request.
    const updated = await tx.user.update({ where: { id: user.id }, data: { role, agentId } });
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'user.role_changed',
      targetType: 'user',
      targetId: user.id,
      detail: { email: user.email, from: user.role, to: role },
    });
    return updated;
  });
}

/** Removes a user from the account: the row stays for history, every session ends. */
export async function removeUser(db: Db, actor: Actor, userId: string, now = new Date()) {
  assertCanGrant(actor, 'viewer');
  return db.$transaction(async (tx) => {
    const user = await found(
      tx.user.findFirst({ where: { id: userId, accountId: actor.accountId, removedAt: null } }),
      'User',
    );
    if (user.role === 'owner') {
      if (actor.role !== 'owner') throw new DomainError('forbidden', 'Only an owner can remove an owner.');
      await assertNotLastOwner(tx, actor.accountId, user.id);
    }
    await tx.session.deleteMany({ where: { userId: user.id } });
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'user.removed',
      targetType: 'user',
      targetId: user.id,
      detail: { email: user.email, role: user.role },
    });
    return tx.user.update({ where: { id: user.id }, data: { removedAt: now } });
  });
}

/**
 * A signed-in user's own display name (every role; `account:create` names the first owner "Owner").
 * Recorded in the audit log with the old and new names: the name is how others see who did what.
 */
export async function renameSelf(db: Db, actor: Actor, rawName: string) {
  const name = rawName.trim();
  if (!name) throw new DomainError('invalid_name', 'Please tell us your name.');
  if (name.length > 200) throw new DomainError('invalid_name', 'Names can have at most 200 characters.');
  return db.$transaction(async (tx) => {
    const user = await found(
      tx.user.findFirst({ where: { id: actor.id, accountId: actor.accountId, removedAt: null } }),
      'User',
    );
    if (user.name === name) return user;
    await recordAudit(tx, {
      accountId: actor.accountId,
      actorUserId: actor.id,
      action: 'user.renamed',
      targetType: 'user',
      targetId: user.id,
      detail: { from: user.name, to: name },
    });
    return tx.user.update({ where: { id: user.id }, data: { name } });
  });
}

/** Changes a password after proving the current one; every other session of the user ends. */
export async function changePassword(
  db: Db,
  userId: string,
  keepSessionId: string | null,
  current: string,
  next: string,
) {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.removedAt) throw notFound('User');
  if (!(await verifyPassword(current, user.passwordHash)))
    throw new DomainError('invalid_credentials', 'The current password is not correct.');
  validatePassword(next);
  const passwordHash = await hashPassword(next);
  await db.$transaction([
    db.user.update({ where: { id: userId }, data: { passwordHash } }),
    db.session.deleteMany({ where: { userId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) } }),
  ]);
}
