/** Inline SVG charts: no chart library, sized by the viewBox, labelled for screen readers. */
import {
  type HTMLAttributes,
  type MouseEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from 'react';
import { navigate } from '../lib/router.tsx';
import { useT } from '../i18n/index.tsx';
import { formatCompact, formatDuration, formatNumber, formatPercent } from '../lib/format.ts';

export interface TalkSplit {
  agent: number | null;
  customer: number | null;
  speech: number;
  duration: number;
}

/** One horizontal bar: agent talk, customer talk, and silence as shares of the recording. */
export function TalkBar({ split }: { split: TalkSplit }) {
  const { t, locale } = useT();
  const d = split.duration > 0 ? split.duration : 1;
  const parts: { key: string; label: string; seconds: number; color: string }[] =
    split.agent != null && split.customer != null
      ? [
          { key: 'agent', label: t('speaker.agent'), seconds: split.agent, color: 'var(--agent)' },
          { key: 'customer', label: t('speaker.customer'), seconds: split.customer, color: 'var(--customer)' },
        ]
      : [{ key: 'speech', label: t('metrics.speech'), seconds: split.speech, color: 'var(--violet)' }];
  const talked = parts.reduce((s, p) => s + p.seconds, 0);
  const silence = Math.max(0, d - Math.min(d, split.speech));
  const all = [...parts, { key: 'silence', label: t('metrics.silence'), seconds: silence, color: 'var(--silence)' }];
  const total = Math.max(d, talked + silence);
  let x = 0;
  const summary = all.map((p) => `${p.label} ${formatPercent(p.seconds / total, locale)}`).join(', ');
  return (
    <figure style={{ margin: 0 }}>
      <svg
        className="chart"
        viewBox="0 0 400 44"
        role="img"
        aria-label={`${t('metrics.talkTime')}: ${summary}`}
        preserveAspectRatio="none"
        style={{ height: 44 }}
      >
        <defs>
          <clipPath id="talkbar-clip">
            <rect x="0" y="8" width="400" height="20" rx="6" />
          </clipPath>
        </defs>
        <g clipPath="url(#talkbar-clip)">
          {all.map((p) => {
            const w = (p.seconds / total) * 400;
            const rect = <rect key={p.key} x={x} y={8} width={Math.max(0, w)} height={20} style={{ fill: p.color }} />;
            x += w;
            return rect;
          })}
        </g>
      </svg>
      <figcaption className="legend" style={{ marginTop: 2 }}>
        {all.map((p) => (
          <span key={p.key}>
            <i style={{ background: p.color }} />
            {p.label} <strong className="num">{formatPercent(p.seconds / total, locale)}</strong>{' '}
            <span className="muted">({formatDuration(p.seconds, locale)})</span>
          </span>
        ))}
        <span className="muted small">{t('metrics.barOfRecording')}</span>
      </figcaption>
    </figure>
  );
}

export interface LegendItem {
  /** The swatch's colour (a series'); or `swatch`, the swatch's own props (a limit line, a class); neither: none. */
  color?: string;
  swatch?: HTMLAttributes<HTMLElement>;
  label: ReactNode;
  /** A figure after the name, in bold (`testId` on it). */
  value?: ReactNode;
  testId?: string;
}

/** A chart's key: a swatch and a name per series, and what the series adds up to where it says. */
export function Legend({ items }: { items: readonly LegendItem[] }) {
  return (
    <div className="legend">
      {items.map((item, i) => (
        <span key={i}>
          {(item.color || item.swatch) && (
            <i style={item.color ? { background: item.color } : undefined} {...item.swatch} />
          )}
          {item.label}
          {item.value !== undefined && (
            <>
              {' '}
              <strong className="num" data-testid={item.testId}>
                {item.value}
              </strong>
            </>
          )}
        </span>
      ))}
    </div>
  );
}

export interface BarDatum {
  label: string;
  /** Stacked values, bottom first; with `href`, the segment is a link to the calls it counts. */
  values: { value: number; color: string; name: string; href?: string }[];
  /** An optional limit line (e.g. plan minutes). */
  limit?: number;
}

/**
 * The width of the element `ref` is attached to, followed as it resizes (at least 280 px; 640 until
 * measured). Charts are drawn in real pixels at that width, so labels keep their size on any screen.
 */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => entry && setWidth(Math.max(280, Math.round(entry.contentRect.width))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [box, width];
}

/** Vertical stacked bars with a light grid, for usage per period. */
export function BarChart({ data, title, unit }: { data: BarDatum[]; title: string; unit?: string }) {
  const { locale } = useT();
  const [box, W] = useWidth();
  const max = Math.max(
    1,
    ...data.map((d) =>
      Math.max(
        d.limit ?? 0,
        d.values.reduce((s, v) => s + v.value, 0),
      ),
    ),
  );
  const { nice, ticks } = axisTicks(
    max,
    data.every(
      (d) => (d.limit == null || Number.isInteger(d.limit)) && d.values.every((v) => Number.isInteger(v.value)),
    ),
  );
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  // Slots at most 96 px wide, from the left: a few periods do not spread across the whole card.
  const slot = Math.min(96, iw / Math.max(1, data.length));
  const bw = Math.min(44, slot * 0.56);
  const y = (v: number) => PAD.t + ih - (v / nice) * ih;
  const desc = data
    .map(
      (d) =>
        `${d.label}: ${d.values.map((v) => `${v.name} ${formatNumber(v.value, locale)}${unit ? ` ${unit}` : ''}`).join(', ')}`,
    )
    .join('; ');
  return (
    <ChartFrame
      box={box}
      width={W}
      label={`${title}. ${desc}`}
      linked={data.some((d) => d.values.some((v) => v.href))}
      ticks={ticks}
      y={y}
    >
      {data.map((d, i) => {
        const cx = PAD.l + slot * (i + 0.5);
        let acc = 0;
        return (
          <g key={d.label}>
            {d.values.map((v) => {
              const y0 = y(acc);
              acc += v.value;
              const y1 = y(acc);
              const rect = (
                <rect
                  key={v.name}
                  x={cx - bw / 2}
                  y={y1}
                  width={bw}
                  height={Math.max(0, y0 - y1)}
                  rx={3}
                  style={{ fill: v.color }}
                />
              );
              return v.href && v.value > 0 ? (
                <SvgLink
                  key={v.name}
                  href={v.href}
                  label={`${d.label}: ${v.name} ${formatNumber(v.value, locale)}${unit ? ` ${unit}` : ''}`}
                  count={v.value}
                >
                  {rect}
                </SvgLink>
              ) : (
                rect
              );
            })}
            {d.limit != null && (
              <line
                x1={cx - bw / 2 - 6}
                x2={cx + bw / 2 + 6}
                y1={y(d.limit)}
                y2={y(d.limit)}
                stroke="var(--text-3)"
                strokeWidth={1.5}
                strokeDasharray="4 3"
              />
            )}
            <text x={cx} y={H - 8} textAnchor="middle">
              {d.label}
            </text>
          </g>
        );
      })}
    </ChartFrame>
  );
}

/** The charts' height and their plot's margins (the left one holds the axis labels). */
const H = 220;
const PAD = { l: 44, r: 12, t: 12, b: 28 };

/**
 * What both charts draw in: the SVG at the measured width with its accessible name, and the light
 * grid with the axis labels at `ticks` (values, placed by `y`).
 */
function ChartFrame({
  box,
  width: W,
  label,
  linked,
  ticks,
  y,
  children,
}: {
  box: RefObject<HTMLDivElement | null>;
  width: number;
  label: string;
  /** With links inside, a group (an image's children are not reachable); each link names its part. */
  linked: boolean;
  ticks: number[];
  y: (v: number) => number;
  children: ReactNode;
}) {
  const { locale } = useT();
  return (
    <div ref={box}>
      <svg
        className="chart"
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        role={linked ? 'group' : 'img'}
        aria-label={label}
      >
        {ticks.map((tv) => (
          <g key={tv}>
            <line
              x1={PAD.l}
              x2={W - PAD.r}
              y1={y(tv)}
              y2={y(tv)}
              stroke="var(--border)"
              strokeDasharray={tv === 0 ? undefined : '3 4'}
            />
            <text x={PAD.l - 8} y={y(tv) + 4} textAnchor="end">
              {formatCompact(Math.round(tv * 10) / 10, locale)}
            </text>
          </g>
        ))}
        {children}
      </svg>
    </div>
  );
}

/**
 * A part of a chart that opens the calls it counts (the dashboard's drill-down): an SVG link,
 * focusable and followed with Enter like any link, navigating inside the app.
 */
function SvgLink({
  href,
  label,
  count,
  children,
}: {
  href: string;
  label: string;
  count: number;
  children: ReactNode;
}) {
  const open = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={open} aria-label={label} data-drill={count} className="chart-link">
      <title>{label}</title>
      {children}
    </a>
  );
}

/**
 * The axis's top and its ticks. Counts (calls, minutes) get whole ticks only: a quarter of a top of 1
 * or 2 would label the axis "0.3", "0.5" (issue 26).
 */
export function axisTicks(max: number, integer: boolean): { nice: number; ticks: number[] } {
  if (!integer) {
    const nice = niceCeil(max);
    return { nice, ticks: [0, 0.25, 0.5, 0.75, 1].map((f) => f * nice) };
  }
  const p = 10 ** Math.floor(Math.log10(Math.max(1, max)));
  const nice = [1, 2, 5, 10].map((m) => m * p).find((v) => v >= max) ?? 10 * p;
  const step = nice <= 5 ? 1 : nice / 5;
  const ticks: number[] = [];
  for (let v = 0; v <= nice; v += step) ticks.push(v);
  return { nice, ticks };
}

function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

/** A ring showing a 0–100 score. */
export function ScoreRing({ score, color }: { score: number | null; color: string }) {
  const r = 36;
  const c = 2 * Math.PI * r;
  const f = score == null ? 0 : Math.max(0, Math.min(1, score / 100));
  return (
    <svg viewBox="0 0 84 84" width="84" height="84" aria-hidden="true">
      <circle cx="42" cy="42" r={r} fill="none" stroke="var(--surface-hover)" strokeWidth="8" />
      <circle
        cx="42"
        cy="42"
        r={r}
        fill="none"
        stroke={color}
        strokeWidth="8"
        strokeLinecap="round"
        strokeDasharray={`${c * f} ${c}`}
        transform="rotate(-90 42 42)"
      />
    </svg>
  );
}

export interface LineSeries {
  name: string;
  color: string;
  /** One value per label (null: no data in that bucket, the line is broken there). */
  values: (number | null)[];
  /** Text of a value for the accessible description (e.g. a formatted percentage). */
  format: (v: number) => string;
}

/** Lines over a fixed 0–`max` scale (scores and coverage as 0–100), drawn like BarChart. */
export function LineChart({
  labels,
  series,
  title,
  max = 100,
  links,
}: {
  labels: string[];
  series: LineSeries[];
  title: string;
  max?: number;
  /** Per bucket, the calls it is made of: the bucket's column is a link to them. */
  links?: ({ href: string; count: number; label: string } | null)[];
}) {
  const [box, W] = useWidth();
  const iw = W - PAD.l - PAD.r;
  const ih = H - PAD.t - PAD.b;
  const step = iw / Math.max(1, labels.length);
  const x = (i: number) => PAD.l + step * (i + 0.5);
  const y = (v: number) => PAD.t + ih - (Math.max(0, Math.min(max, v)) / max) * ih;
  // At most ~10 axis labels, evenly spaced, so days of a quarter do not overlap.
  const every = Math.max(1, Math.ceil(labels.length / 10));
  const desc = labels
    .map((l, i) =>
      [l, ...series.map((s) => `${s.name} ${s.values[i] == null ? '—' : s.format(s.values[i] as number)}`)].join(' '),
    )
    .join('; ');
  const path = (values: (number | null)[]) => {
    let d = '';
    let pen = false;
    values.forEach((v, i) => {
      if (v == null) {
        pen = false;
        return;
      }
      d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)} `;
      pen = true;
    });
    return d.trim();
  };
  return (
    <ChartFrame
      box={box}
      width={W}
      label={`${title}. ${desc}`}
      linked={!!links}
      ticks={[0, 0.25, 0.5, 0.75, 1].map((f) => f * max)}
      y={y}
    >
      {series.map((s) => (
        <g key={s.name}>
          <path d={path(s.values)} fill="none" strokeWidth={2} style={{ stroke: s.color }} />
          {s.values.map((v, i) =>
            v == null ? null : (
              // biome-ignore lint/suspicious/noArrayIndexKey: one point per bucket, in order.
              <circle key={i} cx={x(i)} cy={y(v)} r={labels.length > 60 ? 1.5 : 3} style={{ fill: s.color }} />
            ),
          )}
        </g>
      ))}
      {links?.map((link, i) =>
        link && link.count > 0 ? (
          <SvgLink key={labels[i]} href={link.href} label={link.label} count={link.count}>
            <rect x={x(i) - step / 2} y={PAD.t} width={step} height={ih} className="chart-hit" />
          </SvgLink>
        ) : null,
      )}
      {labels.map((l, i) =>
        i % every === 0 ? (
          <text key={l} x={x(i)} y={H - 8} textAnchor="middle">
            {l}
          </text>
        ) : null,
      )}
    </ChartFrame>
  );
}
