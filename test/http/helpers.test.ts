// The pure pieces behind the app routes: Range parsing, Content-Disposition, formula neutralising.
import { describe, expect, it } from 'vitest';
import { safeText } from '../../src/export/csv-safe.ts';
import { contentDisposition } from '../../src/http/content-disposition.ts';
import { parseRange } from '../../src/http/range.ts';
import { uploadLimits, UPLOAD_REQUEST_CAP } from '../../src/intake/manual-upload.ts';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-0', { kind: 'partial', start: 0, end: 0 }],
    ['bytes=10-', { kind: 'partial', start: 10, end: 99 }],
    ['bytes=90-500', { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-10', { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-500', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-1', { kind: 'full' }],
    ['bytes=0-1,4-5', { kind: 'full' }],
    ['items=0-1', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
  ])('%s of 100 bytes → %o', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});

describe('contentDisposition', () => {
  it('plain ASCII names stay as they are', () => {
    expect(contentDisposition('inline', 'call-1.wav')).toBe('inline; filename="call-1.wav"');
  });
  it('non-ASCII names get an ASCII fallback and an RFC 5987 filename*', () => {
    expect(contentDisposition('attachment', 'Peña 1ª.mp3')).toBe(
      `attachment; filename="Pena 1a.mp3"; filename*=UTF-8''Pe%C3%B1a%201%C2%AA.mp3`,
    );
  });
  it('quotes, backslashes and control characters cannot break out of the header', () => {
    const h = contentDisposition('inline', 'a"b\\c\r\nd.wav');
    expect(h).not.toMatch(/[\r\n]/);
    expect(h.startsWith('inline; filename="a_b_c__d.wav"; filename*=UTF-8\'\'')).toBe(true);
  });
});

describe('safeText', () => {
  it.each([
    ["=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"],
    // An international phone number stays as it is (no formula can be written with its characters)…
    ['+34600111222', '+34600111222'],
    ['+34 666 77 88 99', '+34 666 77 88 99'],
    ['+1 (555) 010-9999', '+1 (555) 010-9999'],
    // …but anything else after a `+` is still guarded.
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ['+A1', "'+A1"],
    ['+34=1', "'+34=1"],
    ['+', "'+"],
    ['-1', "'-1"],
    ['@SUM(1)', "'@SUM(1)"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['Ana', 'Ana'],
    ['a=b', 'a=b'],
    [null, ''],
  ])('%j → %j', (input, out) => expect(safeText(input)).toBe(out));
});

describe('uploadLimits', () => {
  it('per file = the plan limit; per request = 20 files, capped, but always room for one full file', () => {
    expect(uploadLimits(10_000n)).toEqual({ perFileBytes: 10_000, requestBytes: 200_000 + 1_048_576 });
    expect(uploadLimits(524_288_000n).requestBytes).toBe(UPLOAD_REQUEST_CAP + 1_048_576);
    expect(uploadLimits(4 * 1024 ** 3).requestBytes).toBe(4 * 1024 ** 3 + 1_048_576);
  });
});
