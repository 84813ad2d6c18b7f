// One transcription in a fresh process for bench:asr's dense-speech runs: prints wall and CPU time, audio
// length, the process's peak RSS and the transcript as JSON (CPU time is this process's: the ffmpeg child
// that decodes is not counted). Arguments: the audio file, the MoonshineEngine options as JSON (with `load`:
// the languages whose models are loaded first, default English) and the vocabulary as JSON (an array; empty: none).
import { writeFileSync } from 'node:fs';
import { resolveModelsDir, transcribeFile, warmVoiceDetection } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';
import { MoonshineThreads } from '../../src/transcription/moonshine-threads.ts';
import { peakRssKb } from './peak-rss.ts';

const [file, optionsJson, vocabularyJson] = process.argv.slice(2);
const vocabulary = JSON.parse(vocabularyJson ?? '[]') as string[];
const { load = ['en'], ...options } = { modelsDir: resolveModelsDir(), ...JSON.parse(optionsJson ?? '{}') };
// With `threads`, the worker's engine (a pool of recognition threads); without, one in this thread.
const engine = options.threads ? new MoonshineThreads(options) : new MoonshineEngine(options);
// Load the models of `load` (languages) before timing, on every thread, as a running worker that has
// heard calls in those languages has them loaded.
const second = new Float32Array(16000);
for (const language of load as string[])
  await Promise.all(Array.from({ length: options.threads ?? 1 }, () => engine.transcribeChunk(second, language)));
// The voice detector too, as a worker loads it with its engines (pipelineEngines in src/calls/transcribe-call.ts).
await warmVoiceDetection();
// Loading the model has a peak of its own (the ONNX files parsed and optimised), the same for any call:
// Linux resets the process's peak RSS on request, so the peak reported is the transcription's; the load's
// is read first (the process peak below is the larger of the two).
const loadPeakKb = peakRssKb();
const resetPeak = (() => {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
})();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
const result = await transcribeFile(file!, {
  engines: [engine],
  language: 'en',
  ...(vocabulary.length ? { vocabulary } : {}),
});
const wallSeconds = (performance.now() - t0) / 1000;
if (engine instanceof MoonshineThreads) await engine.close();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(
  JSON.stringify({
    wallSeconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    audioSeconds: result.durationSeconds,
    // Without the reset (not Linux), both are the process's peak.
    maxRssKb: peakRssKb(),
    processMaxRssKb: resetPeak ? Math.max(peakRssKb(), loadPeakKb) : peakRssKb(),
    loadMaxRssKb: loadPeakKb,
    text: result.segments.map((s) => s.text).join(' '),
  }),
);
