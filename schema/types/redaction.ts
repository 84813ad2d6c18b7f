// Redaction settings of the account and what was redacted in a call (src/redaction).
import { builder } from '../builder.ts';
import { parseColumn, Redactions } from '../../src/call-columns.ts';
import { REDACTION_MODES, RedactionInput, redactionOf, setRedaction } from '../../src/accounts/redaction.ts';
import { PII_KINDS, type PiiKind } from '../../src/redaction/detect.ts';
import { accountIdOf, directErrors, byUser } from './common.ts';
import { parseInput } from './errors.ts';

const RedactionMode = builder.enumType('RedactionMode', {
  description:
    '`off`; `text`: transcripts, search, evidence, CSV and webhooks carry placeholders; `text_audio`: also a recording with those moments silenced and marked by a tone (the original is deleted).',
  values: Object.fromEntries(REDACTION_MODES.map((m) => [m.toUpperCase(), { value: m }])),
});

const PiiKindEnum = builder.enumType('PiiKind', {
  description: 'A detector of personal or payment data; each is replaced by a placeholder such as `[CARD_NUMBER]`.',
  values: Object.fromEntries(PII_KINDS.map((k) => [k.toUpperCase(), { value: k }])),
});

const RedactionSettings = builder.objectRef<ReturnType<typeof redactionOf>>('RedactionSettings').implement({
  fields: (t) => ({
    mode: t.field({ type: RedactionMode, resolve: (r) => r.mode }),
    kinds: t.field({ type: [PiiKindEnum], description: 'The detectors that are on.', resolve: (r) => r.kinds }),
  }),
});

builder.prismaObjectField('Account', 'redaction', (t) =>
  t.field({
    type: RedactionSettings,
    select: { redactionMode: true, redactionKinds: true },
    description: 'What is redacted from calls transcribed from now on.',
    resolve: (a) => redactionOf(a),
  }),
);

const RedactedSpan = builder.objectRef<{ kind: PiiKind; start: number; end: number }>('RedactedSpan').implement({
  description: 'A moment of the call whose words were redacted (seconds from the start).',
  fields: (t) => ({
    kind: t.field({ type: PiiKindEnum, resolve: (s) => s.kind }),
    start: t.exposeFloat('start'),
    end: t.exposeFloat('end'),
  }),
});

builder.prismaObjectFields('Call', (t) => ({
  redactions: t.field({
    type: [RedactedSpan],
    select: { redactions: true },
    description: 'What was redacted from the transcript (and the audio when `audioRedacted`); empty when nothing was.',
    resolve: (c) =>
      (parseColumn(Redactions, c.redactions) ?? []).filter((s): s is typeof s & { kind: PiiKind } =>
        (PII_KINDS as readonly string[]).includes(s.kind),
      ),
  }),
  audioRedacted: t.exposeBoolean('audioRedacted', {
    description: 'The recording served is the redacted copy: the original was deleted.',
  }),
}));

builder.mutationField('setRedaction', (t) =>
  t.prismaField({
    type: 'Account',
    authScopes: { admin: true },
    errors: directErrors,
    description:
      'Admins: turns redaction on or off and chooses its detectors. Applies to calls transcribed from now on. Errors: `invalid_input`.',
    args: {
      mode: t.arg({ type: RedactionMode, required: true }),
      kinds: t.arg({ type: [PiiKindEnum], required: true }),
    },
    resolve: async (query, _r, args, ctx) => {
      const id = accountIdOf(ctx);
      await setRedaction(
        ctx.app.db,
        id,
        parseInput(RedactionInput, { mode: args.mode, kinds: args.kinds }),
        byUser(ctx),
      );
      return ctx.app.db.account.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
