import { defineConfig } from 'prisma/config';

// Only `prisma generate` runs here (see README: migrations are applied by scripts/migrate.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
