import { builder } from '../builder.ts';
import { changeUserRole, inviteUser, removeUser, renameSelf, revokeInvitation } from '../../src/accounts/users.ts';
import { accountIdOf, actorOf, directErrors, parseUuid, sessionOf, UserRoleEnum } from './common.ts';

export const User = builder.prismaObject('User', {
  description: 'A person who signs in to the web app. Removed users stay in history but cannot sign in.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    role: t.expose('role', { type: UserRoleEnum }),
    agent: t.relation('agent', {
      nullable: true,
      description: "Role AGENT: the agent of the team this user is; they see only that agent's calls.",
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    removedAt: t.expose('removedAt', { type: 'DateTime', nullable: true }),
  }),
});

export const Invitation = builder.prismaObject('Invitation', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    role: t.expose('role', { type: UserRoleEnum }),
    agent: t.relation('agent', { nullable: true, description: 'Role AGENT: the agent the invited user will be.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    acceptedAt: t.expose('acceptedAt', { type: 'DateTime', nullable: true }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    invitedBy: t.relation('invitedBy', { nullable: true }),
  }),
});

const InvitationPayload = builder
  .objectRef<{ invitation: { id: string }; link: string }>('InvitationPayload')
  .implement({
    fields: (t) => ({
      invitation: t.prismaField({
        type: 'Invitation',
        resolve: (query, p, _a, ctx) =>
          ctx.app.db.invitation.findUniqueOrThrow({ ...query, where: { id: p.invitation.id } }),
      }),
      link: t.exposeString('link', {
        description: 'One-time sign-up link; shown only in this response (and the server log). Valid 7 days.',
      }),
    }),
  });

builder.queryFields((t) => ({
  me: t.prismaField({
    type: 'User',
    authScopes: { signedIn: true },
    description: 'The signed-in user.',
    resolve: (query, _r, _a, ctx) =>
      ctx.app.db.user.findUniqueOrThrow({ ...query, where: { id: sessionOf(ctx).user.id } }),
  }),
  users: t.prismaField({
    type: ['User'],
    authScopes: { member: true },
    description: 'Current members of the account (every role can see the team).',
    resolve: (query, _r, _a, ctx) =>
      ctx.app.db.user.findMany({
        ...query,
        where: { accountId: accountIdOf(ctx), removedAt: null },
        orderBy: { createdAt: 'asc' },
      }),
  }),
  invitations: t.prismaField({
    type: ['Invitation'],
    authScopes: { admin: true },
    description: 'Pending invitations (not accepted, revoked or expired). Owners and admins.',
    resolve: (query, _r, _a, ctx) =>
      ctx.app.db.invitation.findMany({
        ...query,
        where: { accountId: accountIdOf(ctx), acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
        orderBy: { createdAt: 'desc' },
      }),
  }),
}));

builder.mutationFields((t) => ({
  updateMyProfile: t.prismaField({
    type: 'User',
    authScopes: { signedIn: true },
    errors: directErrors,
    description:
      'Changes the signed-in user’s own display name (any role), recorded in the audit log. Errors: `invalid_name`.',
    args: { name: t.arg.string({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const user = await renameSelf(ctx.app.db, actorOf(ctx), args.name);
      return ctx.app.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  inviteUser: t.field({
    type: InvitationPayload,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Invites someone by email. The returned link is the only way in: pass it on yourself (no email is sent). Owners and admins; only owners invite owners.',
    args: {
      email: t.arg.string({ required: true }),
      role: t.arg({ type: UserRoleEnum, required: true }),
      agentId: t.arg.id({ description: 'Required for role AGENT: the agent of the team the person is.' }),
    },
    resolve: async (_r, args, ctx) => {
      const { invitation, token } = await inviteUser(ctx.app.db, actorOf(ctx), {
        email: args.email,
        role: args.role,
        agentId: args.agentId == null ? null : parseUuid(args.agentId, 'Agent'),
      });
      const link = `${ctx.app.config.publicUrl}/invite/${token}`;
      // There is no mail service; the log is the fallback for an inviter who lost the link.
      ctx.app.log.info(
        { invitationId: invitation.id, email: invitation.email, role: invitation.role, link },
        'invitation created',
      );
      return { invitation, link };
    },
  }),
  revokeInvitation: t.prismaField({
    type: 'Invitation',
    authScopes: { admin: true },
    errors: directErrors,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const id = parseUuid(args.id, 'Invitation');
      await revokeInvitation(ctx.app.db, actorOf(ctx), id);
      return ctx.app.db.invitation.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  changeUserRole: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Owners and admins; only owners grant or take away the owner role; the last owner cannot be demoted. Role AGENT needs `agentId` (the agent of the team the user is). Errors: `agent_required`, `unknown_agent`, `last_owner`.',
    args: {
      userId: t.arg.id({ required: true }),
      role: t.arg({ type: UserRoleEnum, required: true }),
      agentId: t.arg.id({ description: 'Role AGENT: the agent of the team the user is.' }),
    },
    resolve: async (query, _r, args, ctx) => {
      const user = await changeUserRole(
        ctx.app.db,
        actorOf(ctx),
        parseUuid(args.userId, 'User'),
        args.role,
        args.agentId == null ? null : parseUuid(args.agentId, 'Agent'),
      );
      return ctx.app.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  removeUser: t.prismaField({
    type: 'User',
    authScopes: { admin: true },
    errors: directErrors,
    description: 'Ends every session of the user and revokes access. The last owner cannot be removed.',
    args: { userId: t.arg.id({ required: true }) },
    resolve: async (query, _r, args, ctx) => {
      const user = await removeUser(ctx.app.db, actorOf(ctx), parseUuid(args.userId, 'User'));
      return ctx.app.db.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
}));
