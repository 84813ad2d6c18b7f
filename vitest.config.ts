import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/web/**/*.test.{ts,tsx}'],
    globalSetup: ['test/support/global-setup.ts'],
    setupFiles: ['test/support/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Conditions are awaited, never slept for; on a loaded 2-core machine a UI update can take more than 1 s.
    expect: { poll: { timeout: 10_000 } },
    // Two cores: files run in parallel processes, each on its own cloned database.
    pool: 'forks',
    maxWorkers: 2,
  },
});
