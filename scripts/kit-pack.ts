/**
 * `npm run kit:pack`: builds the integrator kit (src/webhooks/kit) to ESM JavaScript with .d.ts and
 * packs it as the npm package @escucha/webhooks: escucha-webhooks-<version>.tgz in the current folder
 * (or in `--pack-destination DIR`). Prints the tarball's path.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const kit = path.join(root, 'src/webhooks/kit');
const { values } = parseArgs({ options: { 'pack-destination': { type: 'string' } } });
const destination = path.resolve(values['pack-destination'] ?? process.cwd());

// A clean dist: a module removed from the kit must not linger in the package. Removed again after
// packing, so the built copy never sits beside the sources for tsc, biome or vitest to pick up.
const dist = path.join(kit, 'dist');
rmSync(dist, { recursive: true, force: true });
let packed: { filename: string }[];
try {
  const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(kit, 'tsconfig.json')], { stdio: 'inherit' });
  const json = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: kit,
    encoding: 'utf8',
  });
  packed = JSON.parse(json);
} finally {
  rmSync(dist, { recursive: true, force: true });
}
console.log(path.join(destination, packed[0]!.filename));
