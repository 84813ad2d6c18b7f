// The audit log (issue 13.6): who did what and when. Owners only; CSV at /api/audit-log.csv.
import { builder, MAX_PAGE_SIZE } from '../builder.ts';
import { AUDIT_ACTIONS } from '../../src/accounts/audit.ts';
import { AUDIT_ORDER, auditWhere, parseAuditActions } from '../../src/accounts/audit-query.ts';
import { type AuditObject, auditObjectsLoader } from '../../src/accounts/audit-objects.ts';
import { blindAuditFilter } from '../../src/calibration/read.ts';
import { accountIdOf, sessionOf } from './common.ts';

const AuditObjectRef = builder.objectRef<AuditObject>('AuditObject').implement({
  description:
    'What an entry is about, named: its name now, or the name the entry kept once the object is gone (never only an id).',
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description:
        '`call`, `template`, `webhook_endpoint`, `user`, `invitation`, `api_key`, `dispute`, `settings`, `calls`, `bulk_reanalysis`.',
    }),
    id: t.exposeString('id', { nullable: true }),
    name: t.exposeString('name', { nullable: true }),
    gone: t.exposeBoolean('gone', { description: 'Deleted, removed or revoked since the entry.' }),
    callId: t.exposeID('callId', { nullable: true, description: "A dispute's call." }),
  }),
});

builder.prismaObject('AuditLog', {
  name: 'AuditEntry',
  description: 'One audited change, written in the same transaction as the change itself.',
  fields: (t) => ({
    id: t.id({ resolve: (e) => String(e.id) }),
    action: t.exposeString('action', { description: `One of: ${AUDIT_ACTIONS.join(', ')}.` }),
    actor: t.relation('actor', {
      nullable: true,
      description: 'Who did it; null for the system (`detail.by`: `cli` or `retention`).',
    }),
    targetType: t.exposeString('targetType', {
      description: '`call`, `calls`, `account`, `api_key`, `user`, `invitation`, `webhook_endpoint`, …',
    }),
    targetId: t.exposeString('targetId', { nullable: true }),
    detail: t.expose('detail', { type: 'JSON', description: 'What changed (never secrets).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    objects: t.field({
      type: [AuditObjectRef],
      description: 'What the entry is about, the main object first (a score override: the call, then the dispute).',
      select: { accountId: true, action: true, targetType: true, targetId: true, detail: true },
      resolve: (e, _a, ctx) => auditObjectsLoader(ctx, ctx.app.db, e.accountId)(e),
    }),
  }),
});

builder.queryField('auditActions', (t) =>
  t.stringList({
    authScopes: { owner: true },
    description: 'Every action the audit log records, for its filter.',
    resolve: () => [...AUDIT_ACTIONS],
  }),
);

builder.queryField('auditLog', (t) =>
  t.prismaConnection({
    type: 'AuditLog',
    cursor: 'id',
    authScopes: { owner: true },
    defaultSize: 50,
    maxSize: MAX_PAGE_SIZE,
    description:
      'Owners: the audit log, newest first (keyset pages). Filters: `actions` (any of), `from` (inclusive), `to` (exclusive).',
    args: {
      actions: t.arg.stringList(),
      from: t.arg({ type: 'DateTime' }),
      to: t.arg({ type: 'DateTime' }),
    },
    resolve: async (query, _r, args, ctx) =>
      ctx.app.db.auditLog.findMany({
        ...query,
        where: auditWhere(
          accountIdOf(ctx),
          // An owner who grades a call blind does not read its overrides, coaching or disputes here
          // (src/calibration/read.ts).
          await blindAuditFilter(ctx.app.db, sessionOf(ctx).user.id, {
            actions: parseAuditActions(args.actions),
            from: args.from ?? null,
            to: args.to ?? null,
          }),
        ),
        orderBy: [...AUDIT_ORDER],
      }),
  }),
);
