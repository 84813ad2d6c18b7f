// Retention and deletion (issue 13.4–5): the fields they add to Call and Account, and their mutations.
import { builder } from '../builder.ts';
import { countCallsToDelete, deleteCall, deleteCallsMatching } from '../../src/calls/call-deletion.ts';
import { setRetention } from '../../src/calls/retention.ts';
import { CallFilter, cleanFilter } from './call.ts';
import { accountIdOf, actorOf, directErrors, parseUuid, byId } from './common.ts';

builder.prismaObjectFields('Call', (t) => ({
  recordingDeletedAt: t.expose('recordingDeletedAt', {
    type: 'DateTime',
    nullable: true,
    description: "When the account's retention period removed the recording (the call, score and criteria stay).",
  }),
  transcriptDeletedAt: t.expose('transcriptDeletedAt', {
    type: 'DateTime',
    nullable: true,
    description:
      "When the account's retention period removed the transcript (segments, search text, evidence quotes, summary).",
  }),
}));

builder.prismaObjectFields('Account', (t) => ({
  retentionRecordingDays: t.exposeInt('retentionRecordingDays', {
    nullable: true,
    description: 'Days recordings are kept after the call started; null keeps them.',
  }),
  retentionTranscriptDays: t.exposeInt('retentionTranscriptDays', {
    nullable: true,
    description: 'Days transcripts are kept after the call started; null keeps them.',
  }),
}));

const DeletedCallRef = builder.objectRef<{ id: string; externalId: string | null }>('DeletedCall').implement({
  description:
    'What stays of a deleted call: its id and external_id (a resent external_id answers `exists` with this id).',
  fields: (t) => ({
    id: t.exposeID('id'),
    externalId: t.exposeString('externalId', { nullable: true }),
  }),
});

interface CallDeletionShape {
  id: string;
  deletedAt: Date;
  deletedBy: { name: string; removedAt: Date | null } | null;
}

const CallDeletionRef = builder.objectRef<CallDeletionShape>('CallDeletion').implement({
  description:
    'That a call of the account was deleted, when and by whom — nothing of its content (recording, transcript, scores are gone).',
  fields: (t) => ({
    id: t.exposeID('id'),
    deletedAt: t.expose('deletedAt', { type: 'DateTime' }),
    deletedByName: t.string({
      nullable: true,
      description: 'Who deleted it; null when that user no longer exists.',
      resolve: (d) => d.deletedBy?.name ?? null,
    }),
  }),
});

const BulkDeletionRef = builder.objectRef<{ count: number; queued: boolean }>('BulkDeletion').implement({
  fields: (t) => ({
    count: t.exposeInt('count', { description: 'Calls deleted (or being deleted when `queued`).' }),
    queued: t.exposeBoolean('queued', {
      description: 'More than 500 calls: the delete-calls job deletes them in batches of 500 in the background.',
    }),
  }),
});

builder.queryField('callsToDeleteCount', (t) =>
  t.int({
    authScopes: { admin: true },
    description:
      'Owners and admins: how many calls `deleteCalls` with this filter would delete now (show it, then confirm it).',
    args: { filter: t.arg({ type: CallFilter }) },
    resolve: (_r, args, ctx) => countCallsToDelete(ctx.app, accountIdOf(ctx), cleanFilter(args.filter)),
  }),
);

builder.queryFields((t) => ({
  deletedCall: t.field({
    type: CallDeletionRef,
    nullable: true,
    // As `call`: any signed-in user of the account, so the call's own link says "deleted" to whoever
    // follows it (a webhook consumer's, an agent's) instead of "not found".
    authScopes: { signedIn: true },
    description:
      'When a call of this account was deleted and by whom (its id stays valid: a resend of its external_id answers `exists`); null for an id that never was a call of this account.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      byId(args.id, (id) =>
        ctx.app.db.callTombstone.findFirst({
          where: { id, accountId: accountIdOf(ctx) },
          select: { id: true, deletedAt: true, deletedBy: { select: { name: true, removedAt: true } } },
        }),
      ),
  }),
}));

builder.mutationFields((t) => ({
  deleteCall: t.field({
    type: DeletedCallRef,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Owners and admins. Deletes the call, its recording, transcript, analysis, history and webhook deliveries; a tombstone keeps its id and external_id. Minutes already charged stay charged; its storage is freed. Audited. Errors: `not_found`.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) => deleteCall(ctx.app, actorOf(ctx), parseUuid(args.id, 'Call')),
  }),
  deleteCalls: t.field({
    type: BulkDeletionRef,
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Owners and admins. Deletes every call matching the filter (received until now), as `deleteCall` does. `expectedCount` is the count the user confirmed (`callsToDeleteCount`); if the filter matches another number now nothing is deleted. Audited once. Errors: `count_changed` (details.count), `invalid_search`, `invalid_input`, `not_found` (an agent or campaign id not of this account).',
    args: {
      filter: t.arg({ type: CallFilter }),
      expectedCount: t.arg.int({ required: true }),
    },
    resolve: (_r, args, ctx) =>
      deleteCallsMatching(ctx.app, actorOf(ctx), cleanFilter(args.filter), args.expectedCount),
  }),
  updateRetention: t.prismaField({
    type: 'Account',
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Owners and admins: days recordings and transcripts are kept after the call started (null keeps them; both are set as given). The daily retention job removes what is due. Audited. Errors: `invalid_retention` (1–36,500 days).',
    args: { recordingDays: t.arg.int(), transcriptDays: t.arg.int() },
    resolve: async (query, _r, args, ctx) => {
      await setRetention(ctx.app.db, actorOf(ctx), {
        recordingDays: args.recordingDays ?? null,
        transcriptDays: args.transcriptDays ?? null,
      });
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id: accountIdOf(ctx) } });
    },
  }),
}));
