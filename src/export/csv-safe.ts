/**
 * Spreadsheet formula injection (CSV injection): Excel, LibreOffice and Google Sheets evaluate a
 * cell that starts with `=`, `+`, `-` or `@` as a formula — `=cmd|' /C calc'!A0` can run a program,
 * `=HYPERLINK(…)` can leak data — and a leading tab or carriage return can hide such a prefix from
 * a visual check while some importers strip it. Every text cell that came from outside (intake
 * fields, file names, agent and campaign names, transcript-derived summaries, template labels) is
 * therefore prefixed with `'`, which spreadsheets treat as "this is text" and do not display.
 * Numbers the export emits itself (score, duration) are left alone: they are not text, and a
 * quote would stop them being numbers. A customer phone like `+34…` IS text and gets the quote.
 * This is OWASP's recommendation; quoting the field with `"` alone does not stop evaluation.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function safeText(value: string | null | undefined): string {
  if (value == null) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * How every CSV download is written (csv-stringify options): a BOM so Excel reads UTF-8 (accents in
 * names) instead of the local code page; CRLF rows (RFC 4180). csv-stringify quotes a field only
 * for the full CRLF, so a text with a bare LF or CR is quoted explicitly: unquoted, spreadsheets
 * would break the row there.
 */
export const CSV_FORMAT = { bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
