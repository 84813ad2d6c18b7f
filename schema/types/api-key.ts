import { z } from 'zod';
import { builder } from '../builder.ts';
import { createApiKey, revokeApiKey } from '../../src/accounts/api-keys.ts';
import { accountIdOf, directErrors, parseUuid, sessionOf } from './common.ts';
import { parseInput } from './errors.ts';

export const ApiKey = builder.prismaObject('ApiKey', {
  description: 'A key for `POST /v1/calls`. Only its prefix is ever shown again after creation. Owners and admins.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    prefix: t.exposeString('prefix', { description: 'First characters of the key, to tell keys apart.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    lastUsedAt: t.expose('lastUsedAt', { type: 'DateTime', nullable: true, description: 'Minute precision.' }),
    revokedAt: t.expose('revokedAt', { type: 'DateTime', nullable: true }),
    revoked: t.boolean({ resolve: (k) => !!k.revokedAt }),
  }),
});

const CreatedApiKey = builder.objectRef<{ apiKey: { id: string }; key: string }>('CreatedApiKey').implement({
  fields: (t) => ({
    apiKey: t.prismaField({
      type: 'ApiKey',
      resolve: (query, p, _a, ctx) => ctx.app.db.apiKey.findUniqueOrThrow({ ...query, where: { id: p.apiKey.id } }),
    }),
    key: t.exposeString('key', { description: 'The full key. Shown only in this response: store it now.' }),
  }),
});

builder.queryField('apiKeys', (t) =>
  t.prismaField({
    type: ['ApiKey'],
    authScopes: { admin: true },
    args: { includeRevoked: t.arg.boolean({ defaultValue: true }) },
    resolve: (query, _r, args, ctx) =>
      ctx.app.db.apiKey.findMany({
        ...query,
        where: { accountId: accountIdOf(ctx), ...(args.includeRevoked ? {} : { revokedAt: null }) },
        orderBy: { createdAt: 'desc' },
      }),
  }),
);

builder.mutationFields((t) => ({
  createApiKey: t.field({
    type: CreatedApiKey,
    authScopes: { admin: true },
    errors: directErrors,
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => {
      const name = parseInput(
        z
          .string()
          .trim()
          .min(1, 'Give the key a name, e.g. the system that uses it.')
          .max(100, 'Names can have at most 100 characters.'),
        args.name,
      );
      return createApiKey(ctx.app.db, accountIdOf(ctx), name, { userId: sessionOf(ctx).user.id });
    },
  }),
  revokeApiKey: t.field({
    type: ApiKey,
    authScopes: { admin: true },
    errors: directErrors,
    description: 'Takes effect on the next request that uses the key.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      revokeApiKey(ctx.app.db, accountIdOf(ctx), parseUuid(args.id, 'API key'), ctx.app.apiKeys, {
        userId: sessionOf(ctx).user.id,
      }),
  }),
}));
