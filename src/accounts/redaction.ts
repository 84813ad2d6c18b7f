// The account's redaction settings (src/redaction does the work in the transcribe job).
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { type AuditBy, recordSettingsChanged } from './audit.ts';
import { PII_KINDS, type PiiKind } from '../redaction/detect.ts';

export const REDACTION_MODES = ['off', 'text', 'text_audio'] as const;
export type RedactionMode = (typeof REDACTION_MODES)[number];

export interface RedactionSettings {
  mode: RedactionMode;
  kinds: PiiKind[];
}

export const RedactionInput = z
  .object({
    mode: z.enum(REDACTION_MODES, { error: `mode is one of ${REDACTION_MODES.join(', ')}` }),
    kinds: z
      .array(z.enum(PII_KINDS, { error: `each detector is one of ${PII_KINDS.join(', ')}` }))
      .transform((k) => [...new Set(k)]),
  })
  // Redaction "on" with nothing to look for would say it protects calls while it protects none.
  .refine((s) => s.mode === 'off' || s.kinds.length > 0, {
    path: ['kinds'],
    error: 'Turn on at least one detector, or turn redaction off.',
  });

/** Read from a row: unknown values (a detector since removed) are dropped, not trusted. */
export function redactionOf(row: { redactionMode: string; redactionKinds: string[] }): RedactionSettings {
  const mode = (REDACTION_MODES as readonly string[]).includes(row.redactionMode)
    ? (row.redactionMode as RedactionMode)
    : 'off';
  return { mode, kinds: row.redactionKinds.filter((k): k is PiiKind => (PII_KINDS as readonly string[]).includes(k)) };
}

/** Takes effect for calls transcribed from now on; stored transcripts are not rewritten. */
export async function setRedaction(db: Db, accountId: string, settings: RedactionSettings, by?: AuditBy) {
  return db.$transaction(async (tx) => {
    const before = await tx.account.findUnique({ where: { id: accountId } });
    const updated = await tx.account.update({
      where: { id: accountId },
      data: { redactionMode: settings.mode, redactionKinds: settings.kinds },
    });
    await recordSettingsChanged(
      tx,
      by,
      accountId,
      'redaction.changed',
      before && { mode: before.redactionMode, kinds: before.redactionKinds },
      { mode: settings.mode, kinds: settings.kinds },
    );
    return updated;
  });
}
