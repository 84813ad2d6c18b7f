import { z } from 'zod';
import { builder } from '../builder.ts';
import { createCampaign, setCampaignArchived, updateCampaign } from '../../src/accounts/campaigns.ts';
import { accountIdOf, cachedRows, directErrors, parseUuid, byId } from './common.ts';
import { parseInput } from './errors.ts';

export const Campaign = builder.prismaObject('Campaign', {
  description:
    'Groups calls; intake matches `campaign` by name (case and accents ignored) among non-archived campaigns. Analysts and above manage campaigns.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    language: t.exposeString('language', {
      nullable: true,
      description: 'Language of its calls when intake sends none; null means detect.',
    }),
    template: t.relation('template', {
      nullable: true,
      description: 'Template for its calls; null means the account default.',
    }),
    archived: t.boolean({ resolve: (c) => !!c.archivedAt }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const CampaignInput = builder.inputType('CampaignInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    language: t.string({ description: 'Language code (intake list); null to detect.' }),
    templateId: t.id({ description: 'null for the account default template.' }),
  }),
});
const CampaignPatch = builder.inputType('CampaignPatch', {
  description: 'Only the fields given change; null clears language or template.',
  fields: (t) => ({ name: t.string(), language: t.string(), templateId: t.id() }),
});

const Name = z.string().trim().min(1, 'A campaign needs a name.').max(200, 'Names can have at most 200 characters.');

function templateIdOf(id: string | number | null | undefined): string | null | undefined {
  if (id === undefined) return undefined;
  if (id === null || id === '') return null;
  return parseUuid(id, 'Template');
}

builder.queryFields((t) => ({
  campaigns: t.prismaField({
    type: ['Campaign'],
    authScopes: { member: true },
    args: { includeArchived: t.arg.boolean({ defaultValue: false }) },
    resolve: (query, _r, args, ctx) =>
      cachedRows(ctx, `campaigns(${!!args.includeArchived})`, query, () =>
        ctx.app.db.campaign.findMany({
          ...query,
          where: { accountId: accountIdOf(ctx), ...(args.includeArchived ? {} : { archivedAt: null }) },
          orderBy: { name: 'asc' },
        }),
      ),
  }),
  campaign: t.prismaField({
    type: 'Campaign',
    nullable: true,
    authScopes: { member: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) =>
      byId(args.id, (id) => ctx.app.db.campaign.findFirst({ ...query, where: { id, accountId: accountIdOf(ctx) } })),
  }),
}));

builder.mutationFields((t) => ({
  createCampaign: t.field({
    type: Campaign,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Errors: `name_taken`, `invalid_language`, `not_found` (template).',
    args: { input: t.arg({ type: CampaignInput, required: true }) },
    resolve: (_r, { input }, ctx) => {
      const { name } = parseInput(z.object({ name: Name }), { name: input.name });
      return createCampaign(ctx.app.db, accountIdOf(ctx), {
        name,
        language: input.language ?? null,
        templateId: templateIdOf(input.templateId) ?? null,
      });
    },
  }),
  updateCampaign: t.field({
    type: Campaign,
    authScopes: { analyst: true },
    errors: directErrors,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: CampaignPatch, required: true }) },
    resolve: (_r, { id, input }, ctx) => {
      const patch = {
        ...(input.name != null && parseInput(z.object({ name: Name }), { name: input.name })),
        ...(input.language !== undefined && { language: input.language }),
        ...(input.templateId !== undefined && { templateId: templateIdOf(input.templateId) ?? null }),
      };
      return updateCampaign(ctx.app.db, accountIdOf(ctx), parseUuid(id, 'Campaign'), patch);
    },
  }),
  archiveCampaign: t.field({
    type: Campaign,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Intake stops matching it; its calls stay.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => setCampaignArchived(ctx.app.db, accountIdOf(ctx), parseUuid(id, 'Campaign'), true),
  }),
  unarchiveCampaign: t.field({
    type: Campaign,
    authScopes: { analyst: true },
    errors: directErrors,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, { id }, ctx) => setCampaignArchived(ctx.app.db, accountIdOf(ctx), parseUuid(id, 'Campaign'), false),
  }),
}));
