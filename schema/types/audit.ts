// The audit log (issue 13.6): who did what and when. Owners only; CSV at /api/audit-log.csv.
import { builder, MAX_PAGE_SIZE } from '../builder.ts';
import { AUDIT_ACTIONS } from '../../src/accounts/audit.ts';
import { AUDIT_ORDER, auditWhere, parseAuditActions } from '../../src/accounts/audit-query.ts';
import { accountIdOf } from './common.ts';

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
    resolve: (query, _r, args, ctx) =>
      ctx.app.db.auditLog.findMany({
        ...query,
        where: auditWhere(accountIdOf(ctx), {
          actions: parseAuditActions(args.actions),
          from: args.from ?? null,
          to: args.to ?? null,
        }),
        orderBy: [...AUDIT_ORDER],
      }),
  }),
);
