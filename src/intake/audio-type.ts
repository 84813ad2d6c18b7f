import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import path from 'node:path';
import { DomainError } from '../domain/errors.ts';

const AUDIO_EXTENSIONS = new Set([
  'mp3',
  'wav',
  'wave',
  'ogg',
  'oga',
  'm4a',
  'mp4',
  'aac',
  'flac',
  'opus',
  'webm',
  'weba',
  'wma',
  'amr',
  '3gp',
]);
// Containers that carry audio as often as video: accepted whatever the name (docs/api/product-decisions.md).
const AUDIO_CONTAINERS = new Set([
  'ogg',
  'oga',
  'ogv',
  'ogm',
  'opus',
  'webm',
  'mka',
  'mkv',
  'mp4',
  'm4a',
  'm4b',
  'mov',
  'qt',
  '3gp',
  '3g2',
  'asf',
  'wma',
  'wmv',
  'amr',
  'aac',
  'flac',
  'wav',
  'mp3',
  'mp2',
  'mp1',
  'aif',
  'aiff',
  'caf',
]);

export interface AudioType {
  contentType: string;
  extension: string;
  by: 'magic' | 'declared' | 'extension';
}

/**
 * Magic bytes first: sniffed audio (or an audio container) is accepted whatever the name, a
 * sniffed non-audio type is not. Only when nothing is recognised do the declared type and the
 * extension decide (intake document §4, "File type rule").
 */
export async function detectAudioType(
  file: { tempPath: string; size: number; head?: Buffer },
  fileName: string,
  declaredType: string,
): Promise<AudioType> {
  const ext = path.extname(fileName).slice(1).toLowerCase();
  // The head was kept while the upload streamed to disk, so the file is not read again; only when
  // it says nothing and there is more (a signature after a long ID3 tag) is the file consulted.
  const whole = file.head !== undefined && file.head.length >= file.size;
  const sniffed =
    (file.head?.length ? await fileTypeFromBuffer(file.head) : undefined) ??
    (whole ? undefined : await fileTypeFromFile(file.tempPath));
  if (sniffed) {
    // An Ogg stream file-type does not name (application/ogg, "ogx") is still an Ogg container, which
    // docs/api/product-decisions.md accepts whatever its name; stored and served as audio/ogg. ffmpeg decides later.
    if (sniffed.ext === 'ogx') return { contentType: 'audio/ogg', extension: 'ogg', by: 'magic' };
    if (sniffed.mime.startsWith('audio/') || AUDIO_CONTAINERS.has(sniffed.ext)) {
      return { contentType: servedAudioType(sniffed.mime, sniffed.ext), extension: sniffed.ext, by: 'magic' };
    }
    throw notAudio(`The file is ${describe(sniffed.ext, sniffed.mime)}, not an audio recording.`);
  }
  const declared = declaredType.split(';')[0]!.trim();
  // The extension becomes part of the storage key, so only a known one is kept. The declared type
  // only lets the file in: it is never stored or served (it could say text/html).
  if (declared.startsWith('audio/')) {
    const known = AUDIO_EXTENSIONS.has(ext);
    return { contentType: servedAudioType(null, known ? ext : null), extension: known ? ext : 'bin', by: 'declared' };
  }
  if (AUDIO_EXTENSIONS.has(ext)) return { contentType: servedAudioType(null, ext), extension: ext, by: 'extension' };
  throw notAudio(
    `The file is not an audio recording: it has no audio extension (${[...AUDIO_EXTENSIONS].join(', ')}) and its type is ${declared ? `"${declared}"` : 'missing'}, not audio/….`,
  );
}

const SAFE_AUDIO_MIME = /^audio\/[a-z0-9][a-z0-9.+-]{0,60}$/;

/**
 * The only types a recording is stored and served with (issue 16: downloads are inert): a
 * sniffed audio/… type, else audio/<known extension>, else application/octet-stream. Never
 * anything a browser would render as a page. Also applied when serving, for rows stored earlier.
 */
export function servedAudioType(mime: string | null, ext: string | null): string {
  const m = mime?.toLowerCase() ?? '';
  if (SAFE_AUDIO_MIME.test(m)) return m;
  if (ext && AUDIO_EXTENSIONS.has(ext.toLowerCase())) return `audio/${ext.toLowerCase()}`;
  return 'application/octet-stream';
}

function describe(ext: string, mime: string) {
  return `a ${ext.toUpperCase()} file (${mime})`;
}

const notAudio = (message: string) => new DomainError('not_audio', message);
