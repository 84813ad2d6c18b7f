import { builder } from '../builder.ts';
import type { CallUpdate } from '../../src/graphql/subscriptions.ts';
import { accountIdOf, uuidOrNull } from './common.ts';

builder.subscriptionField('callUpdated', (t) =>
  t.prismaField({
    type: 'Call',
    nullable: true,
    authScopes: { member: true },
    description: 'A call of your account was created or changed status, score or analysis revision (server-sent events). Pass `id` to follow one call.',
    args: { id: t.arg.id() },
    subscribe: (_r, args, ctx) => {
      const only = args.id == null ? null : uuidOrNull(args.id) ?? 'none';
      const updates = ctx.callUpdates.subscribe(accountIdOf(ctx));
      if (!only) return updates;
      return filter(updates, (u) => u.id === only);
    },
    // The notification carries only ids; the row is re-read so the client sees committed, current state.
    resolve: (query, update: CallUpdate, _a, ctx) => ctx.app.db.call.findFirst({ ...query, where: { id: update.id, accountId: accountIdOf(ctx) } }),
  }),
);

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
