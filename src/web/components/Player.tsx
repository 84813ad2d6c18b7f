/**
 * The call page's player, sticky at the top of the page so evidence never plays out of sight:
 * play/pause, ±5 s and ±15 s, speed 0.75–2×, the speakers' timeline, previous/next call of the
 * list the call was opened from, and keyboard shortcuts (`?` lists them):
 *   Space play/pause · J / L back/forward 5 s (Shift: 15 s) · [ / ] slower/faster · N / P next/previous call.
 * Shortcuts are ignored while typing in a field, with a modifier key, or when a dialog is open.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useT, type MessageKey } from '../i18n/index.tsx';
import { formatClock, formatNumber } from '../lib/format.ts';
import { Link, navigate } from '../lib/router.tsx';
import { Icon } from './Icon.tsx';
import { Button, Dialog } from './ui.tsx';

export const SPEEDS = [0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** The next speed up or down the ladder, staying at its ends. */
export function stepSpeed(current: number, dir: 1 | -1): number {
  const i = SPEEDS.findIndex((s) => s >= current - 1e-9);
  const at = i < 0 ? SPEEDS.length - 1 : i;
  return SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, at + dir))]!;
}

export interface PlayerSegment {
  start: number;
  end: number;
  speaker: string;
}

/** The shortcuts, as the help dialog lists them. */
const SHORTCUTS: [string[], MessageKey][] = [
  [['Space'], 'player.keyPlay'],
  [['J', 'L'], 'player.keySkip5'],
  [['Shift+J', 'Shift+L'], 'player.keySkip15'],
  [['[', ']'], 'player.keySpeed'],
  [['P', 'N'], 'player.keyPrevNext'],
  [['?'], 'player.keyHelp'],
];

/** True when a key press belongs to what has focus (a field, a select, an open form) rather than to the player. */
function typingIn(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  // An open inline form (Override, Dispute, a reply) owns its keys, buttons included: N must not leave the page.
  if (el.closest('[data-inline-form]')) return true;
  const tag = el.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

export function Player({
  audioRef,
  src,
  label,
  time,
  duration,
  playing,
  segments,
  marks,
  notes = [],
  onSeek,
  onTime,
  onPlaying,
  onDuration,
  onError,
  prevHref,
  nextHref,
  children,
  redactions = [],
}: {
  audioRef: RefObject<HTMLAudioElement | null>;
  src: string;
  label: string;
  time: number;
  duration: number;
  playing: boolean;
  segments: PlayerSegment[];
  /** Moments with evidence, drawn as ticks on the timeline. */
  marks: number[];
  /** Moments reviewers pinned a comment to, drawn as taller ticks below the timeline. */
  notes?: number[];
  /** Spans of the recording replaced by a beep (audio redaction), drawn hatched across the timeline. */
  redactions?: readonly { start: number; end: number }[];
  onSeek: (seconds: number, play?: boolean) => void;
  onTime: (seconds: number) => void;
  onPlaying: (playing: boolean) => void;
  onDuration: (seconds: number) => void;
  onError: () => void;
  prevHref: string | null;
  nextHref: string | null;
  /** Below the controls (the audio error, the legend). */
  children?: ReactNode;
}) {
  const { t, locale } = useT();
  const [speed, setSpeed] = useState(1);
  const [help, setHelp] = useState(false);

  useEffect(() => {
    if (audioRef.current) audioRef.current.playbackRate = speed;
  }, [speed, audioRef]);

  const toggle = () => {
    const a = audioRef.current;
    if (!a) return;
    if (a.paused) void a.play().catch(() => {});
    else a.pause();
  };
  const skip = (by: number) => {
    const a = audioRef.current;
    if (!a) return;
    const end = Number.isFinite(a.duration) ? a.duration : duration;
    onSeek(Math.max(0, Math.min(end || 0, a.currentTime + by)), !a.paused);
  };

  // Shortcuts on the whole page while it is open. Latest handlers through a ref-free closure: the
  // listener is re-bound whenever what it calls changes (cheap: one listener).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (typingIn(document.activeElement) || document.querySelector('dialog[open]')) return;
      const target = document.activeElement;
      const k = e.key;
      if (k === ' ') {
        // Space on a transcript line or evidence plays/pauses instead of restarting it; on any
        // other button (Re-analyze, Download…) it keeps its usual meaning: press that button.
        const onOtherButton =
          target instanceof HTMLElement &&
          (target.tagName === 'BUTTON' || target.tagName === 'A' || target.getAttribute('role') === 'tab') &&
          !target.closest('.seg-row, .evidence, .player-controls');
        if (onOtherButton) return;
        e.preventDefault();
        toggle();
      } else if (k === 'j' || k === 'J') {
        e.preventDefault();
        skip(e.shiftKey ? -15 : -5);
      } else if (k === 'l' || k === 'L') {
        e.preventDefault();
        skip(e.shiftKey ? 15 : 5);
      } else if (k === '[') {
        e.preventDefault();
        setSpeed((s) => stepSpeed(s, -1));
      } else if (k === ']') {
        e.preventDefault();
        setSpeed((s) => stepSpeed(s, 1));
      } else if ((k === 'n' || k === 'N') && nextHref) {
        e.preventDefault();
        navigate(nextHref);
      } else if ((k === 'p' || k === 'P') && prevHref) {
        e.preventDefault();
        navigate(prevHref);
      } else if (k === '?') {
        e.preventDefault();
        setHelp(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  // Its height (it wraps at 960 px) tells the page how far below the top a heading or a focused
  // control must stop when scrolled to, so the sticky player never covers it (styles.css).
  const box = useRef<HTMLElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const root = document.documentElement;
    const set = () => root.style.setProperty('--sticky-top', `${Math.ceil(el.getBoundingClientRect().height) + 12}px`);
    set();
    const ro = new ResizeObserver(set);
    ro.observe(el);
    return () => {
      ro.disconnect();
      root.style.removeProperty('--sticky-top');
    };
  }, []);

  const pct = (s: number) => `${Math.max(0, Math.min(100, duration > 0 ? (s / duration) * 100 : 0))}%`;
  return (
    <section ref={box} className="card player-sticky" aria-label={t('player.label')} data-testid="player">
      {/* biome-ignore lint/a11y/useMediaCaption: the transcript beside the player is the recording's text. */}
      <audio
        ref={audioRef}
        preload="metadata"
        src={src}
        aria-label={label}
        data-testid="audio"
        onTimeUpdate={(e) => onTime(e.currentTarget.currentTime)}
        onSeeked={(e) => onTime(e.currentTarget.currentTime)}
        onPlay={() => onPlaying(true)}
        onPause={() => onPlaying(false)}
        onEnded={() => onPlaying(false)}
        onLoadedMetadata={(e) => {
          e.currentTarget.playbackRate = speed;
          if (Number.isFinite(e.currentTarget.duration)) onDuration(e.currentTarget.duration);
        }}
        onError={onError}
      />
      <div className="player-controls">
        <Button
          variant="primary"
          iconOnly
          icon={playing ? 'pause' : 'play'}
          aria-label={playing ? t('player.pause') : t('player.play')}
          title={`${playing ? t('player.pause') : t('player.play')} (Space)`}
          onClick={toggle}
          data-testid="play"
        />
        <Button
          size="sm"
          icon="back"
          onClick={() => skip(-15)}
          aria-label={t('player.back', { n: 15 })}
          title="Shift+J"
        >
          15
        </Button>
        <Button size="sm" icon="back" onClick={() => skip(-5)} aria-label={t('player.back', { n: 5 })} title="J">
          5
        </Button>
        <Button size="sm" icon="forward" onClick={() => skip(5)} aria-label={t('player.forward', { n: 5 })} title="L">
          5
        </Button>
        <Button
          size="sm"
          icon="forward"
          onClick={() => skip(15)}
          aria-label={t('player.forward', { n: 15 })}
          title="Shift+L"
        >
          15
        </Button>
        <span className="num small player-time" data-testid="player-time">
          {formatClock(time)} / {formatClock(duration)}
        </span>
        {/* A slider people and screen readers can use; the coloured bar beside it shows who speaks. */}
        <div className="player-track">
          <div className="player-bar" aria-hidden="true">
            {segments.map((s, i) => (
              <span
                key={i}
                className={`seg ${s.speaker}`}
                style={{
                  left: pct(s.start),
                  width: `max(2px, ${pct(s.end - s.start)})`,
                  top: s.speaker === 'customer' ? 15 : 5,
                  bottom: s.speaker === 'customer' ? 5 : 15,
                }}
              />
            ))}
            {redactions.map((r, i) => (
              <span
                key={`r${i}`}
                className="redaction"
                data-testid="redaction-mark"
                style={{ left: pct(r.start), width: `max(3px, ${pct(r.end - r.start)})` }}
              />
            ))}
            {marks.map((s, i) => (
              <span key={`e${i}`} className="ev" style={{ left: pct(s) }} />
            ))}
            {notes.map((s, i) => (
              <span key={`n${i}`} className="note" data-testid="comment-mark" style={{ left: pct(s) }} />
            ))}
            <span className="head" style={{ left: pct(time) }} />
          </div>
          <input
            type="range"
            className="player-seek"
            min={0}
            max={Math.max(1, duration)}
            step={0.1}
            value={Math.min(time, duration || 0)}
            aria-label={t('player.position')}
            aria-valuetext={`${formatClock(time)} / ${formatClock(duration)}`}
            onChange={(e) => onSeek(Number(e.target.value), playing)}
            data-testid="seek"
          />
        </div>
        <label className="row small player-speed">
          <span className="sr-only">{t('player.speed')}</span>
          <select
            className="select select-sm"
            value={speed}
            onChange={(e) => setSpeed(Number(e.target.value))}
            title={`${t('player.speed')} ([ ])`}
            data-testid="speed"
          >
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {formatNumber(s, locale, 2)}×
              </option>
            ))}
          </select>
        </label>
        <span className="player-nav">
          <CallStep to={prevHref} label={t('player.prevCall')} shortcut="P" icon="chevronLeft" />
          <CallStep to={nextHref} label={t('player.nextCall')} shortcut="N" icon="chevronRight" />
          <Button
            size="sm"
            variant="ghost"
            iconOnly
            icon="keyboard"
            aria-label={t('player.shortcuts')}
            title={`${t('player.shortcuts')} (?)`}
            onClick={() => setHelp(true)}
            data-testid="shortcuts"
          />
        </span>
      </div>
      {children}
      <Dialog
        open={help}
        onClose={() => setHelp(false)}
        title={t('player.shortcuts')}
        footer={<Button onClick={() => setHelp(false)}>{t('common.close')}</Button>}
      >
        <dl className="dl shortcuts" data-testid="shortcut-list">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={what} className="shortcut">
              <dt>
                {keys.map((k) => (
                  <kbd key={k} className="kbd">
                    {k}
                  </kbd>
                ))}
              </dt>
              <dd>{t(what)}</dd>
            </div>
          ))}
        </dl>
      </Dialog>
    </section>
  );
}

/** The way to the previous or next call of the list: a link, or a disabled button at the list's end. */
function CallStep({
  to,
  label,
  shortcut,
  icon,
}: {
  to: string | null;
  label: string;
  shortcut: string;
  icon: 'chevronLeft' | 'chevronRight';
}) {
  if (!to) return <Button size="sm" iconOnly icon={icon} disabled aria-label={label} />;
  return (
    <Link className="btn btn-sm btn-icon" to={to} aria-label={label} title={`${label} (${shortcut})`}>
      <Icon name={icon} size={14} />
    </Link>
  );
}
