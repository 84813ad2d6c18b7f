/**
 * The calls list's date range as ONE control: a picker of usual ranges (one Tab stop, where two
 * native date fields took six), with the two day fields only when "Custom range" is chosen. The days
 * are the account's (its time zone's "today"), like the list's filter and the dashboard.
 */
import { useId, useState } from 'react';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { addDays, dayIn } from '../lib/account-days.ts';
import { useFormat } from '../lib/format.ts';
import { TextField } from './ui.tsx';

export const RANGE_PRESETS = ['any', 'today', 'last7', 'last30', 'thisMonth', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

/**
 * The inclusive days of a preset, counted from `now` in the account's zone `timeZone` (null for
 * "any" and "custom").
 */
export function presetRange(
  preset: RangePreset,
  now = new Date(),
  timeZone?: string | null,
): { from: string; to: string } | null {
  const today = dayIn(now, timeZone);
  const back = (days: number) => addDays(today, -days);
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case 'last7':
      return { from: back(6), to: today };
    case 'last30':
      return { from: back(29), to: today };
    case 'thisMonth':
      return { from: `${today.slice(0, 8)}01`, to: today };
    default:
      return null;
  }
}

/** Which preset a range is (so a bookmarked "last 7 days" reads as such), else "custom". */
export function presetOf(
  from: string | null,
  to: string | null,
  now = new Date(),
  timeZone?: string | null,
): RangePreset {
  if (!from && !to) return 'any';
  for (const p of RANGE_PRESETS) {
    const r = presetRange(p, now, timeZone);
    if (r && r.from === from && r.to === to) return p;
  }
  return 'custom';
}

/** One day of the custom range, a small field named by its aria-label; an emptied field is no day (null). */
function DayInput({
  label,
  day,
  min,
  max,
  onDay,
}: {
  label: string;
  day: string | null;
  min?: string | null;
  max?: string | null;
  onDay: (day: string | null) => void;
}) {
  return (
    <input
      aria-label={label}
      className="input input-sm"
      type="date"
      value={day ?? ''}
      min={min ?? undefined}
      max={max ?? undefined}
      onChange={(e) => onDay(e.target.value || null)}
    />
  );
}

export function DateRangeField({
  from,
  to,
  onChange,
}: {
  from: string | null;
  to: string | null;
  onChange: (range: { from: string | null; to: string | null }) => void;
}) {
  const { t } = useT();
  const id = useId();
  const { timeZone } = useFormat();
  const current = presetOf(from, to, new Date(), timeZone);
  // "Custom" stays open while both days are still empty.
  const [customOpen, setCustomOpen] = useState(false);
  const preset = customOpen && current === 'any' ? 'custom' : current;
  return (
    <div className="field date-range">
      <label htmlFor={id}>{t('range.label')}</label>
      <select
        id={id}
        className="select"
        value={preset}
        onChange={(e) => {
          const p = e.target.value as RangePreset;
          setCustomOpen(p === 'custom');
          if (p === 'custom') return;
          const r = presetRange(p, new Date(), timeZone);
          onChange({ from: r?.from ?? null, to: r?.to ?? null });
        }}
      >
        {RANGE_PRESETS.map((p) => (
          <option key={p} value={p}>
            {t(`range.${p}` as MessageKey)}
          </option>
        ))}
      </select>
      {preset === 'custom' && (
        // biome-ignore lint/a11y/useSemanticElements: two fields of one range; a fieldset would bring its own border and legend.
        <div className="range" role="group" aria-label={t('range.custom')}>
          <DayInput label={t('calls.from')} day={from} max={to} onDay={(day) => onChange({ from: day, to })} />
          <DayInput label={t('calls.to')} day={to} min={from} onDay={(day) => onChange({ from, to: day })} />
        </div>
      )}
    </div>
  );
}

/**
 * Two day fields, "from" and "to", for forms that take a range of days as they are (no presets).
 * `linked`: neither day can be picked past the other.
 */
export function DayFields({
  from,
  to,
  labels: [fromLabel, toLabel],
  onFrom,
  onTo,
  linked = false,
}: {
  from: string;
  to: string;
  labels: [string, string];
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
  linked?: boolean;
}) {
  const bound = (day: string) => (linked ? day : undefined);
  return (
    <>
      <TextField label={fromLabel} type="date" value={from} max={bound(to)} onChange={(e) => onFrom(e.target.value)} />
      <TextField label={toLabel} type="date" value={to} min={bound(from)} onChange={(e) => onTo(e.target.value)} />
    </>
  );
}
