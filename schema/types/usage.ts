import { builder } from '../builder.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { periodOf } from '../../src/domain/period.ts';
import { usageTotals } from '../../src/accounts/usage.ts';
import { accountIdOf, wrappedErrors } from './common.ts';

interface UsageShape {
  period: string;
  current: boolean;
  calls: number;
  minutesUsed: number;
  minutesReserved: number;
  planMinutes: number;
  storageBytes: bigint;
  storageFreedBytes: bigint;
}

const Usage = builder.objectRef<UsageShape>('Usage').implement({
  description:
    'Usage of one period (calendar month in the account time zone). Past periods use the current plan for `minutesAvailable`.',
  fields: (t) => ({
    period: t.exposeString('period', { description: 'YYYY-MM.' }),
    current: t.exposeBoolean('current'),
    calls: t.exposeInt('calls', { description: 'Calls accepted in the period.' }),
    minutesUsed: t.exposeInt('minutesUsed', {
      description: 'Billed minutes of transcribed calls (real duration, rounded up per call).',
    }),
    minutesReserved: t.exposeInt('minutesReserved', {
      description: 'Held for calls still in progress (one per MB until transcribed).',
    }),
    planMinutes: t.exposeInt('planMinutes'),
    minutesAvailable: t.int({ resolve: (u) => Math.max(0, u.planMinutes - u.minutesUsed - u.minutesReserved) }),
    storageBytes: t.float({
      description: 'Bytes of recordings accepted in the period and still stored.',
      resolve: (u) => Number(u.storageBytes),
    }),
    storageFreedBytes: t.float({
      description:
        'Bytes of recordings of the period given back by deletion and retention (already taken off `storageBytes`).',
      resolve: (u) => Number(u.storageFreedBytes),
    }),
  }),
});

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

builder.queryFields((t) => ({
  usage: t.field({
    type: Usage,
    authScopes: { member: true },
    errors: wrappedErrors,
    description: 'One period; the current one when `period` is omitted. A period without calls reads as zeros.',
    args: { period: t.arg.string({ description: 'YYYY-MM' }) },
    resolve: async (_r, args, ctx) => {
      if (args.period != null && !PERIOD.test(args.period))
        throw new DomainError('invalid_period', 'A period is written YYYY-MM, e.g. 2024-03.');
      const accountId = accountIdOf(ctx);
      const account = await ctx.app.db.account.findUniqueOrThrow({
        where: { id: accountId },
        select: { timeZone: true, planMinutes: true },
      });
      const current = periodOf(new Date(), account.timeZone);
      const period = args.period ?? current;
      const [row] = await usageTotals(ctx.app.db, accountId, { period });
      return {
        period,
        current: period === current,
        calls: row?.calls ?? 0,
        minutesUsed: row?.minutesUsed ?? 0,
        minutesReserved: row?.minutesReserved ?? 0,
        planMinutes: account.planMinutes,
        storageBytes: row?.storageBytes ?? 0n,
        storageFreedBytes: row?.storageFreedBytes ?? 0n,
      };
    },
  }),
  usageHistory: t.field({
    type: [Usage],
    authScopes: { member: true },
    description: 'Periods with activity, newest first.',
    args: { limit: t.arg.int({ defaultValue: 12 }) },
    resolve: async (_r, args, ctx) => {
      const accountId = accountIdOf(ctx);
      const account = await ctx.app.db.account.findUniqueOrThrow({
        where: { id: accountId },
        select: { timeZone: true, planMinutes: true },
      });
      const current = periodOf(new Date(), account.timeZone);
      const rows = await usageTotals(ctx.app.db, accountId, { limit: Math.max(1, Math.min(120, args.limit ?? 12)) });
      return rows.map((r) => ({ ...r, current: r.period === current, planMinutes: account.planMinutes }));
    },
  }),
}));
