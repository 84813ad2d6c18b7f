import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.ts';
import { createAccount, updateAccountSettings } from '../accounts/accounts.ts';
import { createAgent } from '../accounts/agents.ts';
import { createApiKey, revokeApiKey } from '../accounts/api-keys.ts';
import { createCampaign, findCampaignByName, setCampaignArchived } from '../accounts/campaigns.ts';
import { found } from '../domain/errors.ts';
import { LLM_ADD_ON_FILE } from '../analysis/examples/index.ts';
import { splitTemplateFile, type TemplateDefinition } from '../analysis/template.ts';
import { parseLanguage } from '../domain/languages.ts';
import {
  createTemplate,
  setDefaultTemplate,
  setLanguageDefaultTemplate,
  validateDefinition,
} from '../accounts/templates.ts';
import {
  createWebhookEndpoint,
  listWebhookEndpoints,
  revealWebhookSecret,
  rotateWebhookSecret,
  setWebhookEndpoint,
} from '../webhooks/endpoints.ts';
import { startReplay } from '../webhooks/replay.ts';
import { defineCommand, type Command } from './command.ts';
import { count, flag, type OptionSpecs, type OptionValues, required, text, uuid } from './options.ts';
import { UsageError } from './errors.ts';

const account = required(uuid('ID', 'account id (UUID)'));

// Domain functions would fail on the foreign key with an opaque database error; this says which id is wrong.
async function requireAccount(app: AppContext, id: string): Promise<void> {
  await found(app.db.account.findUnique({ where: { id }, select: { id: true } }), 'Account');
}

type WithAccount<O extends OptionSpecs> = { account: typeof account } & O;

/** A command on one account: `--account` comes first, and an unknown id is refused before `run` starts. */
function accountCommand<const O extends OptionSpecs>(command: {
  name: string;
  summary: string;
  options: O;
  run(app: AppContext, values: OptionValues<O> & { account: string }): Promise<unknown>;
}): Command<WithAccount<O>> {
  return defineCommand<WithAccount<O>>({
    ...command,
    options: { account, ...command.options },
    async run(app, o) {
      // `account` is required, so it is always there; TypeScript cannot see through the generic O.
      const values = o as OptionValues<O> & { account: string };
      await requireAccount(app, values.account);
      return command.run(app, values);
    },
  });
}

/**
 * What an import says about language-model questions when no LLM_URL is set: `llm` criteria then
 * stay N/A (calls never reach full coverage), and a template without them may add them later.
 */
function llmNote(app: AppContext, definition: TemplateDefinition): { warning?: string; note?: string } {
  if (app.config.llm) return {};
  const llm = definition.criteria.filter((c) => c.kind === 'llm');
  if (llm.length === 0)
    return {
      note: `Scores offline (phrases and metrics). Optional, with a language model (LLM_URL): yes/no questions as "llm" criteria, e.g. ${LLM_ADD_ON_FILE}.`,
    };
  const weight = (cs: readonly { weight: number }[]) => cs.reduce((sum, c) => sum + c.weight, 0);
  const reachable = Math.round((100 * (weight(definition.criteria) - weight(llm))) / weight(definition.criteria));
  return {
    warning: `No LLM_URL is set: ${llm.map((c) => c.key).join(', ')} will be N/A, so calls reach at most ${reachable} % coverage. Set LLM_URL or remove them.`,
  };
}

export const commands: readonly Command<any>[] = [
  defineCommand({
    name: 'account:create',
    summary: 'Create an account and its owner; prints the owner password once.',
    options: {
      name: required(text('N', 'account name')),
      minutes: count('M', 'plan minutes per month (default 1000)'),
      seats: count('S', 'plan agent seats (default 10)'),
      timezone: text('TZ', 'IANA time zone for usage periods (default UTC)'),
      email: text('E', 'owner email (default: a generated @escucha.local address)'),
    },
    async run(app, o) {
      const { account: a, owner } = await createAccount(app.db, {
        name: o.name,
        minutes: o.minutes,
        seats: o.seats,
        timeZone: o.timezone,
        ownerEmail: o.email,
      });
      return {
        account: { id: a.id, name: a.name, timeZone: a.timeZone, planMinutes: a.planMinutes, planSeats: a.planSeats },
        owner: { email: owner.email, password: owner.password },
        note: 'The password is shown only now; it is stored hashed.',
      };
    },
  }),
  accountCommand({
    name: 'account:set',
    summary: 'Change account settings: the stereo channel of the agent, the time zone.',
    options: {
      'agent-channel': text('left|right', 'stereo channel that carries the agent (default left)'),
      timezone: text('TZ', 'IANA time zone of file-name times and usage periods'),
    },
    async run(app, o) {
      const channel = o['agent-channel'];
      if (channel !== undefined && channel !== 'left' && channel !== 'right')
        throw new UsageError('--agent-channel must be left or right');
      const a = await updateAccountSettings(
        app.db,
        o.account,
        { agentChannel: channel, timeZone: o.timezone },
        { system: 'cli' },
      );
      return { account: { id: a.id, agentChannel: a.agentChannel, timeZone: a.timeZone } };
    },
  }),
  accountCommand({
    name: 'agent:add',
    summary: 'Add an agent (takes a seat of the plan).',
    options: {
      name: required(text('N', 'agent name')),
      code: required(text('C', 'telephony code, unique in the account')),
    },
    async run(app, o) {
      const a = await createAgent(app.db, o.account, { name: o.name, code: o.code });
      return { agent: { id: a.id, name: a.name, code: a.code, active: a.active } };
    },
  }),
  accountCommand({
    name: 'campaign:add',
    summary: 'Add a campaign, optionally with its language and analysis template.',
    options: {
      name: required(text('N', 'campaign name')),
      language: text('L', 'language code of its calls, e.g. es'),
      template: uuid('ID', 'template id used for its calls'),
    },
    async run(app, o) {
      const c = await createCampaign(app.db, o.account, { name: o.name, language: o.language, templateId: o.template });
      return { campaign: { id: c.id, name: c.name, language: c.language, templateId: c.templateId } };
    },
  }),
  accountCommand({
    name: 'campaign:archive',
    summary: 'Archive a campaign by name (its calls are kept).',
    options: {
      name: required(text('N', 'campaign name (case and accents ignored)')),
    },
    async run(app, o) {
      const named = await found(findCampaignByName(app.db, o.account, o.name), 'Campaign');
      const c = await setCampaignArchived(app.db, o.account, named.id, true);
      return { campaign: { id: c.id, name: c.name, archivedAt: c.archivedAt } };
    },
  }),
  accountCommand({
    name: 'apikey:create',
    summary: 'Create an intake API key; prints the key once.',
    options: { name: text('N', 'label to tell keys apart') },
    async run(app, o) {
      const { apiKey: k, key } = await createApiKey(app.db, o.account, o.name, { system: 'cli' });
      return {
        apiKey: { id: k.id, name: k.name, prefix: k.prefix },
        key,
        note: 'The key is shown only now; it is stored hashed.',
      };
    },
  }),
  accountCommand({
    name: 'apikey:revoke',
    summary: 'Revoke an API key by its prefix (or id).',
    options: {
      prefix: required(text('P', 'key prefix such as esk_AbCd1234, or key id')),
    },
    async run(app, o) {
      const k = await revokeApiKey(app.db, o.account, o.prefix, app.apiKeys, { system: 'cli' });
      return { apiKey: { id: k.id, name: k.name, prefix: k.prefix, revokedAt: k.revokedAt } };
    },
  }),
  accountCommand({
    name: 'webhook:set',
    summary: "Set the account's webhook endpoint; prints the signing secret.",
    options: {
      url: required(text('U', 'https URL receiving call events')),
    },
    async run(app, o) {
      const { endpoint: e, secret } = await setWebhookEndpoint(app, o.account, o.url);
      // Changing the URL keeps the existing secret; the operator still needs it to configure the receiver.
      return {
        endpoint: { id: e.id, url: e.url, enabled: e.enabled },
        secret: secret ?? (await revealWebhookSecret(app, o.account)),
        secretIsNew: secret !== null,
      };
    },
  }),
  accountCommand({
    name: 'webhook:list',
    summary: "List the account's webhook endpoints with their state and latest replay.",
    options: {},
    async run(app, o) {
      const endpoints = await listWebhookEndpoints(app, o.account);
      const replays = await app.db.webhookReplay.findMany({
        where: { accountId: o.account },
        orderBy: { createdAt: 'desc' },
        distinct: ['endpointId'],
      });
      return {
        endpoints: endpoints.map((e) => ({
          id: e.id,
          url: e.url,
          description: e.description,
          eventTypes: e.eventTypes,
          campaignId: e.campaignId,
          enabled: e.enabled,
          disabledReason: e.disabledReason,
          failingSince: e.failingSince,
          previousSecretExpiresAt: e.previousSecretExpiresAt,
          latestReplay: replays.find((r) => r.endpointId === e.id) ?? null,
        })),
      };
    },
  }),
  accountCommand({
    name: 'webhook:add',
    summary: 'Add a webhook endpoint (up to 10 per account); prints its signing secret.',
    options: {
      url: required(text('U', 'https URL receiving events')),
      events: text(
        'T,T',
        'event types, comma-separated (default call.analyzed; also call.reviewed, call.failed, webhook.disabled)',
      ),
      campaign: uuid('ID', 'only calls of this campaign'),
      description: text('D', 'a note, e.g. "staging"'),
    },
    async run(app, o) {
      const { endpoint: e, secret } = await createWebhookEndpoint(app, o.account, {
        url: o.url,
        description: o.description,
        eventTypes: o.events?.split(',').map((t) => t.trim()),
        campaignId: o.campaign ?? null,
      });
      return { endpoint: { id: e.id, url: e.url, eventTypes: e.eventTypes, campaignId: e.campaignId }, secret };
    },
  }),
  accountCommand({
    name: 'webhook:rotate',
    summary: 'Rotate an endpoint secret; the old one keeps signing for WEBHOOK_SECRET_OVERLAP_HOURS.',
    options: {
      endpoint: uuid('ID', 'endpoint id (default: the first endpoint)'),
    },
    async run(app, o) {
      const { endpoint: e, secret } = await rotateWebhookSecret(app, o.account, o.endpoint);
      return { endpoint: { id: e.id, url: e.url }, secret, previousSecretValidUntil: e.previousSecretExpiresAt };
    },
  }),
  accountCommand({
    name: 'webhook:replay',
    summary: 'Redeliver every failed delivery of an endpoint since a time (a job; see webhook:list for progress).',
    options: {
      endpoint: required(uuid('ID', 'endpoint id')),
      since: required(text('T', 'ISO 8601 date and time, e.g. 2026-11-22T09:00:00Z')),
    },
    async run(app, o) {
      const r = await startReplay(app, o.account, o.endpoint, new Date(o.since));
      return { replay: { id: r.id, status: r.status, total: r.total, since: r.since } };
    },
  }),
  accountCommand({
    name: 'template:import',
    summary: 'Import an analysis template from a JSON file, optionally as a default.',
    options: {
      file: required(text('F', 'template JSON file')),
      name: text('N', 'template name (default: the file\'s "name", else the file name)'),
      default: flag("also make it the account's default template (with --language: for calls in that language)"),
      language: text('L', 'with --default: the call language it becomes the default for, e.g. es'),
    },
    async run(app, o) {
      let text: string;
      try {
        text = await readFile(o.file, 'utf8');
      } catch (error) {
        throw new UsageError(
          `template:import: cannot read --file ${o.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
        );
      }
      const language = o.language === undefined ? undefined : parseLanguage(o.language);
      if (language === null)
        throw new UsageError(`--language must be a language code such as en or es, got "${o.language}"`);
      if (language && !o.default)
        throw new UsageError('template:import: --language says which calls --default applies to; add --default');
      // Text goes to the validator as is, so a JSON syntax error is reported like any other issue.
      const file = splitTemplateFile(text);
      const definition = validateDefinition(file.definition);
      if (language && definition.language && definition.language !== language)
        throw new UsageError(
          `template:import: the template's language is "${definition.language}"; as the default for "${language}" calls every call would be flagged language_mismatch`,
        );
      const t = await createTemplate(
        app.db,
        o.account,
        {
          name: o.name ?? file.name ?? path.basename(o.file, path.extname(o.file)),
          definition,
        },
        { system: 'cli' },
      );
      if (language) await setLanguageDefaultTemplate(app.db, o.account, language, t.id, { system: 'cli' });
      else if (o.default) await setDefaultTemplate(app.db, o.account, t.id, { system: 'cli' });
      return {
        template: {
          id: t.id,
          name: t.name,
          language: definition.language ?? null,
          criteria: definition.criteria.length,
          topics: definition.topics.length,
        },
        default: Boolean(o.default),
        defaultFor: o.default ? (language ?? 'any language') : null,
        ...llmNote(app, definition),
      };
    },
  }),
];

export function findCommand(name: string): Command<any> | undefined {
  return commands.find((c) => c.name === name);
}
