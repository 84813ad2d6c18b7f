// Issue 9 point 2: admins learn in the app what keeps calls waiting (the /readyz checks), and fixing it
// clears the banner without a restart.
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from '../support/harness.ts';
import { resolveModelsDir } from '../../src/transcription/models.ts';
import { seedAccount, testWithGraphql } from './support.ts';

const modelsDir = mkdtempSync(path.join(os.tmpdir(), 'escucha-gql-models-'));
const test = testWithGraphql({ MODELS_DIR: modelsDir, MOONSHINE_LANGUAGES: 'en' });

test.afterAll(() => rmSync(modelsDir, { recursive: true, force: true }));

const QUERY = `{ serviceStatus { ready problems { check message } } }`;

test('admins see what the operator must fix; it clears once fixed; viewers and analysts are refused', async ({
  gql: h,
}) => {
  const A = await seedAccount(h, 'Acme');
  const missing = await A.as.admin.gql(QUERY);
  expect(missing.body.data.serviceStatus).toEqual({
    ready: false,
    problems: [{ check: 'engine:en', message: expect.stringContaining(`no Moonshine model for 'en' in ${modelsDir}`) }],
  });
  symlinkSync(path.join(resolveModelsDir(), 'moonshine-base-en'), path.join(modelsDir, 'moonshine-base-en'));
  expect((await A.as.owner.gql(QUERY)).body.data.serviceStatus).toEqual({ ready: true, problems: [] });
  for (const role of ['viewer', 'analyst'] as const)
    expect((await A.as[role].gql(QUERY)).body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});
