import type { Db } from '../db/client.ts';
import { type AuditBy, recordSettingsChanged } from './audit.ts';
import { DomainError } from '../domain/errors.ts';
import { generatePassword, hashPassword } from './passwords.ts';
import { isValidTimeZone } from '../domain/period.ts';
import { MONO_SPEAKERS, type MonoSpeakers } from './mono-speakers.ts';
import { foldAccents } from '../domain/text.ts';

export interface NewAccount {
  name: string;
  minutes?: number;
  seats?: number;
  timeZone?: string;
  ownerEmail?: string;
}

/** Creates an account with its owner; the owner's password is returned once and stored only hashed. */
export async function createAccount(db: Db, input: NewAccount) {
  const name = input.name.trim();
  if (!name) throw new DomainError('invalid_name', 'The account needs a name.');
  const timeZone = input.timeZone ?? 'UTC';
  if (!isValidTimeZone(timeZone))
    throw new DomainError(
      'invalid_time_zone',
      `Unknown time zone "${timeZone}" (use an IANA name like Europe/Madrid).`,
    );
  for (const [label, v] of [
    ['minutes', input.minutes],
    ['seats', input.seats],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 0))
      throw new DomainError('invalid_plan', `Plan ${label} must be a whole number ≥ 0.`);
  }
  const password = generatePassword();
  const slug =
    foldAccents(name)
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'account';
  const email = (
    input.ownerEmail ?? `owner+${slug}-${Math.random().toString(36).slice(2, 8)}@escucha.local`
  ).toLowerCase();
  const account = await db.account.create({
    data: {
      name,
      timeZone,
      ...(input.minutes !== undefined && { planMinutes: input.minutes }),
      ...(input.seats !== undefined && { planSeats: input.seats }),
      users: { create: { email, name: 'Owner', role: 'owner', passwordHash: await hashPassword(password) } },
    },
  });
  return { account, owner: { email, password } };
}

export interface AccountSettings {
  /** Stereo channel that carries the agent: `left` (default) or `right`. */
  agentChannel?: 'left' | 'right';
  /** IANA time zone: local times in file names and the monthly usage period follow it. */
  timeZone?: string;
  /** Score colour bands: a score from `good` up is good, from `fair` up fair, below poor (0 ≤ fair < good ≤ 100). */
  scoreBands?: { good: number; fair: number };
  /** Days after analysis during which an agent may acknowledge a call or dispute a criterion (1–365). */
  disputeWindowDays?: number;
  /** Mono recordings: separate two voices, the agent being the one heard first or the one saying the template's phrases. */
  monoSpeakers?: MonoSpeakers;
}

/** Changes what is given; with `by`, the values that changed go to the audit log in the same transaction. */
export async function updateAccountSettings(db: Db, accountId: string, settings: AccountSettings, by?: AuditBy) {
  if (settings.agentChannel !== undefined && !['left', 'right'].includes(settings.agentChannel)) {
    throw new DomainError('invalid_agent_channel', 'The agent channel is `left` or `right`.');
  }
  if (settings.monoSpeakers !== undefined && !MONO_SPEAKERS.includes(settings.monoSpeakers)) {
    throw new DomainError('invalid_input', 'Mono speakers is `off`, `first_speaker` or `greeting`.');
  }
  if (settings.timeZone !== undefined && !isValidTimeZone(settings.timeZone)) {
    throw new DomainError(
      'invalid_time_zone',
      `Unknown time zone "${settings.timeZone}" (use an IANA name like Europe/Madrid).`,
    );
  }
  const bands = settings.scoreBands;
  if (
    bands !== undefined &&
    !(
      Number.isInteger(bands.good) &&
      Number.isInteger(bands.fair) &&
      bands.fair >= 0 &&
      bands.good <= 100 &&
      bands.fair < bands.good
    )
  ) {
    throw new DomainError(
      'invalid_score_bands',
      'Score bands are whole numbers with 0 ≤ fair < good ≤ 100 (for example good 80, fair 60).',
    );
  }
  if (
    settings.disputeWindowDays !== undefined &&
    !(
      Number.isInteger(settings.disputeWindowDays) &&
      settings.disputeWindowDays >= 1 &&
      settings.disputeWindowDays <= 365
    )
  ) {
    throw new DomainError('invalid_dispute_window', 'The dispute window is a whole number of days from 1 to 365.');
  }
  const data = {
    ...(bands !== undefined && { scoreGood: bands.good, scoreFair: bands.fair }),
    ...(settings.disputeWindowDays !== undefined && { disputeWindowDays: settings.disputeWindowDays }),
    ...(settings.agentChannel !== undefined && { agentChannel: settings.agentChannel }),
    ...(settings.timeZone !== undefined && { timeZone: settings.timeZone }),
    ...(settings.monoSpeakers !== undefined && { monoSpeakers: settings.monoSpeakers }),
  };
  return db.$transaction(async (tx) => {
    const before = await tx.account.findUnique({ where: { id: accountId } });
    const updated = await tx.account.update({ where: { id: accountId }, data });
    await recordSettingsChanged(tx, by, accountId, 'settings.changed', before, data);
    return updated;
  });
}
