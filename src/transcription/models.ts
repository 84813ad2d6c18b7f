import { existsSync } from 'node:fs';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Where the Moonshine model folders live: MODELS_DIR if set, else the machine-wide `../shared/models`
 * beside the repository when present, else `.data/models` (filled by `npm run models:fetch`).
 * `.data/models` is in the repository whatever DATA_DIR is, so one fetch serves every process.
 */
export function resolveModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MODELS_DIR) return path.resolve(env.MODELS_DIR);
  const shared = path.resolve(repoRoot, '..', 'shared', 'models');
  return existsSync(shared) ? shared : path.join(repoRoot, '.data', 'models');
}
