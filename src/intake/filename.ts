import { normalizeCode } from '../domain/text.ts';
import { inRange } from './started-at.ts';
import { zonedTimeToUtc } from './zoned-time.ts';

/** What a recording's file name says (docs/api/product-decisions.md "File-name rules"); every field may be absent. */
export interface FileNameFacts {
  direction?: 'inbound' | 'outbound';
  startedAt?: Date;
  /** Normalized agent-code candidates in file-name order; the first one that is a team code wins. */
  agentCandidates: string[];
  /** Phone candidates in preference order, with the candidate they must not coincide with. */
  phones: { value: string; code: string }[];
}

const INBOUND = new Set(['in', 'inbound', 'incoming', 'entrante', 'entrada']);
const OUTBOUND = new Set(['out', 'outbound', 'outgoing', 'saliente', 'salida']);

interface Token {
  text: string;
  used: boolean;
}

export function parseFileName(fileName: string, timeZone: string, now = new Date()): FileNameFacts {
  const base = fileName.replace(/^.*[\\/]/, '').replace(/\.[A-Za-z0-9]{2,5}$/, '');
  // A leading "+" stays with the phone number it precedes; everything else splits.
  const tokens: Token[] = base
    .split(/[-_\s.]+|(?=\+)/)
    .filter(Boolean)
    .map((text) => ({ text, used: false }));
  const facts: FileNameFacts = { agentCandidates: [], phones: [] };

  for (const t of tokens) {
    const w = t.text.toLowerCase();
    if (!facts.direction && INBOUND.has(w)) (facts.direction = 'inbound'), (t.used = true);
    else if (!facts.direction && OUTBOUND.has(w)) (facts.direction = 'outbound'), (t.used = true);
  }

  facts.startedAt = findDate(tokens, timeZone, now);

  // FreePBX/Asterisk: {in|out}-{dst}-{src}-…: for "out" src is the agent extension and dst the
  // customer; for "in" the reverse. These positions are preferred over the generic scan.
  const fields = base.split('-');
  const freepbx = fields.length >= 5 && /^(in|out)$/i.test(fields[0]!) && /^\d{8}$/.test(fields[3] ?? '');
  if (freepbx) {
    const [dst, src] = [fields[1]!, fields[2]!];
    const [agentField, customerField] = fields[0]!.toLowerCase() === 'out' ? [src, dst] : [dst, src];
    facts.agentCandidates.push(normalizeCode(agentField));
    const phone = phoneOf(customerField);
    if (phone) facts.phones.push({ value: phone, code: normalizeCode(customerField) });
  }

  // Agent codes may contain separators ("AG_07", "ana-01"), so runs of up to three adjacent
  // tokens are tried joined, in file-name order.
  const free = tokens.filter((t) => !t.used);
  for (let i = 0; i < free.length; i++) {
    for (let n = 1; n <= 3 && i + n <= free.length; n++) {
      const code = normalizeCode(
        free
          .slice(i, i + n)
          .map((t) => t.text.replace(/^\+/, ''))
          .join(''),
      );
      if (code && !facts.agentCandidates.includes(code)) facts.agentCandidates.push(code);
    }
  }
  for (const t of free) {
    const phone = phoneOf(t.text);
    if (phone && !facts.phones.some((p) => p.value === phone))
      facts.phones.push({ value: phone, code: normalizeCode(t.text) });
  }
  return facts;
}

function phoneOf(token: string): string | null {
  if (!/^(\+|00)?\d{6,15}$/.test(token)) return null;
  // Asterisk unique ids are Unix times; a plausible one is a timestamp, not a customer's number.
  if (/^\d{10}$/.test(token) && inRange(Number(token) * 1000)) return null;
  return token;
}

const num = (t: Token | undefined, len: number) =>
  t && !t.used && new RegExp(`^\\d{${len}}$`).test(t.text) ? Number(t.text) : null;

function findDate(tokens: Token[], tz: string, now: Date): Date | undefined {
  const accept = (d: Date | null, used: Token[]) => {
    if (!d || !inRange(d.getTime(), now)) return undefined;
    for (const t of used) t.used = true;
    return d;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    // YYYYMMDD + HHMMSS, adjacent or joined by "T" (separators "-"/"_" already split them).
    const joined = /^(\d{4})(\d{2})(\d{2})(?:T?(\d{2})(\d{2})(\d{2}))?$/i.exec(t.text);
    if (joined && t.text.length !== 10 && t.text.length !== 13) {
      const [, y, mo, d, h, mi, s] = joined.map(Number) as number[];
      const next = tokens[i + 1];
      const time = h !== undefined && !Number.isNaN(h) ? null : next && /^(\d{2})(\d{2})(\d{2})$/.exec(next.text);
      const hh = time ? Number(time[1]) : h || 0,
        mm = time ? Number(time[2]) : mi || 0,
        ss = time ? Number(time[3]) : s || 0;
      const found = accept(zonedTimeToUtc(y!, mo!, d!, hh, mm, ss, tz), time ? [t, next!] : [t]);
      if (found) return found;
    }
    // YYYY-MM-DD, optionally followed by HH-MM-SS or HH.MM.SS (already split into tokens).
    const y = num(t, 4),
      mo = num(tokens[i + 1], 2),
      d = num(tokens[i + 2], 2);
    if (y !== null && mo !== null && d !== null) {
      const h = num(tokens[i + 3], 2),
        mi = num(tokens[i + 4], 2),
        s = num(tokens[i + 5], 2);
      const withTime = h !== null && mi !== null && s !== null;
      const found = accept(
        zonedTimeToUtc(y, mo, d, withTime ? h : 0, withTime ? mi : 0, withTime ? s : 0, tz),
        tokens.slice(i, i + (withTime ? 6 : 3)),
      );
      if (found) return found;
    }
  }
  // Unix time in seconds (10 digits, e.g. Asterisk's "1705311000.123") or milliseconds (13).
  for (const t of tokens) {
    if (t.used || !/^\d{10}$|^\d{13}$/.test(t.text)) continue;
    const found = accept(new Date(t.text.length === 13 ? Number(t.text) : Number(t.text) * 1000), [t]);
    if (found) return found;
  }
  return undefined;
}
