/**
 * Plays a call's recording from a moment without leaving the page (the Disputes queue, issue 26):
 * one audio element for the page, shown with its controls beside the call it is playing.
 */
import { type ReactNode, useCallback, useRef, useState } from 'react';
import { useT } from '../i18n/index.tsx';
import { formatClock } from '../lib/format.ts';

export function useInlinePlayer(): {
  callId: string | null;
  play: (callId: string, at: number) => void;
  element: ReactNode;
} {
  const { t } = useT();
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState<{ callId: string; at: number } | null>(null);
  const play = useCallback((callId: string, at: number) => {
    setPlaying({ callId, at });
    // The element renders with the new source on this state change; start once it knows its length.
    requestAnimationFrame(() => {
      const a = audio.current;
      if (!a) return;
      const start = () => {
        a.currentTime = at;
        void a.play().catch(() => {});
      };
      if (a.readyState >= 1) start();
      else a.addEventListener('loadedmetadata', start, { once: true });
    });
  }, []);
  const element = playing && (
    <div className="inline-player" data-testid="inline-player">
      <span className="small muted">{t('disputes.playingFrom', { at: formatClock(playing.at) })}</span>
      {/* biome-ignore lint/a11y/useMediaCaption: the quote beside it is the text of what plays. */}
      <audio
        ref={audio}
        controls
        preload="metadata"
        src={`/api/calls/${encodeURIComponent(playing.callId)}/recording`}
        aria-label={t('callDetail.recording')}
      />
    </div>
  );
  return { callId: playing?.callId ?? null, play, element };
}
