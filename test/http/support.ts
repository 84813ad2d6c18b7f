import { createSession } from '../../src/auth/session.ts';
import type { Db } from '../../src/db/client.ts';
import type { UserRole } from '../../src/generated/prisma/client.ts';
import { wavBuffer } from '../support/intake.ts';

export interface Signed {
  userId: string;
  cookie: string;
  csrf: string;
  /** Headers of a browser request of this user; `csrf: false` leaves the token out. */
  headers(opts?: { csrf?: boolean }): Record<string, string>;
}

/**
 * A signed-in user of `role`: the session row is opened with createSession, exactly what the
 * GraphQL signIn mutation does after checking the password (these routes don't need GraphQL).
 */
export async function signedIn(db: Db, accountId: string, role: UserRole): Promise<Signed> {
  const user =
    (await db.user.findFirst({ where: { accountId, role, removedAt: null } })) ??
    (await db.user.create({
      data: {
        accountId,
        role,
        email: `${role}-${Math.random().toString(36).slice(2, 10)}@example.com`,
        name: `A ${role}`,
        passwordHash: 'x',
      },
    }));
  const { token, session } = await createSession(db, user.id);
  const cookie = `escucha_session=${token}`;
  return {
    userId: user.id,
    cookie,
    csrf: session.csrfToken,
    headers: (opts = {}) => ({ cookie, ...(opts.csrf !== false && { 'x-escucha-csrf': session.csrfToken }) }),
  };
}

/** A minimal RFC 4180 reader for assertions (quotes, doubled quotes, CRLF, newlines in fields). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') row.push(cell), (cell = '');
    else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell), rows.push(row), (row = []), (cell = ''), i++;
    } else if (ch === '\n') row.push(cell), rows.push(row), (row = []), (cell = '');
    else cell += ch;
  }
  if (cell !== '' || row.length) row.push(cell), rows.push(row);
  return rows;
}

/** A valid 16 kHz mono WAV header followed by a byte pattern, so any range is recognisable. */
export function wavBytes(total: number): Buffer<ArrayBuffer> {
  const buf = wavBuffer(total);
  for (let i = 44; i < total; i++) buf[i] = (i * 7) & 0xff;
  return buf;
}
