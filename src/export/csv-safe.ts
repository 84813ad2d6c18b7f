/**
 * Spreadsheet formula injection (CSV injection): Excel, LibreOffice and Google Sheets evaluate a
 * cell that starts with `=`, `+`, `-` or `@` as a formula — `=cmd|' /C calc'!A0` can run a program,
 * `=HYPERLINK(…)` can leak data — and a leading tab or carriage return can hide such a prefix from
 * a visual check while some importers strip it. Every text cell that came from outside (intake
 * fields, file names, agent and campaign names, transcript-derived summaries, template labels) is
 * therefore prefixed with `'`, which spreadsheets treat as "this is text" and do not display: this
 * is OWASP's recommendation (CSV Injection: prepend `'` to cells starting with = + - @ TAB CR;
 * quoting the field with `"` alone does not stop evaluation).
 *
 * One exception, and why it is safe: a phone number in international form (`+34 666 77 88 99`,
 * `+1 (555) 010-9999`) — a `+` followed only by digits, spaces, dots, dashes and parentheses. A
 * formula needs a function name, a cell or sheet reference, a `|` (DDE) or a string: none of those
 * can be written with those characters, so at worst a spreadsheet reads such a cell as arithmetic
 * (a number), which runs nothing and reaches nothing. Quoting it would instead put a literal `'`
 * in every phone number for anything that reads the CSV as data (a CRM import, pandas, psql
 * COPY), which is what users saw. Anything else starting with `+` (`+cmd|…`, `+A1`) still gets
 * the quote. Numbers the export emits itself (score, duration) are left alone: they are not text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** `+`, a digit, then only digits and the separators people write in phone numbers. */
const INTERNATIONAL_PHONE = /^\+\d[\d ().-]*$/;

export function safeText(value: string | null | undefined): string {
  if (value == null) return '';
  if (INTERNATIONAL_PHONE.test(value)) return value;
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * How every CSV download is written (csv-stringify options): a BOM so Excel reads UTF-8 (accents in
 * names) instead of the local code page; CRLF rows (RFC 4180). csv-stringify quotes a field only
 * for the full CRLF, so a text with a bare LF or CR is quoted explicitly: unquoted, spreadsheets
 * would break the row there.
 */
export const CSV_FORMAT = { bom: true, record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
