import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The state of a call page's player (the managers' and the agent's): the audio element, the clock,
 * whether it plays, the duration the audio reported and whether it failed to load. A new call
 * starts from zero: the old one's clock and state must not carry over. `seek` jumps (and plays).
 * `everyFrame`: while playing, the clock follows the audio every frame (a smooth highlight);
 * otherwise the player's timeupdate moves it (that also covers pauses and seeks).
 */
export function useCallAudio(id: string, { everyFrame = false } = {}) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [time, setTime] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [audioDuration, setAudioDuration] = useState<number | null>(null);
  const [audioError, setAudioError] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on every change of call id.
  useEffect(() => {
    setTime(0);
    setPlaying(false);
    setAudioDuration(null);
    setAudioError(false);
  }, [id]);
  useEffect(() => {
    if (!playing || !everyFrame) return;
    let raf = 0;
    const tick = () => {
      if (audioRef.current) setTime(audioRef.current.currentTime);
      raf = requestAnimationFrame(tick);
    };
    raf = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(raf);
  }, [playing, everyFrame]);
  const seek = useCallback((seconds: number, play = true) => {
    const a = audioRef.current;
    if (!a) return;
    a.currentTime = Math.max(0, seconds);
    setTime(a.currentTime);
    if (play) void a.play().catch(() => {});
  }, []);
  return {
    audioRef,
    time,
    setTime,
    playing,
    setPlaying,
    audioDuration,
    setAudioDuration,
    audioError,
    setAudioError,
    seek,
  };
}
