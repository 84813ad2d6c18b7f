// Building an Intl.DateTimeFormat costs far more than using one (about 0.7 ms a call in intake's
// profile); time zones are few, so one per zone is kept for the life of the process.
const monthFormats = new Map<string, Intl.DateTimeFormat>();
function monthFormat(timeZone: string): Intl.DateTimeFormat {
  let f = monthFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' });
    monthFormats.set(timeZone, f);
  }
  return f;
}

/** The usage period (calendar month, "YYYY-MM") of an instant in the account's time zone. */
export function periodOf(at: Date, timeZone: string): string {
  const parts = monthFormat(timeZone).formatToParts(at);
  const y = parts.find((p) => p.type === 'year')!.value;
  const m = parts.find((p) => p.type === 'month')!.value;
  return `${y}-${m}`;
}

export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
