import { defineConfig } from 'vitest/config';

// The integrator kit under its published name, from source (test/webhooks/kit-package.test.ts runs the packed build).
const kit = new URL('./src/webhooks/kit/index.ts', import.meta.url).pathname;

export default defineConfig({
  resolve: { alias: { '@escucha/webhooks': kit } },
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
