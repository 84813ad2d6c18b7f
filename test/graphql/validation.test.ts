import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect } from '../support/harness.ts';
import { schema } from '../../schema/index.ts';
import type { Prisma } from '../../src/generated/prisma/client.ts';
import type { TestDb } from '../support/db.ts';
import { insertCall, SEGMENTS, seedData, TEMPLATE_DEFINITION } from './fixtures.ts';
import { Browser, PASSWORD, seedAccount, signedInUser, type Harness, test } from './support.ts';

/*
 * Issue 4: every mutation's validation errors. For each Mutation field an owner, admin or analyst
 * (or a signed-out visitor, for the public ones) can feed bad input, the table lists bad inputs and
 * the typed error they must get: `__typename`, `code`, and for ValidationError the issue paths.
 * Every case also checks that the database is exactly as before: a refused mutation changes nothing.
 * Mutations without user input to get wrong are listed in NO_INPUT with the reason; the last test
 * makes sure every field of the built schema is in one of the two, so a new mutation cannot escape.
 */

let t: TestDb;
let h: Harness;
let f: Fixtures;

type Seeded = Awaited<ReturnType<typeof seedAccount>>;
type SeededData = Awaited<ReturnType<typeof seedData>>;
type Invitation = Awaited<ReturnType<typeof insertInvitation>>;

interface Fixtures {
  /** Acme: seeded data plus a second agent and campaign, a deleted template, calls in every in-flight state, invitations with known tokens. */
  A: Seeded;
  a: SeededData;
  /** Bolt: another tenant; its webhook endpoint is disabled. */
  B: Seeded;
  b: SeededData;
  /** Cero: no template at all, one transcribed call, no webhook endpoint. */
  C: Seeded;
  /** Acme's agent user (role agent), linked to Acme's agent: a.call is theirs. */
  agent: Browser;
  secondAgent: { id: string };
  secondCampaign: { id: string };
  deletedTemplate: { id: string };
  calls: {
    queued: { id: string };
    transcribing: { id: string };
    analyzing: { id: string };
    failed: { id: string };
    withoutTemplate: { id: string };
  };
  /**
   * Calibration sessions of Acme graded by its analyst: one open, one closed, on a call of their own (a
   * grader is blind to the calls of an open session, so the other cases' call stays out of them).
   */
  calibration: { open: string; closed: string; callId: string };
  invitations: {
    pending: Invitation;
    expired: Invitation;
    revoked: Invitation;
    accepted: Invitation;
    emailTaken: Invitation;
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function insertInvitation(
  accountId: string,
  invitedById: string,
  email: string,
  over: Partial<Prisma.InvitationUncheckedCreateInput> = {},
) {
  const token = randomBytes(32).toString('base64url');
  const row = await h.app.db.invitation.create({
    data: {
      accountId,
      email,
      role: 'viewer',
      tokenHash: sha256(token),
      invitedById,
      expiresAt: new Date(Date.now() + 86400_000),
      ...over,
    },
  });
  return { id: row.id, email, token };
}

test.beforeAll(async ({ db: testDb, gql }) => {
  t = testDb;
  h = gql;
  const db = h.app.db;
  const A = await seedAccount(h, 'Acme');
  const B = await seedAccount(h, 'Bolt');
  const C = await seedAccount(h, 'Cero');
  const a = await seedData(db, A.account.id, 'Acme', A.users.owner.id);
  const b = await seedData(db, B.account.id, 'Bolt', B.users.owner.id);
  await db.webhookEndpoint.update({
    where: { id: b.endpoint.id },
    data: { enabled: false, disabledReason: 'The receiver answered 410 Gone' },
  });

  const accountId = A.account.id;
  const secondAgent = await db.agent.create({
    data: { accountId, name: 'Second Agent', nameNormalized: 'secondagent', code: 'S-2', codeNormalized: 's2' },
  });
  const secondCampaign = await db.campaign.create({
    data: { accountId, name: 'Second Campaign', nameNormalized: 'secondcampaign' },
  });
  const deletedTemplate = await db.template.create({
    data: { accountId, name: 'Retired', definition: TEMPLATE_DEFINITION, deletedAt: new Date() },
  });
  const own = { accountId, agentId: a.agent.id };
  const queued = await insertCall(db, own, { status: 'queued' });
  const transcribing = await insertCall(db, own, { status: 'transcribing' });
  const analyzing = await insertCall(db, own, { status: 'analyzing', segments: SEGMENTS, templateId: a.template.id });
  const failed = await insertCall(db, own, {
    status: 'failed',
    failureReason: 'no_speech',
    failureDetail: 'Only silence',
  });

  const cAgent = await db.agent.create({
    data: { accountId: C.account.id, name: 'Cero Agent', nameNormalized: 'ceroagent' },
  });
  const withoutTemplate = await insertCall(
    db,
    { accountId: C.account.id, agentId: cAgent.id },
    { status: 'transcribed', segments: SEGMENTS },
  );

  const inviter = A.users.owner.id;
  const invitations = {
    pending: await insertInvitation(accountId, inviter, 'newcomer@example.com'),
    expired: await insertInvitation(accountId, inviter, 'late@example.com', {
      expiresAt: new Date(Date.now() - 60_000),
    }),
    revoked: await insertInvitation(accountId, inviter, 'revoked@example.com', { revokedAt: new Date() }),
    accepted: await insertInvitation(accountId, inviter, 'accepted@example.com', { acceptedAt: new Date() }),
    // Pending, but the address already belongs to a user of another account.
    emailTaken: await insertInvitation(accountId, inviter, B.users.viewer.email),
  };
  const agent = await signedInUser(db, h.url, accountId, {
    role: 'agent',
    name: 'Acme agent',
    agentId: a.agent.id,
    email: 'agent-user@example.com',
  });
  const graded = await insertCall(db, own, { segments: SEGMENTS, templateId: a.template.id });
  const calibration = async (status: 'open' | 'closed') =>
    (
      await db.calibrationSession.create({
        data: {
          accountId,
          name: `Calibration ${status}`,
          templateId: a.template.id,
          criteria: [{ key: 'greeting', label: 'Greets the customer' }],
          status,
          calls: { create: [{ callId: graded.id, position: 0 }] },
          graders: { create: [{ userId: A.users.analyst.id }] },
        },
      })
    ).id;
  f = {
    A,
    a,
    calibration: { open: await calibration('open'), closed: await calibration('closed'), callId: graded.id },
    agent,
    B,
    b,
    C,
    secondAgent,
    secondCampaign,
    deletedTemplate,
    calls: { queued, transcribing, analyzing, failed, withoutTemplate },
    invitations,
  };
});

// ---------------------------------------------------------------------------------------------
// The table

type ErrorType =
  | 'ValidationError'
  | 'ConflictError'
  | 'NotFoundError'
  | 'LimitError'
  | 'ForbiddenError'
  | 'InvalidCredentialsError'
  | 'DomainError';
interface Expected {
  __typename: string;
  code: string;
  /** ValidationError only: the paths of its issues, in order ([] when the error carries none). */
  issues?: string[];
}
type Who = 'owner' | 'admin' | 'analyst' | 'viewer' | 'agent' | 'anonymous';
interface Case {
  what: string;
  /** Who sends it: the least role the mutation needs, unless the case is about the role. */
  as: Who;
  /** Account of the signed-in user; A unless said otherwise. */
  account?: 'A' | 'B' | 'C';
  vars: (f: Fixtures) => Record<string, unknown>;
  expect: Expected;
}

const invalid = (code: string, ...issues: string[]): Expected => ({ __typename: 'ValidationError', code, issues });
const error = (type: ErrorType, code: string): Expected => ({ __typename: type, code });
const conflict = (code: string) => error('ConflictError', code);
const notFound = error('NotFoundError', 'not_found');
const forbidden = error('ForbiddenError', 'forbidden');
const badCredentials = error('InvalidCredentialsError', 'invalid_credentials');
const invalidTemplate = (...paths: string[]) => invalid('invalid_template', ...paths);

const x = (n: number) => 'x'.repeat(n);
const UNKNOWN_ID = randomUUID();
const criterion = (over: Record<string, unknown> = {}) => ({
  key: 'greeting',
  label: 'Greets the customer',
  weight: 5,
  kind: 'phrase',
  phrases: ['hello'],
  ...over,
});
const definition = (criteria: unknown[], over: Record<string, unknown> = {}) => ({ version: 1, criteria, ...over });
const VALID_DEFINITION = definition([criterion()]);
/** Bad template definitions and the issue paths each must report. */
const BAD_DEFINITIONS: { what: string; definition: unknown; paths: string[] }[] = [
  { what: 'a weight of 11', definition: definition([criterion({ weight: 11 })]), paths: ['criteria[0].weight'] },
  { what: 'a fractional weight', definition: definition([criterion({ weight: 2.5 })]), paths: ['criteria[0].weight'] },
  {
    what: 'duplicate criterion keys',
    definition: definition([criterion(), criterion({ label: 'Again' })]),
    paths: ['criteria[1].key'],
  },
  {
    what: 'duplicate topic keys',
    definition: definition([criterion()], {
      topics: [
        { key: 'billing', label: 'Billing', phrases: ['invoice'] },
        { key: 'billing', label: 'Bills', phrases: ['bill'] },
      ],
    }),
    paths: ['topics[1].key'],
  },
  {
    what: 'a phrase criterion without phrases',
    definition: definition([criterion({ phrases: undefined })]),
    paths: ['criteria[0].phrases'],
  },
  {
    what: 'an empty phrase list',
    definition: definition([criterion({ phrases: [] })]),
    paths: ['criteria[0].phrases'],
  },
  {
    what: 'a phrase with no words',
    definition: definition([criterion({ phrases: ['hello', '?!'] })]),
    paths: ['criteria[0].phrases[1]'],
  },
  {
    what: 'a key that is not a slug',
    definition: definition([criterion({ key: 'Greeting Check' })]),
    paths: ['criteria[0].key'],
  },
  { what: 'no criteria', definition: definition([]), paths: ['criteria'] },
  {
    what: 'an unknown criterion kind',
    definition: definition([criterion({ kind: 'vibes' })]),
    paths: ['criteria[0].kind'],
  },
  {
    what: 'a "between" metric without min and max',
    definition: definition([
      { key: 'length', label: 'Length', weight: 2, kind: 'metric', metric: 'duration', op: 'between' },
    ]),
    paths: ['criteria[0].min', 'criteria[0].max'],
  },
  {
    what: 'a ratio threshold written as a percentage',
    definition: definition([
      { key: 'talk', label: 'Talk', weight: 2, kind: 'metric', metric: 'talk_ratio', op: 'lt', value: 60 },
    ]),
    paths: ['criteria[0].value'],
  },
  { what: 'version 2', definition: { ...VALID_DEFINITION, version: 2 }, paths: ['version'] },
  { what: 'an unknown top-level field', definition: { ...VALID_DEFINITION, colour: 'red' }, paths: [''] },
  { what: 'a list instead of an object', definition: [VALID_DEFINITION], paths: [''] },
  { what: 'JSON text that does not parse', definition: '{"version": 1, criteria: [', paths: [''] },
  {
    what: 'JSON text with a weight of 11',
    definition: JSON.stringify(definition([criterion({ weight: 11 })])),
    paths: ['criteria[0].weight'],
  },
  {
    // Key uniqueness is a refinement of the whole list, which zod runs only once every criterion
    // parses: the duplicate key of criteria[2] is reported after the other problems are fixed.
    what: 'several problems at once (all reported, but duplicate keys only once the criteria parse)',
    definition: {
      version: 2,
      criteria: [
        criterion({ weight: 11 }),
        criterion({ key: 'other', phrases: undefined }),
        criterion({ label: 'Dup' }),
      ],
    },
    paths: ['version', 'criteria[0].weight', 'criteria[1].phrases'],
  },
];

const TABLE: Record<string, Case[]> = {
  createCalibrationSession: (() => {
    const input = (f: Fixtures, over: Record<string, unknown> = {}) => ({
      input: {
        name: 'January',
        templateId: f.a.template.id,
        callIds: [f.a.call.id],
        graderIds: [f.A.users.analyst.id],
        ...over,
      },
    });
    return [
      { what: 'a blank name', as: 'admin', vars: (f) => input(f, { name: '  ' }), expect: invalid('invalid_input') },
      {
        what: 'a viewer as grader',
        as: 'admin',
        vars: (f) => input(f, { graderIds: [f.A.users.viewer.id] }),
        expect: invalid('invalid_input'),
      },
      {
        what: 'the benchmark also a grader',
        as: 'admin',
        vars: (f) => input(f, { benchmarkUserId: f.A.users.analyst.id }),
        expect: invalid('invalid_input'),
      },
      {
        what: 'neither calls nor a sample',
        as: 'admin',
        vars: (f) => input(f, { callIds: null }),
        expect: invalid('invalid_input'),
      },
      {
        what: 'a sample of 51 calls',
        as: 'admin',
        vars: (f) => input(f, { callIds: null, filter: {}, sampleSize: 51 }),
        expect: invalid('invalid_input'),
      },
      {
        what: 'a call not analyzed yet',
        as: 'admin',
        vars: (f) => input(f, { callIds: [f.calls.queued.id] }),
        expect: conflict('not_ready'),
      },
      {
        what: 'a deleted template',
        as: 'admin',
        vars: (f) => input(f, { templateId: f.deletedTemplate.id }),
        expect: notFound,
      },
    ];
  })(),
  saveCalibrationAnswers: [
    {
      what: 'a criterion outside the session',
      as: 'analyst',
      vars: (f) => ({
        sessionId: f.calibration.open,
        callId: f.calibration.callId,
        answers: [{ key: 'nope', result: 'PASSED' }],
      }),
      expect: notFound,
    },
    {
      what: 'no answers',
      as: 'analyst',
      vars: (f) => ({ sessionId: f.calibration.open, callId: f.calibration.callId, answers: [] }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a closed session',
      as: 'analyst',
      vars: (f) => ({
        sessionId: f.calibration.closed,
        callId: f.calibration.callId,
        answers: [{ key: 'greeting', result: 'PASSED' }],
      }),
      expect: conflict('calibration_closed'),
    },
    {
      what: 'a session the user does not grade',
      as: 'admin',
      vars: (f) => ({
        sessionId: f.calibration.open,
        callId: f.calibration.callId,
        answers: [{ key: 'greeting', result: 'PASSED' }],
      }),
      expect: notFound,
    },
  ],
  setMachineAgreementThreshold: [
    { what: 'a threshold of 101', as: 'admin', vars: () => ({ percent: 101 }), expect: invalid('invalid_input') },
    { what: 'a threshold of −1', as: 'admin', vars: () => ({ percent: -1 }), expect: invalid('invalid_input') },
  ],
  startBulkReanalysis: [
    {
      what: 'a search of 501 characters',
      as: 'analyst',
      vars: () => ({ filter: { search: 'x'.repeat(501) } }),
      expect: invalid('invalid_search'),
    },
    { what: 'an unknown template', as: 'analyst', vars: () => ({ templateId: UNKNOWN_ID }), expect: notFound },
    {
      what: "another account's template",
      as: 'analyst',
      vars: (f) => ({ templateId: f.b.template.id }),
      expect: notFound,
    },
  ],
  cancelBulkReanalysis: [
    { what: 'an unknown bulk re-analysis', as: 'analyst', vars: () => ({ id: UNKNOWN_ID }), expect: notFound },
  ],
  assignReview: [
    { what: 'an unknown call', as: 'analyst', vars: () => ({ callId: UNKNOWN_ID }), expect: notFound },
    { what: "another account's call", as: 'analyst', vars: (f) => ({ callId: f.b.call.id }), expect: notFound },
  ],
  completeReview: [
    { what: 'an unknown call', as: 'analyst', vars: () => ({ callId: UNKNOWN_ID, done: true }), expect: notFound },
    { what: 'a malformed call id', as: 'analyst', vars: () => ({ callId: 'nope' }), expect: notFound },
  ],
  setReviewSamplePercent: [
    {
      what: 'more than 100 percent',
      as: 'analyst',
      vars: () => ({ percent: 101 }),
      expect: invalid('invalid_input', 'percent'),
    },
    {
      what: 'a negative percentage',
      as: 'analyst',
      vars: () => ({ percent: -1 }),
      expect: invalid('invalid_input', 'percent'),
    },
  ],
  setLanguageDefaultTemplate: [
    {
      what: 'a language name instead of a code',
      as: 'analyst',
      vars: (f) => ({ language: 'Spanish', id: f.a.template.id }),
      expect: invalid('invalid_language'),
    },
    { what: 'an unknown template', as: 'analyst', vars: () => ({ language: 'es', id: UNKNOWN_ID }), expect: notFound },
  ],
  setVocabulary: [
    {
      what: 'an entry of 61 characters',
      as: 'admin',
      vars: () => ({ words: ['Acme', 'x'.repeat(61)] }),
      expect: invalid('invalid_input', '1'),
    },
    {
      what: '501 different entries',
      as: 'admin',
      vars: () => ({ words: Array.from({ length: 501 }, (_, i) => `word ${i}`) }),
      expect: invalid('invalid_input', ''),
    },
  ],
  setRedaction: [
    {
      what: 'redaction on with no detector',
      as: 'admin',
      vars: () => ({ mode: 'TEXT_AUDIO', kinds: [] }),
      expect: invalid('invalid_input', 'kinds'),
    },
  ],
  updateAccountSettings: [
    {
      what: 'an unknown time zone',
      as: 'admin',
      vars: () => ({ timeZone: 'Mars/Olympus_Mons' }),
      expect: invalid('invalid_time_zone'),
    },
    {
      what: 'a misspelt time zone',
      as: 'admin',
      vars: () => ({ timeZone: 'Europe/Madird' }),
      expect: invalid('invalid_time_zone'),
    },
    { what: 'an empty time zone', as: 'admin', vars: () => ({ timeZone: '' }), expect: invalid('invalid_time_zone') },
    {
      what: 'score bands with amber above green',
      as: 'admin',
      vars: () => ({ scoreGood: 60, scoreFair: 80 }),
      expect: invalid('invalid_score_bands'),
    },
    {
      what: 'score bands out of 0–100',
      as: 'admin',
      vars: () => ({ scoreGood: 120, scoreFair: 60 }),
      expect: invalid('invalid_score_bands'),
    },
    {
      what: 'only one score band',
      as: 'admin',
      vars: () => ({ scoreGood: 90 }),
      expect: invalid('invalid_score_bands'),
    },
    {
      what: 'a dispute window of 0 days',
      as: 'admin',
      vars: () => ({ disputeWindowDays: 0 }),
      expect: invalid('invalid_dispute_window'),
    },
  ],
  overrideCriterion: [
    {
      what: 'an empty note',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, key: 'greeting', result: 'FAILED', note: '  ' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a criterion the call does not have',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, key: 'nope', result: 'FAILED', note: 'x' }),
      expect: notFound,
    },
    {
      what: 'a call being analyzed',
      as: 'analyst',
      vars: (f) => ({ callId: f.calls.analyzing.id, key: 'greeting', result: 'FAILED', note: 'x' }),
      expect: conflict('not_ready'),
    },
    {
      what: 'an unknown call',
      as: 'analyst',
      vars: () => ({ callId: UNKNOWN_ID, key: 'greeting', result: 'FAILED', note: 'x' }),
      expect: notFound,
    },
  ],
  addCallComment: [
    {
      what: 'an empty comment',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, body: '' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a moment before the recording',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, body: 'x', atSeconds: -1 }),
      expect: invalid('invalid_input'),
    },
    { what: 'an unknown call', as: 'analyst', vars: () => ({ callId: UNKNOWN_ID, body: 'x' }), expect: notFound },
  ],
  acknowledgeCall: [
    { what: 'a user who is not an agent', as: 'analyst', vars: (f) => ({ id: f.a.call.id }), expect: forbidden },
    { what: 'an unknown call', as: 'agent', vars: () => ({ id: UNKNOWN_ID }), expect: notFound },
    {
      what: 'a call not scored yet',
      as: 'agent',
      vars: (f) => ({ id: f.calls.queued.id }),
      expect: conflict('not_ready'),
    },
  ],
  disputeCriterion: [
    {
      what: 'an empty comment',
      as: 'agent',
      vars: (f) => ({ callId: f.a.call.id, key: 'greeting', comment: ' ' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a criterion already disputed',
      as: 'agent',
      vars: (f) => ({ callId: f.a.call.id, key: 'greeting', comment: 'again' }),
      expect: conflict('already_disputed'),
    },
    {
      what: 'a criterion the call does not have',
      as: 'agent',
      vars: (f) => ({ callId: f.a.call.id, key: 'nope', comment: 'x' }),
      expect: notFound,
    },
    {
      what: 'a user who is not an agent',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, key: 'greeting', comment: 'x' }),
      expect: forbidden,
    },
  ],
  assignCoaching: [
    {
      what: 'nothing to improve',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, criterionKeys: ['greeting'], improve: ' ' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'no criterion',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, criterionKeys: [], improve: 'x' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a criterion the call does not have',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, criterionKeys: ['nope'], improve: 'x' }),
      expect: notFound,
    },
    {
      what: 'a moment after the recording',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, criterionKeys: ['greeting'], improve: 'x', moments: [100_000] }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a due day that does not exist',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, criterionKeys: ['greeting'], improve: 'x', dueOn: '2026-02-30' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'a call being analyzed',
      as: 'analyst',
      vars: (f) => ({ callId: f.calls.analyzing.id, criterionKeys: ['greeting'], improve: 'x' }),
      expect: conflict('not_ready'),
    },
    {
      what: 'an unknown call',
      as: 'analyst',
      vars: () => ({ callId: UNKNOWN_ID, criterionKeys: ['greeting'], improve: 'x' }),
      expect: notFound,
    },
  ],
  completeCoaching: [
    {
      what: 'an empty note',
      as: 'analyst',
      vars: (f) => ({ id: f.a.coaching.id, note: '' }),
      expect: invalid('invalid_input'),
    },
    { what: 'an unknown item', as: 'analyst', vars: () => ({ id: UNKNOWN_ID, note: 'x' }), expect: notFound },
  ],
  acknowledgeCoaching: [
    { what: 'a user who is not an agent', as: 'analyst', vars: (f) => ({ id: f.a.coaching.id }), expect: forbidden },
    { what: 'an unknown item', as: 'agent', vars: () => ({ id: UNKNOWN_ID }), expect: notFound },
  ],
  resolveDispute: [
    {
      what: 'an empty reply',
      as: 'analyst',
      vars: (f) => ({ id: f.a.dispute.id, accept: false, reply: '' }),
      expect: invalid('invalid_input'),
    },
    {
      what: 'an unknown dispute',
      as: 'analyst',
      vars: () => ({ id: UNKNOWN_ID, accept: false, reply: 'no' }),
      expect: notFound,
    },
  ],
  createAgent: [
    {
      what: 'a blank name',
      as: 'admin',
      vars: () => ({ input: { name: '   ' } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'a name over 200 characters',
      as: 'admin',
      vars: () => ({ input: { name: x(201) } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'a code over 100 characters',
      as: 'admin',
      vars: () => ({ input: { name: 'Ana', telephonyCode: x(101) } }),
      expect: invalid('invalid_input', 'telephonyCode'),
    },
    {
      what: 'a blank name and an overlong code (both reported)',
      as: 'admin',
      vars: () => ({ input: { name: '', telephonyCode: x(101) } }),
      expect: invalid('invalid_input', 'name', 'telephonyCode'),
    },
    {
      what: 'a code of separators only',
      as: 'admin',
      vars: () => ({ input: { name: 'Ana', telephonyCode: ' -_- ' } }),
      expect: invalid('invalid_code'),
    },
    {
      what: 'a code taken, written differently',
      as: 'admin',
      vars: () => ({ input: { name: 'Ana', telephonyCode: 'acme_7' } }),
      expect: conflict('code_taken'),
    },
  ],
  updateAgent: [
    {
      what: 'a blank name',
      as: 'admin',
      vars: (f) => ({ id: f.secondAgent.id, input: { name: ' ' } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'a name over 200 characters',
      as: 'admin',
      vars: (f) => ({ id: f.secondAgent.id, input: { name: x(201) } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'a code of separators only',
      as: 'admin',
      vars: (f) => ({ id: f.secondAgent.id, input: { telephonyCode: '--' } }),
      expect: invalid('invalid_code'),
    },
    {
      what: 'the code of another agent',
      as: 'admin',
      vars: (f) => ({ id: f.secondAgent.id, input: { telephonyCode: 'ACME 7' } }),
      expect: conflict('code_taken'),
    },
    { what: 'an unknown id', as: 'admin', vars: () => ({ id: UNKNOWN_ID, input: { name: 'Ana' } }), expect: notFound },
    { what: 'a malformed id', as: 'admin', vars: () => ({ id: 'agent-1', input: { name: 'Ana' } }), expect: notFound },
  ],
  createCampaign: [
    {
      what: 'a blank name',
      as: 'analyst',
      vars: () => ({ input: { name: '  ' } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'a name over 200 characters',
      as: 'analyst',
      vars: () => ({ input: { name: x(201) } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'a name taken (case and spacing differ)',
      as: 'analyst',
      vars: () => ({ input: { name: 'ACME  campaign' } }),
      expect: conflict('name_taken'),
    },
    {
      what: 'a name taken (accents differ)',
      as: 'analyst',
      vars: () => ({ input: { name: 'Ácme Campaign' } }),
      expect: conflict('name_taken'),
    },
    {
      what: 'an unknown language code',
      as: 'analyst',
      vars: () => ({ input: { name: 'Spring', language: 'xx' } }),
      expect: invalid('invalid_language'),
    },
    {
      what: 'a language name instead of a code',
      as: 'analyst',
      vars: () => ({ input: { name: 'Spring', language: 'english' } }),
      expect: invalid('invalid_language'),
    },
    {
      what: 'an unknown template',
      as: 'analyst',
      vars: () => ({ input: { name: 'Spring', templateId: UNKNOWN_ID } }),
      expect: notFound,
    },
    {
      what: 'a malformed template id',
      as: 'analyst',
      vars: () => ({ input: { name: 'Spring', templateId: 'tpl-1' } }),
      expect: notFound,
    },
    {
      what: 'a deleted template',
      as: 'analyst',
      vars: (f) => ({ input: { name: 'Spring', templateId: f.deletedTemplate.id } }),
      expect: notFound,
    },
  ],
  updateCampaign: [
    {
      what: 'a blank name',
      as: 'analyst',
      vars: (f) => ({ id: f.secondCampaign.id, input: { name: '' } }),
      expect: invalid('invalid_input', 'name'),
    },
    {
      what: 'the name of another campaign',
      as: 'analyst',
      vars: (f) => ({ id: f.secondCampaign.id, input: { name: 'acme campaign' } }),
      expect: conflict('name_taken'),
    },
    {
      what: 'an unknown language code',
      as: 'analyst',
      vars: (f) => ({ id: f.secondCampaign.id, input: { language: 'zz' } }),
      expect: invalid('invalid_language'),
    },
    {
      what: 'a deleted template',
      as: 'analyst',
      vars: (f) => ({ id: f.secondCampaign.id, input: { templateId: f.deletedTemplate.id } }),
      expect: notFound,
    },
    {
      what: 'an unknown id',
      as: 'analyst',
      vars: () => ({ id: UNKNOWN_ID, input: { name: 'Renamed' } }),
      expect: notFound,
    },
  ],
  createTemplate: [
    {
      what: 'a blank name',
      as: 'analyst',
      vars: () => ({ name: ' ', definition: VALID_DEFINITION }),
      expect: invalid('invalid_name'),
    },
    {
      what: 'a name over 200 characters',
      as: 'analyst',
      vars: () => ({ name: x(201), definition: VALID_DEFINITION }),
      expect: invalid('invalid_name'),
    },
    ...BAD_DEFINITIONS.map(
      (d): Case => ({
        what: d.what,
        as: 'analyst',
        vars: () => ({ name: 'Scorecard', definition: d.definition }),
        expect: invalidTemplate(...d.paths),
      }),
    ),
  ],
  updateTemplate: [
    {
      what: 'a blank name',
      as: 'analyst',
      vars: (f) => ({ id: f.a.template.id, name: '   ' }),
      expect: invalid('invalid_name'),
    },
    ...BAD_DEFINITIONS.filter((_, i) => i < 3).map(
      (d): Case => ({
        what: `${d.what}, with a valid new name (nothing saved)`,
        as: 'analyst',
        vars: (f) => ({ id: f.a.template.id, name: 'Renamed', definition: d.definition }),
        expect: invalidTemplate(...d.paths),
      }),
    ),
    {
      what: 'a deleted template',
      as: 'analyst',
      vars: (f) => ({ id: f.deletedTemplate.id, name: 'Back' }),
      expect: notFound,
    },
  ],
  previewTemplate: [
    {
      what: 'a phrase criterion without phrases',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, definition: definition([criterion({ phrases: undefined })]) }),
      expect: invalidTemplate('criteria[0].phrases'),
    },
    {
      what: 'a weight of 11',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, definition: definition([criterion({ weight: 11 })]) }),
      expect: invalidTemplate('criteria[0].weight'),
    },
    {
      what: 'JSON text that does not parse',
      as: 'analyst',
      vars: (f) => ({ callId: f.a.call.id, definition: '{' }),
      expect: invalidTemplate(''),
    },
    {
      what: 'an invalid definition is reported before an unknown call',
      as: 'analyst',
      vars: () => ({ callId: UNKNOWN_ID, definition: definition([]) }),
      expect: invalidTemplate('criteria'),
    },
    {
      what: 'a call not transcribed yet',
      as: 'analyst',
      vars: (f) => ({ callId: f.calls.queued.id, definition: VALID_DEFINITION }),
      expect: notFound,
    },
    {
      what: 'an unknown call',
      as: 'analyst',
      vars: () => ({ callId: UNKNOWN_ID, definition: VALID_DEFINITION }),
      expect: notFound,
    },
  ],
  reanalyzeCall: [
    {
      what: 'a call still queued',
      as: 'analyst',
      vars: (f) => ({ id: f.calls.queued.id }),
      expect: conflict('not_ready'),
    },
    {
      what: 'a call still transcribing',
      as: 'analyst',
      vars: (f) => ({ id: f.calls.transcribing.id }),
      expect: conflict('not_ready'),
    },
    {
      what: 'a call being analyzed',
      as: 'analyst',
      vars: (f) => ({ id: f.calls.analyzing.id }),
      expect: conflict('not_ready'),
    },
    {
      what: 'a failed call',
      as: 'analyst',
      vars: (f) => ({ id: f.calls.failed.id }),
      expect: conflict('not_transcribed'),
    },
    {
      what: 'a call no template applies to',
      as: 'analyst',
      account: 'C',
      vars: (f) => ({ id: f.calls.withoutTemplate.id }),
      expect: conflict('no_template'),
    },
    { what: 'an unknown call', as: 'analyst', vars: () => ({ id: UNKNOWN_ID }), expect: notFound },
  ],
  createApiKey: [
    // A single scalar argument is "the whole input": its issue path is empty.
    { what: 'a blank name', as: 'admin', vars: () => ({ name: '   ' }), expect: invalid('invalid_input', '') },
    {
      what: 'a name over 100 characters',
      as: 'admin',
      vars: () => ({ name: x(101) }),
      expect: invalid('invalid_input', ''),
    },
  ],
  inviteUser: [
    {
      what: 'role agent without an agent',
      as: 'admin',
      vars: () => ({ email: 'agent-new@example.com', role: 'AGENT' }),
      expect: invalid('agent_required'),
    },
    {
      what: 'role agent with an unknown agent (not found, as an agent of another account is)',
      as: 'admin',
      vars: () => ({ email: 'agent-new@example.com', role: 'AGENT', agentId: UNKNOWN_ID }),
      expect: notFound,
    },
    {
      what: 'not an email address',
      as: 'admin',
      vars: () => ({ email: 'not-an-email', role: 'VIEWER' }),
      expect: invalid('invalid_email'),
    },
    {
      what: 'an address without a domain dot',
      as: 'admin',
      vars: () => ({ email: 'ana@example', role: 'VIEWER' }),
      expect: invalid('invalid_email'),
    },
    {
      what: 'an empty address',
      as: 'admin',
      vars: () => ({ email: '', role: 'VIEWER' }),
      expect: invalid('invalid_email'),
    },
    {
      what: 'an address over 254 characters',
      as: 'admin',
      vars: () => ({ email: `${x(250)}@example.com`, role: 'VIEWER' }),
      expect: invalid('invalid_email'),
    },
    {
      what: 'the email of a member',
      as: 'admin',
      vars: (f) => ({ email: f.A.users.viewer.email, role: 'ANALYST' }),
      expect: conflict('email_taken'),
    },
    {
      what: 'the email of a member, upper-cased and padded',
      as: 'admin',
      vars: (f) => ({ email: ` ${f.A.users.analyst.email.toUpperCase()} `, role: 'VIEWER' }),
      expect: conflict('email_taken'),
    },
    {
      what: 'the email of a user of another account',
      as: 'admin',
      vars: (f) => ({ email: f.B.users.owner.email, role: 'VIEWER' }),
      expect: conflict('email_taken'),
    },
    {
      what: 'an admin inviting an owner',
      as: 'admin',
      vars: () => ({ email: 'boss@example.com', role: 'OWNER' }),
      expect: forbidden,
    },
  ],
  revokeInvitation: [
    {
      what: 'an invitation already accepted',
      as: 'admin',
      vars: (f) => ({ id: f.invitations.accepted.id }),
      expect: conflict('invitation_used'),
    },
    { what: 'an unknown invitation', as: 'admin', vars: () => ({ id: UNKNOWN_ID }), expect: notFound },
  ],
  changeUserRole: [
    {
      what: 'role agent without an agent',
      as: 'admin',
      vars: (f) => ({ userId: f.A.users.viewer.id, role: 'AGENT' }),
      expect: invalid('agent_required'),
    },
    {
      what: 'the last owner demoting themselves',
      as: 'owner',
      vars: (f) => ({ userId: f.A.users.owner.id, role: 'ADMIN' }),
      expect: conflict('last_owner'),
    },
    {
      what: 'an admin granting the owner role',
      as: 'admin',
      vars: (f) => ({ userId: f.A.users.analyst.id, role: 'OWNER' }),
      expect: forbidden,
    },
    {
      what: 'an admin demoting the owner',
      as: 'admin',
      vars: (f) => ({ userId: f.A.users.owner.id, role: 'VIEWER' }),
      expect: forbidden,
    },
    { what: 'an unknown user', as: 'admin', vars: () => ({ userId: UNKNOWN_ID, role: 'VIEWER' }), expect: notFound },
  ],
  deleteCall: [{ what: 'an unknown call', as: 'admin', vars: () => ({ id: UNKNOWN_ID }), expect: notFound }],
  deleteCalls: [
    {
      what: 'a confirmed count the filter no longer matches',
      as: 'admin',
      vars: () => ({ filter: {}, expectedCount: 999_999 }),
      expect: conflict('count_changed'),
    },
  ],
  updateRetention: [
    {
      what: 'zero days of recordings',
      as: 'admin',
      vars: () => ({ recordingDays: 0, transcriptDays: 30 }),
      expect: invalid('invalid_retention', 'recordingDays'),
    },
    {
      what: 'more than a century of transcripts',
      as: 'owner',
      vars: () => ({ recordingDays: null, transcriptDays: 36_501 }),
      expect: invalid('invalid_retention', 'transcriptDays'),
    },
  ],
  removeUser: [
    {
      what: 'the last owner removing themselves',
      as: 'owner',
      vars: (f) => ({ userId: f.A.users.owner.id }),
      expect: conflict('last_owner'),
    },
    {
      what: 'an admin removing the owner',
      as: 'admin',
      vars: (f) => ({ userId: f.A.users.owner.id }),
      expect: forbidden,
    },
    { what: 'an unknown user', as: 'admin', vars: () => ({ userId: UNKNOWN_ID }), expect: notFound },
  ],
  setWebhookEndpoint: [
    { what: 'an ftp:// URL', as: 'admin', vars: () => ({ url: 'ftp://x' }), expect: invalid('invalid_webhook_url') },
    {
      what: 'a plain http:// URL',
      as: 'admin',
      vars: () => ({ url: 'http://93.184.216.34/hook' }),
      expect: invalid('invalid_webhook_url'),
    },
    {
      what: 'a URL with credentials',
      as: 'admin',
      vars: () => ({ url: 'https://user:secret@hooks.example/h' }),
      expect: invalid('invalid_webhook_url'),
    },
    {
      what: 'a URL with a user name only',
      as: 'admin',
      vars: () => ({ url: 'https://user@hooks.example/h' }),
      expect: invalid('invalid_webhook_url'),
    },
    {
      what: 'not a URL',
      as: 'admin',
      vars: () => ({ url: 'hooks.example/h' }),
      expect: invalid('invalid_webhook_url'),
    },
    { what: 'an empty URL', as: 'admin', vars: () => ({ url: '' }), expect: invalid('invalid_webhook_url') },
    {
      what: 'a URL over 2000 characters',
      as: 'admin',
      vars: () => ({ url: `https://93.184.216.34/${x(2000)}` }),
      expect: invalid('invalid_webhook_url'),
    },
    {
      what: 'a private address',
      as: 'admin',
      vars: () => ({ url: 'https://10.0.0.1/h' }),
      expect: invalid('private_address'),
    },
    {
      what: 'loopback',
      as: 'admin',
      vars: () => ({ url: 'https://127.0.0.1:8443/h' }),
      expect: invalid('private_address'),
    },
    {
      what: 'loopback written as one number',
      as: 'admin',
      vars: () => ({ url: 'https://2130706433/h' }),
      expect: invalid('private_address'),
    },
    {
      what: 'cloud metadata',
      as: 'admin',
      vars: () => ({ url: 'https://169.254.169.254/latest/meta-data' }),
      expect: invalid('private_address'),
    },
    {
      what: 'IPv6 loopback',
      as: 'admin',
      vars: () => ({ url: 'https://[::1]/h' }),
      expect: invalid('private_address'),
    },
    {
      what: 'an IPv4-mapped private address',
      as: 'admin',
      vars: () => ({ url: 'https://[::ffff:192.168.1.1]/h' }),
      expect: invalid('private_address'),
    },
    {
      what: 'a name resolving to loopback',
      as: 'admin',
      vars: () => ({ url: 'https://localhost/h' }),
      expect: invalid('private_address'),
    },
    {
      what: 'a private address when no endpoint exists yet (none is created)',
      as: 'admin',
      account: 'C',
      vars: () => ({ url: 'https://10.0.0.1/h' }),
      expect: invalid('private_address'),
    },
  ],
  createWebhookEndpoint: [
    {
      what: 'an ftp:// URL',
      as: 'admin',
      vars: () => ({ input: { url: 'ftp://x' } }),
      expect: invalid('invalid_webhook_url'),
    },
    {
      what: 'a private address',
      as: 'admin',
      vars: () => ({ input: { url: 'https://10.0.0.1/h' } }),
      expect: invalid('private_address'),
    },
    {
      what: 'no event type',
      as: 'admin',
      vars: () => ({ input: { url: 'https://93.184.216.34/h', eventTypes: [] } }),
      expect: invalid('invalid_event_types'),
    },
    {
      what: 'a rate of 0 per second',
      as: 'admin',
      vars: () => ({ input: { url: 'https://93.184.216.34/h', ratePerSecond: 0 } }),
      expect: invalid('invalid_rate'),
    },
    {
      what: 'an unknown campaign',
      as: 'admin',
      vars: () => ({ input: { url: 'https://93.184.216.34/h', campaignId: UNKNOWN_ID } }),
      expect: notFound,
    },
  ],
  updateWebhookEndpoint: [
    {
      what: 'an unknown endpoint',
      as: 'admin',
      vars: () => ({ id: UNKNOWN_ID, input: { description: 'x' } }),
      expect: notFound,
    },
    {
      what: 'a URL with credentials',
      as: 'admin',
      vars: (f) => ({ id: f.a.endpoint.id, input: { url: 'https://u:p@hooks.example/h' } }),
      expect: invalid('invalid_webhook_url'),
    },
    {
      what: 'no event type',
      as: 'admin',
      vars: (f) => ({ id: f.a.endpoint.id, input: { eventTypes: [] } }),
      expect: invalid('invalid_event_types'),
    },
    {
      what: 'a rate over 1000 per second',
      as: 'admin',
      vars: (f) => ({ id: f.a.endpoint.id, input: { ratePerSecond: 1001 } }),
      expect: invalid('invalid_rate'),
    },
  ],
  replayWebhookDeliveries: [
    {
      what: 'a start in the future',
      as: 'admin',
      vars: (f) => ({ id: f.a.endpoint.id, since: new Date(Date.now() + 3_600_000).toISOString() }),
      expect: invalid('invalid_since'),
    },
    {
      what: 'an unknown endpoint',
      as: 'admin',
      vars: () => ({ id: UNKNOWN_ID, since: '2024-01-01T00:00:00Z' }),
      expect: notFound,
    },
    {
      what: 'a disabled endpoint',
      as: 'admin',
      account: 'B',
      vars: (f) => ({ id: f.b.endpoint.id, since: '2024-01-01T00:00:00Z' }),
      expect: conflict('webhook_disabled'),
    },
  ],
  redeliverWebhook: [
    { what: 'an unknown delivery', as: 'admin', vars: () => ({ deliveryId: UNKNOWN_ID }), expect: notFound },
    { what: 'a malformed delivery id', as: 'admin', vars: () => ({ deliveryId: 'msg_123' }), expect: notFound },
    {
      what: 'a delivery of a disabled endpoint',
      as: 'admin',
      account: 'B',
      vars: (f) => ({ deliveryId: f.b.delivery.id }),
      expect: conflict('webhook_disabled'),
    },
  ],
  updateMyProfile: [
    { what: 'an empty name', as: 'viewer', vars: () => ({ name: '   ' }), expect: invalid('invalid_name') },
    {
      what: 'a name of 201 characters',
      as: 'viewer',
      vars: () => ({ name: 'x'.repeat(201) }),
      expect: invalid('invalid_name'),
    },
  ],
  changePassword: [
    {
      what: 'a wrong current password',
      as: 'viewer',
      vars: () => ({ currentPassword: 'not my password', newPassword: 'a brand new password' }),
      expect: badCredentials,
    },
    {
      what: 'a wrong current password and a weak new one (credentials first)',
      as: 'viewer',
      vars: () => ({ currentPassword: 'nope', newPassword: 'short' }),
      expect: badCredentials,
    },
    {
      what: 'a new password of 9 characters',
      as: 'viewer',
      vars: () => ({ currentPassword: PASSWORD, newPassword: '123456789' }),
      expect: invalid('weak_password'),
    },
    {
      what: 'an empty new password',
      as: 'viewer',
      vars: () => ({ currentPassword: PASSWORD, newPassword: '' }),
      expect: invalid('weak_password'),
    },
    {
      what: 'a new password over 200 characters',
      as: 'viewer',
      vars: () => ({ currentPassword: PASSWORD, newPassword: x(201) }),
      expect: invalid('weak_password'),
    },
  ],
  signIn: [
    {
      what: 'an unknown email',
      as: 'anonymous',
      vars: () => ({ email: 'nobody@example.com', password: PASSWORD }),
      expect: badCredentials,
    },
    {
      what: 'a wrong password',
      as: 'anonymous',
      vars: (f) => ({ email: f.A.users.analyst.email, password: 'wrong password' }),
      expect: badCredentials,
    },
    {
      what: 'an email over 254 characters',
      as: 'anonymous',
      vars: () => ({ email: `${x(250)}@example.com`, password: PASSWORD }),
      expect: invalid('invalid_input', 'email'),
    },
    {
      what: 'a password over 1000 characters',
      as: 'anonymous',
      vars: (f) => ({ email: f.A.users.analyst.email, password: x(1001) }),
      expect: invalid('invalid_input', 'password'),
    },
  ],
  acceptInvitation: [
    {
      what: 'a bogus token',
      as: 'anonymous',
      vars: () => ({ token: 'bogus', name: 'Newcomer', password: 'long enough pw' }),
      expect: invalid('invalid_invitation'),
    },
    {
      what: 'an expired invitation',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.expired.token, name: 'Late', password: 'long enough pw' }),
      expect: invalid('invalid_invitation'),
    },
    {
      what: 'a revoked invitation',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.revoked.token, name: 'Revoked', password: 'long enough pw' }),
      expect: invalid('invalid_invitation'),
    },
    {
      what: 'an invitation already accepted',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.accepted.token, name: 'Again', password: 'long enough pw' }),
      expect: invalid('invalid_invitation'),
    },
    {
      what: 'a blank name (the invitation stays usable)',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.pending.token, name: '  ', password: 'long enough pw' }),
      expect: invalid('invalid_name'),
    },
    {
      what: 'a name over 200 characters',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.pending.token, name: x(201), password: 'long enough pw' }),
      expect: invalid('invalid_name'),
    },
    {
      what: 'a password of 9 characters',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.pending.token, name: 'Newcomer', password: '123456789' }),
      expect: invalid('weak_password'),
    },
    {
      what: 'an invitation for an address that already has a user (not consumed)',
      as: 'anonymous',
      vars: (f) => ({ token: f.invitations.emailTaken.token, name: 'Twin', password: 'long enough pw' }),
      expect: conflict('email_taken'),
    },
  ],
};

/** Mutations with no user input to get wrong, and why. Their arguments may only be an `id`. */
const NO_INPUT: Record<string, string> = {
  closeCalibrationSession: 'an id only; fails with not_found or calibration_closed (calibration.test.ts)',
  applyCalibrationBenchmark:
    'an id only; its failures (not_ready, no benchmark, calibration_closed) are session state (calibration.test.ts)',
  signOut: 'no arguments; a no-op when signed out',
  deactivateAgent: 'an id only; unknown and foreign ids are NotFoundError (tenant-isolation.test.ts); idempotent',
  reactivateAgent: 'an id only; its one failure, seat_limit, is plan state (agents.test.ts)',
  archiveCampaign: 'an id only; idempotent',
  unarchiveCampaign: 'an id only; idempotent',
  deleteTemplate: 'an id only',
  setDefaultTemplate: 'an optional id only (null clears the default)',
  revokeApiKey: 'an id only; revoking twice is idempotent',
  rotateWebhookSecret: 'an optional endpoint id only; fails only with not_found',
  reissueWebhookSecret: 'an endpoint id only; fails only with not_found',
  revealWebhookSecret: 'an optional endpoint id only; fails only with not_found',
  disableWebhookEndpoint: 'an optional endpoint id only; fails only with not_found',
  enableWebhookEndpoint: 'an optional endpoint id only; fails only with not_found',
  removeWebhookEndpoint: 'an optional endpoint id only; fails only with not_found',
  sendTestWebhook: 'an optional endpoint id only; its failures (not_found, webhook_disabled) are endpoint state',
};

// ---------------------------------------------------------------------------------------------
// Running a case

const mutationFields = schema.getMutationType()!.getFields();
const SELECTION = `__typename ... on Error { code message } ... on ValidationError { issues { path message } }`;

/** The document for one field, with a variable per argument given (types come from the built schema). */
function documentFor(field: string, vars: Record<string, unknown>): string {
  const def = mutationFields[field];
  if (!def) throw new Error(`no Mutation.${field}`);
  const unknown = Object.keys(vars).filter((k) => !def.args.some((a) => a.name === k));
  if (unknown.length) throw new Error(`Mutation.${field} has no argument ${unknown.join(', ')}`);
  const args = def.args.filter((a) => a.name in vars);
  const signature = args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ');
  const call = args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return `mutation${signature ? `(${signature})` : ''} { ${field}${call ? `(${call})` : ''} { ${SELECTION} } }`;
}

async function send(field: string, c: Case) {
  const browser = c.as === 'anonymous' ? new Browser(h.url) : c.as === 'agent' ? f.agent : f[c.account ?? 'A'].as[c.as];
  const vars = c.vars(f);
  const r = await browser.gql(documentFor(field, vars), vars);
  const where = `${field} (${c.what}): ${JSON.stringify(r.body).slice(0, 2000)}`;
  expect(r.body.errors, where).toBeUndefined();
  return { value: r.body.data?.[field], where };
}

function expectAnswer(value: any, e: Expected, where: string) {
  expect(value, where).toMatchObject({ __typename: e.__typename, ...(e.code !== undefined && { code: e.code }) });
  if (e.code !== undefined) expect(value.message, where).toMatch(/\S/);
  if (e.issues) {
    expect(
      value.issues.map((i: { path: string }) => i.path),
      where,
    ).toEqual(e.issues);
    for (const issue of value.issues) expect(issue.message, where).toMatch(/\S/);
  }
}

/** Every table a mutation could touch, across all accounts (session rows by id only: their expiry slides on use). */
async function snapshot() {
  const [row] = await t.sql(`
    SELECT json_build_object(
      'accounts', (SELECT json_agg(x ORDER BY id) FROM accounts x),
      'users', (SELECT json_agg(x ORDER BY id) FROM users x),
      'sessions', (SELECT json_agg(id ORDER BY id) FROM sessions),
      'invitations', (SELECT json_agg(x ORDER BY id) FROM invitations x),
      'agents', (SELECT json_agg(x ORDER BY id) FROM agents x),
      'campaigns', (SELECT json_agg(x ORDER BY id) FROM campaigns x),
      'templates', (SELECT json_agg(x ORDER BY id) FROM templates x),
      'apiKeys', (SELECT json_agg(x ORDER BY id) FROM api_keys x),
      'calls', (SELECT json_agg(json_build_object('id', id, 'status', status, 'rev', analysis_revision, 'template', template_id, 'updated', updated_at, 'score', score, 'criteria', criteria, 'ack', acknowledged_at, 'open', open_disputes) ORDER BY id) FROM calls),
      'reviews', (SELECT count(*) FROM criterion_reviews),
      'disputes', (SELECT json_agg(x ORDER BY id) FROM disputes x),
      'comments', (SELECT count(*) FROM call_comments),
      'calibrations', (SELECT json_agg(x ORDER BY id) FROM calibration_sessions x),
      'calibrationAnswers', (SELECT count(*) FROM calibration_answers),
      'callEvents', (SELECT count(*) FROM call_events),
      'endpoints', (SELECT json_agg(x ORDER BY id) FROM webhook_endpoints x),
      'deliveries', (SELECT json_agg(x ORDER BY id) FROM webhook_deliveries x),
      'attempts', (SELECT count(*) FROM webhook_attempts),
      'replays', (SELECT count(*) FROM webhook_replays),
      'jobs', (SELECT count(*) FROM graphile_worker._private_jobs),
      'tombstones', (SELECT count(*) FROM call_tombstones),
      'audit', (SELECT count(*) FROM audit_log),
      'usage', (SELECT json_agg(x ORDER BY account_id, period) FROM usage_totals x),
      'bulk', (SELECT count(*) FROM bulk_reanalyses),
      'reviews', (SELECT count(*) FROM call_reviews),
      'coaching', (SELECT json_agg(x ORDER BY id) FROM coaching_items x)
    ) AS snap`);
  return row.snap;
}

describe('validation errors of every mutation', () => {
  test('runs on a harness that refuses private webhook addresses', () => {
    // startGraphql leaves WEBHOOK_ALLOW_PRIVATE at its default; the private_address cases rely on it.
    expect(h.app.config.webhookAllowPrivate).toBe(false);
  });

  for (const [field, cases] of Object.entries(TABLE)) {
    describe(field, () => {
      for (const c of cases) {
        const as =
          c.as === 'anonymous' ? 'signed out' : `${c.as}${c.account && c.account !== 'A' ? ` of ${c.account}` : ''}`;
        test(`${c.what} → ${c.expect.__typename} ${c.expect.code} (${as}); nothing changes`, async () => {
          const before = await snapshot();
          const { value, where } = await send(field, c);
          expectAnswer(value, c.expect, where);
          expect(await snapshot(), `${where}: the database changed`).toEqual(before);
        });
      }
    });
  }

  test('covers every Mutation field of the built schema: in the table or explicitly without input', () => {
    const fields = Object.keys(mutationFields).sort();
    expect(
      fields.filter((n) => !(n in TABLE) && !(n in NO_INPUT)),
      'mutations missing from both TABLE and NO_INPUT',
    ).toEqual([]);
    expect(
      fields.filter((n) => n in TABLE && n in NO_INPUT),
      'mutations in both lists',
    ).toEqual([]);
    expect(
      [...Object.keys(TABLE), ...Object.keys(NO_INPUT)].filter((n) => !(n in mutationFields)),
      'entries for mutations that no longer exist',
    ).toEqual([]);
    for (const [field, cases] of Object.entries(TABLE)) expect(cases.length, field).toBeGreaterThan(0);
  });

  test('lists as "no input" only mutations whose arguments are at most an id', () => {
    for (const field of Object.keys(NO_INPUT)) {
      const args = mutationFields[field]?.args.map((a) => a.name) ?? [];
      expect(
        args.filter((a) => a !== 'id'),
        `${field} takes input; give it rows in TABLE`,
      ).toEqual([]);
    }
  });

  test('answers every ValidationError case with the error code of the ValidationError family', () => {
    // The errors plugin sorts DomainErrors into GraphQL types by code; a table row claiming a
    // ValidationError for a code of another family would be a typo in the table, not a finding.
    for (const cases of Object.values(TABLE)) {
      for (const c of cases) {
        if (c.expect.__typename === 'ValidationError')
          expect(c.expect.code, c.what).toMatch(
            /^(invalid_(?!credentials)\w+|weak_password|private_address|agent_required|unknown_agent)$/,
          );
      }
    }
  });
});
