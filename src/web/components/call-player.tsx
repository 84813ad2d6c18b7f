/** The sticky player of a call page, the managers' and the agent's: one recording, one set of controls. */
import type { ReactNode } from 'react';
import { useT } from '../i18n/index.tsx';
import type { useCallAudio } from '../lib/call-audio.ts';
import { Player, type PlayerSegment } from './Player.tsx';
import { Alert } from './ui.tsx';

/**
 * `call`'s recording on the state `audio` keeps, with its evidence and comment moments on the
 * timeline, previous/next (`nav`), and the audio's failure to load said above `children`.
 */
export function CallPlayer({
  call,
  audio,
  nav,
  duration,
  segments,
  redactions,
  children,
}: {
  call: {
    id: string;
    criteria?: readonly { evidence: readonly { start: number }[] }[] | null;
    comments: readonly { atSeconds?: number | null }[];
  };
  audio: ReturnType<typeof useCallAudio>;
  nav: { prev: string | null; next: string | null };
  duration: number;
  segments: PlayerSegment[];
  redactions?: readonly { start: number; end: number }[];
  children?: ReactNode;
}) {
  const { t } = useT();
  return (
    <Player
      audioRef={audio.audioRef}
      src={`/api/calls/${encodeURIComponent(call.id)}/recording`}
      label={t('callDetail.recording')}
      time={audio.time}
      duration={duration}
      playing={audio.playing}
      segments={segments}
      marks={(call.criteria ?? []).flatMap((c) => c.evidence.map((e) => e.start))}
      notes={call.comments.flatMap((c) => (c.atSeconds == null ? [] : [c.atSeconds]))}
      redactions={redactions}
      onSeek={audio.seek}
      onTime={audio.setTime}
      onPlaying={audio.setPlaying}
      onDuration={audio.setAudioDuration}
      onError={() => audio.setAudioError(true)}
      prevHref={nav.prev}
      nextHref={nav.next}
    >
      {audio.audioError && <Alert tone="amber">{t('callDetail.audioError')}</Alert>}
      {children}
    </Player>
  );
}
