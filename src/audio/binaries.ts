import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);

/** The programs that read recordings: from FFMPEG_PATH / FFPROBE_PATH, else the npm packages, else PATH. */
export interface DecoderPaths {
  ffmpeg: string;
  ffprobe: string;
}

/**
 * The ffmpeg and ffprobe that ship inside npm packages (@ffmpeg-installer, @ffprobe-installer: static
 * builds in the registry tarballs, nothing downloaded at install), so a bare machine decodes every
 * accepted format. A configured path wins; without the packages for this platform, PATH is used.
 */
export function resolveDecoder(
  env: { FFMPEG_PATH?: string | undefined; FFPROBE_PATH?: string | undefined } = {},
): DecoderPaths {
  return {
    ffmpeg: env.FFMPEG_PATH || packaged('@ffmpeg-installer/ffmpeg') || 'ffmpeg',
    ffprobe: env.FFPROBE_PATH || packaged('@ffprobe-installer/ffprobe') || 'ffprobe',
  };
}

function packaged(name: string): string | null {
  try {
    return (require(name) as { path: string }).path;
  } catch {
    // The package throws (a string) on platforms it has no binary for.
    return null;
  }
}

/** Where a command would run from: itself when it has a slash, else the first executable on PATH. */
export function locate(command: string): string | null {
  const candidates = command.includes('/')
    ? [command]
    : (process.env.PATH ?? '')
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const file of candidates) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return null;
}

const decoderLists = new Map<string, Promise<Set<string>>>();

/**
 * The decoder names an ffmpeg binary offers (`ffmpeg -decoders`), asked once per binary.
 * A failed ask is forgotten, so a binary installed later is asked again.
 */
export function ffmpegDecoders(ffmpeg: string): Promise<Set<string>> {
  let list = decoderLists.get(ffmpeg);
  if (!list) {
    list = execFileAsync(ffmpeg, ['-hide_banner', '-decoders'], { maxBuffer: 4 << 20 }).then(
      ({ stdout }) => new Set(stdout.split('\n').map((line) => /^\s*[A-Z.]{6}\s+(\S+)/.exec(line)?.[1] ?? '')),
    );
    list.catch(() => decoderLists.delete(ffmpeg));
    decoderLists.set(ffmpeg, list);
  }
  return list;
}
