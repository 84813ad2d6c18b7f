import { builder } from '../builder.ts';
import type { CallUpdate } from '../../src/lifecycle/updates.ts';
import { callScope } from '../../src/auth/call-scope.ts';
import { blindCallsWhere } from '../../src/calibration/read.ts';
import { accountIdOf, callViewerOf, uuidOrNull } from './common.ts';

builder.subscriptionField('callUpdated', (t) =>
  t.prismaField({
    type: 'Call',
    nullable: true,
    authScopes: { member: true },
    description:
      'A call of your account was created or changed status, score or analysis revision (server-sent events). Pass `id` to follow one call.',
    args: { id: t.arg.id() },
    subscribe: (_r, args, ctx) => {
      const only = args.id == null ? null : (uuidOrNull(args.id) ?? 'none');
      const updates = untilSessionEnds(ctx.callUpdates.subscribe(accountIdOf(ctx)), ctx);
      if (!only) return updates;
      return filter(updates, (u) => u.id === only);
    },
    // The notification carries only ids; the row is re-read so the client sees committed, current state.
    resolve: (query, update: CallUpdate, _a, ctx) =>
      ctx.app.db.call.findFirst({
        ...query,
        where: { id: update.id, ...callScope(callViewerOf(ctx)), ...blindCallsWhere(callViewerOf(ctx).id) },
      }),
  }),
);

/**
 * A stream outlives the request that opened it: before each update the session is checked again,
 * so a removed user, a signed-out session or an expired one stops receiving the account's calls.
 */
function untilSessionEnds<T>(
  source: AsyncIterableIterator<T>,
  ctx: { app: { db: { session: { count(args: object): Promise<number> } } }; session: { id: string } | null },
): AsyncIterableIterator<T> {
  const sessionId = ctx.session?.id;
  const alive = async () =>
    !!sessionId &&
    (await ctx.app.db.session.count({
      where: { id: sessionId, expiresAt: { gt: new Date() }, user: { removedAt: null } },
    })) > 0;
  return {
    async next() {
      const r = await source.next();
      if (r.done) return r;
      if (await alive()) return r;
      await source.return?.();
      return { value: undefined, done: true };
    },
    return: () => source.return?.() ?? Promise.resolve({ value: undefined, done: true }),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function filter<T>(source: AsyncIterableIterator<T>, keep: (v: T) => boolean): AsyncIterableIterator<T> {
  return {
    async next() {
      for (;;) {
        const r = await source.next();
        if (r.done || keep(r.value)) return r;
      }
    },
    return: () => source.return?.() ?? Promise.resolve({ value: undefined, done: true }),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
