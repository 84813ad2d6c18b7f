import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * Where the Moonshine model folders live: MODELS_DIR if set, else `.data/models` in the repository
 * (filled by `npm install` / `npm run models:fetch`). It is in the repository whatever DATA_DIR is, so
 * one fetch serves every process; the project looks at no folder outside itself unless told to.
 */
export function resolveModelsDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MODELS_DIR) return path.resolve(env.MODELS_DIR);
  return path.join(repoRoot, '.data', 'models');
}
