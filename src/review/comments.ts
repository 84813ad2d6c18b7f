import type { Db } from '../db/client.ts';
import { callScope, type CallViewer } from '../auth/call-scope.ts';
import { DomainError, notFound } from '../domain/errors.ts';
import { cleanNote } from './review.ts';

/**
 * Reviewers' comments on a call (issue 10.3), optionally pinned to a moment of the recording so
 * they show on the transcript's timeline. Comments are never edited: a correction is a new one.
 */
export async function addCallComment(
  db: Db,
  author: CallViewer & { id: string; name: string },
  input: { callId: string; body: string; atSeconds?: number | null },
) {
  const body = cleanNote(input.body, 'A comment');
  const call = await db.call.findFirst({
    where: { id: input.callId, ...callScope(author) },
    select: { id: true, durationSeconds: true },
  });
  if (!call) throw notFound('Call');
  const at = input.atSeconds ?? null;
  if (
    at !== null &&
    (!Number.isFinite(at) || at < 0 || (call.durationSeconds !== null && at > call.durationSeconds + 1))
  ) {
    throw new DomainError('invalid_input', 'A comment is pinned to a moment within the recording.');
  }
  return db.callComment.create({
    data: {
      accountId: author.accountId,
      callId: call.id,
      authorId: author.id,
      authorName: author.name,
      atSeconds: at,
      body,
    },
  });
}
