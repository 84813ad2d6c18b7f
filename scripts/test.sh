#!/usr/bin/env bash
# `npm test`: installs whatever a fresh machine lacks, then type-checks and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."

# System tools the tests use for real: ffmpeg decodes, espeak-ng speaks fixtures, Chromium runs the web app,
# PgBouncer pools connections.
missing=()
# PgBouncer (in /usr/sbin) fronts the database in the pooler test (test/cluster/pgbouncer.test.ts).
for pair in ffmpeg:ffmpeg ffprobe:ffmpeg espeak-ng:espeak-ng sox:sox chromium:chromium pgbouncer:pgbouncer; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || [ -x "/usr/sbin/${pair%%:*}" ] || missing+=("${pair#*:}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $(printf '%s\n' "${missing[@]}" | sort -u) >/dev/null
fi

# npm packages (Node 24 itself comes from the `node` package into node_modules/.bin).
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # Every dependency install script must be reviewed in package.json's allowScripts (npm 12 skips the rest).
  npm ci --no-audit --no-fund --strict-allow-scripts
fi

# PostgreSQL: the local service when there is one (started if it is down); the suite falls back to
# an embedded server otherwise.
if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_ctlcluster >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -q 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start 2>/dev/null || true
fi

# Speech models: fetched from the npm registry and checked, unless the models directory already holds them.
npm run --silent models:fetch

npx biome ci .   # formatting and lint (biome.json); `npx biome check --write .` fixes most of it
npx tsx scripts/build-web.ts --if-stale   # the web app (and its typed GraphQL client) for the e2e test
npx gql-tada check --tsconfig src/web/tsconfig.json   # every web GraphQL document against the schema
npx tsc --noEmit
npx tsx scripts/check-cycles.ts   # no import cycles between modules or folders (dependency-cruiser)
# Speech-heavy files use every core for the models, and browser files drive Chromium against a live
# service: they run one at a time after the rest. One list: the light run excludes exactly these.
HEAVY=(test/pipeline test/transcription test/cluster test/redaction/align.test.ts test/docs/first-call.test.ts test/security/early-answers.test.ts test/web/e2e.test.ts test/web/editor-filters.test.ts test/web/data-protection.e2e.test.ts test/web/qa-pages.test.ts test/web/polish.test.ts test/web/dashboard.test.ts test/web/review-story.test.ts test/web/understanding.e2e.test.ts test/web/truth.test.ts test/web/webhook-heal.e2e.test.ts test/web/drill-down.test.ts test/web/coaching.e2e.test.ts test/web/calibration.e2e.test.ts test/web/confirm-dialogs.e2e.test.ts)
EXCLUDES=()
for h in "${HEAVY[@]}"; do
  if [ -d "$h" ]; then EXCLUDES+=(--exclude "$h/**"); else EXCLUDES+=(--exclude "$h"); fi
done
if [ $# -gt 0 ]; then
  npx vitest run "$@"
else
  npx vitest run "${EXCLUDES[@]}"
  npx vitest run --no-file-parallelism "${HEAVY[@]}"
fi
