import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import type { AppContext } from '../context.ts';
import { locate } from '../audio/binaries.ts';
import { moonshineLanguages } from '../transcription/moonshine.ts';

/** One named thing the service needs; `run` resolves to null when fine, else what is wrong and how to fix it. */
export interface ReadinessCheck {
  name: string;
  run(): Promise<string | null>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  message?: string;
}

export interface Readiness {
  ready: boolean;
  checks: CheckResult[];
}

const CHECK_TIMEOUT_MS = 3000;

/**
 * What /readyz, the start log and the admins' banner look at: the database, the storage folder, the
 * decoder, and an engine for each configured language. Models and binaries are looked at on each
 * call, so fixing one turns its check green without a restart. More checks are added to this list.
 */
export function readinessChecks(app: AppContext): ReadinessCheck[] {
  const { config } = app;
  const checks: ReadinessCheck[] = [
    {
      name: 'database',
      run: async () => {
        await app.db.$queryRaw`SELECT 1`;
        return null;
      },
    },
    {
      name: 'storage',
      run: async () => {
        try {
          // Created on first use, as the storage itself does.
          await mkdir(config.storageDir, { recursive: true });
          await access(config.storageDir, constants.W_OK | constants.X_OK);
          return null;
        } catch (err) {
          return `the storage folder ${config.storageDir} is not writable (${(err as NodeJS.ErrnoException).code}); check STORAGE_DIR`;
        }
      },
    },
    {
      name: 'decoder',
      run: async () => {
        const missing = [config.decoder.ffmpeg, config.decoder.ffprobe].filter((bin) => !locate(bin));
        return missing.length
          ? `cannot run ${missing.join(' and ')}: run \`npm install\` (it brings both) or set FFMPEG_PATH / FFPROBE_PATH`
          : null;
      },
    },
  ];
  for (const language of config.transcription.moonshineLanguages) {
    checks.push({
      name: `engine:${language}`,
      run: async () =>
        moonshineLanguages(config.modelsDir).includes(language)
          ? null
          : `no Moonshine model for '${language}' in ${config.modelsDir}: run \`npm run models:fetch\`, set MODELS_DIR, or leave '${language}' out of MOONSHINE_LANGUAGES`,
    });
  }
  if (config.transcription.openai) {
    // The API cannot be looked at without sending it audio; what the workers met says whether it answers.
    checks.push({
      name: 'transcription_api',
      run: async () => {
        const fault = app.faults?.list().find((f) => f.check === 'transcription_api');
        return fault ? `${fault.message} (since ${fault.since.toISOString()})` : null;
      },
    });
  }
  return checks;
}

/** Runs every check at once, each bounded in time; a check that throws or hangs fails with that. */
export async function checkReadiness(checks: ReadinessCheck[]): Promise<Readiness> {
  const results = await Promise.all(
    checks.map(async (check): Promise<CheckResult> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS} ms`), CHECK_TIMEOUT_MS);
      });
      try {
        const problem = await Promise.race([check.run(), timeout]);
        return problem ? { name: check.name, ok: false, message: problem } : { name: check.name, ok: true };
      } catch (err) {
        return {
          name: check.name,
          ok: false,
          message: err instanceof Error ? err.message.split('\n')[0]! : String(err),
        };
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return { ready: results.every((r) => r.ok), checks: results };
}
