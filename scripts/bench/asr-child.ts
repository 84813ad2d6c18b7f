// One transcription in a fresh process for bench:asr's dense-speech runs: prints wall time, audio length
// and the process's peak RSS as JSON. Arguments: the audio file and the MoonshineEngine options as JSON.
import { resolveModelsDir, transcribeFile } from '../../src/transcription/index.ts';
import { MoonshineEngine } from '../../src/transcription/moonshine.ts';

const [file, options] = process.argv.slice(2);
const engine = new MoonshineEngine({ modelsDir: resolveModelsDir(), ...JSON.parse(options ?? '{}') });
// Load the model before timing, as a running worker has it loaded.
await engine.transcribeChunk(new Float32Array(16000), 'en');
const t0 = performance.now();
const result = await transcribeFile(file!, { engines: [engine], language: 'en' });
const wallSeconds = (performance.now() - t0) / 1000;
process.stdout.write(
  JSON.stringify({ wallSeconds, audioSeconds: result.durationSeconds, maxRssKb: process.resourceUsage().maxRSS }),
);
