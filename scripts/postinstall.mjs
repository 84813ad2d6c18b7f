// `npm install` finishes the set-up a bare machine needs:
// 1. Generates the Prisma client offline. Prisma's CLI wants a schema-engine binary for every command,
//    but `generate` never uses it; pointing the variable at any existing file lets it run without internet.
// 2. Installs the Moonshine speech models from the npm registry, checked against the sha256 sums in
//    models/ (scripts/models-fetch.ts; nothing is downloaded when the models directory (MODELS_DIR, else
//    .data/models) already holds them). A failure there does not fail the install: the service starts, keeps calls queued and
//    says what is missing on /readyz until `npm run models:fetch` succeeds.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('prisma/schema.prisma')) process.exit(0);
execFileSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  },
});

if (existsSync('scripts/models-fetch.ts') && existsSync('node_modules/tsx/dist/cli.mjs')) {
  const models = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/models-fetch.ts'], {
    stdio: 'inherit',
  });
  if (models.status !== 0)
    console.warn(
      'Speech models could not be installed (see above); calls will wait in the queue until `npm run models:fetch` succeeds.',
    );
}
