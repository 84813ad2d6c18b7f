import { z } from 'zod';
import { builder } from '../builder.ts';
import {
  clearSessionCookie,
  createSession,
  destroySession,
  sessionCookie,
  type AuthSession,
} from '../../src/auth/session.ts';
import { signIn } from '../../src/auth/sign-in.ts';
import { acceptInvitation, changePassword } from '../../src/accounts/users.ts';
import { directErrors, sessionOf, wrappedErrors } from './common.ts';
import { parseInput } from './errors.ts';

export const Session = builder.objectRef<AuthSession>('Session').implement({
  description: [
    'The signed-in browser session. The session token itself lives only in the HttpOnly cookie `escucha_session`.',
    'Every GraphQL request must carry the header `x-escucha-csrf`; for mutations of a signed-in session its value must be `csrfToken`.',
  ].join(' '),
  fields: (t) => ({
    user: t.prismaField({
      type: 'User',
      resolve: (query, s, _a, ctx) => ctx.app.db.user.findUniqueOrThrow({ ...query, where: { id: s.user.id } }),
    }),
    csrfToken: t.exposeString('csrfToken', { description: 'Send as `x-escucha-csrf` with every mutation.' }),
    timeZone: t.string({
      description: "The account's time zone, for every role (agent users included): every time the app shows is in it.",
      resolve: async (s, _a, ctx) =>
        (
          await ctx.app.db.account.findUniqueOrThrow({
            where: { id: s.user.accountId },
            select: { timeZone: true },
          })
        ).timeZone,
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      description: 'Slides forward (14 days) while the session is used.',
    }),
  }),
});

const Credentials = z.object({
  email: z.string().max(254),
  password: z.string().max(1000),
});

builder.queryField('session', (t) =>
  t.field({
    type: Session,
    nullable: true,
    description: 'The current session, or null when signed out. Public.',
    resolve: (_r, _a, ctx) => ctx.session,
  }),
);

builder.mutationFields((t) => ({
  signIn: t.field({
    type: Session,
    errors: directErrors,
    description:
      'Email + password sign-in; sets the session cookie. Failures: `invalid_credentials`, `rate_limited` (5 failures per email and IP per 15 minutes). Public.',
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const input = parseInput(Credentials, args);
      const { token, session } = await signIn(ctx.app, { ...input, ip: ctx.ip });
      ctx.setCookie(sessionCookie(ctx.app, token, session.expiresAt));
      // The old session (if any) of this browser is replaced, never left dangling.
      if (ctx.session) await destroySession(ctx.app.db, ctx.session.id);
      ctx.session = session;
      return session;
    },
  }),
  signOut: t.boolean({
    description: 'Ends the current session and clears the cookie. Public (a no-op when signed out).',
    resolve: async (_r, _a, ctx) => {
      if (ctx.session) await destroySession(ctx.app.db, ctx.session.id);
      ctx.setCookie(clearSessionCookie(ctx.app));
      ctx.session = null;
      return true;
    },
  }),
  changePassword: t.boolean({
    authScopes: { signedIn: true },
    errors: wrappedErrors,
    description: 'Needs the current password; signs out every other session of the user.',
    args: { currentPassword: t.arg.string({ required: true }), newPassword: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      await changePassword(
        ctx.app.db,
        sessionOf(ctx).user.id,
        sessionOf(ctx).id,
        args.currentPassword,
        args.newPassword,
      );
      return true;
    },
  }),
  acceptInvitation: t.field({
    type: Session,
    errors: directErrors,
    description: 'Creates the invited user from the token of an invitation link and signs them in. Public.',
    args: {
      token: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_r, args, ctx) => {
      const user = await acceptInvitation(ctx.app.db, args);
      const { token, session } = await createSession(ctx.app.db, user.id);
      ctx.setCookie(sessionCookie(ctx.app, token, session.expiresAt));
      if (ctx.session) await destroySession(ctx.app.db, ctx.session.id);
      ctx.session = session;
      return session;
    },
  }),
}));
