import { builder } from '../builder.ts';
import { analyzeCall, type AnalysisResult } from '../../src/analysis/analyze.ts';
import { createLlmClient } from '../../src/analysis/llm.ts';
import { parseColumn, Segments } from '../../src/call-columns.ts';
import { DomainError, notFound } from '../../src/domain/errors.ts';
import {
  createTemplate,
  deleteTemplate,
  languageDefaults,
  setDefaultTemplate,
  setLanguageDefaultTemplate,
  updateTemplate,
  validateDefinition,
} from '../../src/accounts/templates.ts';
import { parseLanguage } from '../../src/domain/languages.ts';
import { Account } from './account.ts';
import { CriterionResultRef } from './call.ts';
import { blindCallsWhere } from '../../src/calibration/read.ts';
import { accountIdOf, cachedRows, directErrors, parseUuid, byId, byUser, sessionOf } from './common.ts';

interface Warning {
  criterionKey: string;
  code: 'llm_not_configured';
  message: string;
}

const TemplateWarning = builder.objectRef<Warning>('TemplateWarning').implement({
  fields: (t) => ({
    criterionKey: t.exposeString('criterionKey'),
    code: t.exposeString('code', {
      description: '`llm_not_configured`: an `llm` criterion with no language model set (LLM_URL).',
    }),
    message: t.exposeString('message'),
  }),
});

function templateLanguage(definition: unknown): string | null {
  const d = definition as { language?: unknown } | null;
  return typeof d?.language === 'string' ? d.language : null;
}

function templateWarnings(definition: unknown, llmConfigured: boolean): Warning[] {
  const criteria = (definition as { criteria?: { key: string; kind: string; label: string }[] } | null)?.criteria ?? [];
  if (llmConfigured) return [];
  return criteria
    .filter((c) => c.kind === 'llm')
    .map((c) => ({
      criterionKey: c.key,
      code: 'llm_not_configured' as const,
      message: `"${c.label}" needs a language model, and none is configured (LLM_URL): it is N/A on every call.`,
    }));
}

const LanguageDefault = builder.objectRef<{ language: string; template: { id: string } }>('LanguageDefault').implement({
  description: "The account's default template for calls in one language.",
  fields: (t) => ({
    language: t.exposeString('language'),
    template: t.prismaField({
      type: 'Template',
      resolve: (query, d, _a, ctx) => ctx.app.db.template.findUniqueOrThrow({ ...query, where: { id: d.template.id } }),
    }),
  }),
});

builder.objectField(Account, 'languageDefaults', (t) =>
  t.field({
    type: [LanguageDefault],
    description:
      "Default templates per language. A call with no campaign template is scored with its language's default, else with `defaultTemplate` (any language).",
    resolve: (a, _args, ctx) => languageDefaults(ctx.app.db, a.id),
  }),
);

export const Template = builder.prismaObject('Template', {
  description: 'An analysis template (QA scorecard): criteria and topics. Analysts and above manage templates.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    definition: t.expose('definition', {
      type: 'JSON',
      description: 'Criteria and topics with every default filled in (see the template guide).',
    }),
    isDefault: t.boolean({
      description: 'Used for calls whose campaign has no template of its own.',
      select: { defaultOfAccount: { select: { id: true } } },
      resolve: (tpl) => !!tpl.defaultOfAccount,
    }),
    language: t.string({
      nullable: true,
      description: "The template's language (its definition's `language`); null means any language.",
      select: { definition: true },
      resolve: (tpl) => templateLanguage(tpl.definition),
    }),
    defaultForLanguages: t.stringList({
      description: 'Languages whose calls (with no campaign template) this template scores by default.',
      select: { defaultForLanguages: { select: { language: true } } },
      resolve: (tpl) => tpl.defaultForLanguages.map((d) => d.language).sort(),
    }),
    warnings: t.field({
      type: [TemplateWarning],
      description:
        'Criteria that cannot be evaluated under the current configuration: they are `na` on every call and lower its coverage.',
      select: { definition: true },
      resolve: (tpl, _a, ctx) => templateWarnings(tpl.definition, !!ctx.app.config.llm),
    }),
    deleted: t.boolean({
      select: { deletedAt: true },
      resolve: (tpl) => !!tpl.deletedAt,
      description: 'Deleted templates stay visible on the calls they scored.',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const AnalysisPreview = builder.objectRef<AnalysisResult>('AnalysisPreview').implement({
  description: 'What a template would give a call; nothing is saved.',
  fields: (t) => ({
    score: t.exposeFloat('score', { nullable: true }),
    coverage: t.exposeFloat('coverage', { description: "Share (0–1) of the template's weight evaluated." }),
    needsReview: t.exposeBoolean('needsReview'),
    criteria: t.field({ type: [CriterionResultRef], resolve: (r) => r.criteria }),
    topic: t.exposeString('topic', { nullable: true }),
    topicLabel: t.string({ nullable: true, resolve: (r) => r.topic_label }),
    summary: t.exposeString('summary'),
    metrics: t.field({ type: 'JSON', resolve: (r) => r.metrics }),
  }),
});

builder.queryFields((t) => ({
  templates: t.prismaField({
    type: ['Template'],
    authScopes: { member: true },
    resolve: (query, _r, _a, ctx) =>
      cachedRows(ctx, 'templates', query, () =>
        ctx.app.db.template.findMany({
          ...query,
          where: { accountId: accountIdOf(ctx), deletedAt: null },
          orderBy: { createdAt: 'asc' },
        }),
      ),
  }),
  template: t.prismaField({
    type: 'Template',
    nullable: true,
    authScopes: { member: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _r, args, ctx) =>
      byId(args.id, (id) => ctx.app.db.template.findFirst({ ...query, where: { id, accountId: accountIdOf(ctx) } })),
  }),
}));

builder.mutationFields((t) => ({
  createTemplate: t.field({
    type: Template,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Errors: `invalid_template` (with `issues`), `invalid_name`.',
    args: {
      name: t.arg.string({ required: true }),
      definition: t.arg({ type: 'JSON', required: true, description: 'Parsed JSON or JSON text.' }),
    },
    resolve: (_r, args, ctx) =>
      createTemplate(ctx.app.db, accountIdOf(ctx), { name: args.name, definition: args.definition }, byUser(ctx)),
  }),
  updateTemplate: t.field({
    type: Template,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Calls already analyzed keep their results until re-analyzed.',
    args: { id: t.arg.id({ required: true }), name: t.arg.string(), definition: t.arg({ type: 'JSON' }) },
    resolve: (_r, args, ctx) =>
      updateTemplate(
        ctx.app.db,
        accountIdOf(ctx),
        parseUuid(args.id, 'Template'),
        {
          ...(args.name != null && { name: args.name }),
          ...(args.definition != null && { definition: args.definition }),
        },
        byUser(ctx),
      ),
  }),
  deleteTemplate: t.field({
    type: Template,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Soft delete: detached from the account default and campaigns; analyzed calls keep pointing at it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_r, args, ctx) =>
      deleteTemplate(ctx.app.db, accountIdOf(ctx), parseUuid(args.id, 'Template'), byUser(ctx)),
  }),
  setDefaultTemplate: t.prismaField({
    type: 'Account',
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Sets (or with `id: null` clears) the template for calls whose campaign has none.',
    args: { id: t.arg.id({ required: false }) },
    resolve: async (query, _r, args, ctx) => {
      const account = await setDefaultTemplate(
        ctx.app.db,
        accountIdOf(ctx),
        args.id == null ? null : parseUuid(args.id, 'Template'),
        byUser(ctx),
      );
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id: account.id } });
    },
  }),
  setLanguageDefaultTemplate: t.prismaField({
    type: 'Account',
    authScopes: { analyst: true },
    errors: directErrors,
    description:
      'Sets (or with `id: null` clears) the template for calls in `language` whose campaign has none. Errors: `invalid_language`, `not_found`.',
    args: { language: t.arg.string({ required: true }), id: t.arg.id({ required: false }) },
    resolve: async (query, _r, args, ctx) => {
      const accountId = accountIdOf(ctx);
      const language = parseLanguage(args.language);
      if (!language)
        throw new DomainError('invalid_language', `"${args.language}" is not a language code such as "es".`);
      await setLanguageDefaultTemplate(
        ctx.app.db,
        accountId,
        language,
        args.id == null ? null : parseUuid(args.id, 'Template'),
        byUser(ctx),
      );
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id: accountId } });
    },
  }),
  previewTemplate: t.field({
    type: AnalysisPreview,
    authScopes: { analyst: true },
    errors: directErrors,
    description: 'Scores a transcribed call with an unsaved definition, so authors can try a change before saving it.',
    args: { callId: t.arg.id({ required: true }), definition: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_r, args, ctx) => {
      const definition = validateDefinition(args.definition);
      const call = await ctx.app.db.call.findFirst({
        // Scoring a call a grader grades blind would show them the machine's verdict (src/calibration/read.ts).
        where: {
          id: parseUuid(args.callId, 'Call'),
          accountId: accountIdOf(ctx),
          ...blindCallsWhere(sessionOf(ctx).user.id),
        },
        select: { segments: true, durationSeconds: true, channels: true, language: true, detectedLanguage: true },
      });
      if (!call) throw notFound('Call');
      if (!Array.isArray(call.segments)) throw notFound('Transcript of the call');
      const llm = ctx.app.config.llm
        ? createLlmClient({ ...ctx.app.config.llm, apiKey: ctx.app.config.llm.apiKey ?? '' }, { logger: ctx.app.log })
        : null;
      return analyzeCall(
        {
          segments: parseColumn(Segments, call.segments) ?? [],
          durationSeconds: call.durationSeconds ?? 0,
          channels: call.channels ?? 1,
          language: call.language ?? call.detectedLanguage ?? definition.language ?? 'en',
        },
        definition,
        { llm, logger: ctx.app.log },
      );
    },
  }),
}));
