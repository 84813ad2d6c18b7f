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
// Containers that carry audio as often as video: accepted whatever the name (PRODUCT.md).
const AUDIO_CONTAINERS = new Set([
  'ogg',
  'oga',
  'ogv',
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
    if (sniffed.mime.startsWith('audio/') || AUDIO_CONTAINERS.has(sniffed.ext)) {
      return { contentType: sniffed.mime, extension: sniffed.ext, by: 'magic' };
    }
    throw notAudio(`The file is ${describe(sniffed.ext, sniffed.mime)}, not an audio recording.`);
  }
  const declared = declaredType.split(';')[0]!.trim();
  // The extension becomes part of the storage key, so only a known one is kept.
  if (declared.startsWith('audio/'))
    return { contentType: declared, extension: AUDIO_EXTENSIONS.has(ext) ? ext : 'bin', by: 'declared' };
  if (AUDIO_EXTENSIONS.has(ext))
    return {
      contentType: declared && declared !== 'application/octet-stream' ? declared : `audio/${ext}`,
      extension: ext,
      by: 'extension',
    };
  throw notAudio(
    `The file is not an audio recording: it has no audio extension (${[...AUDIO_EXTENSIONS].join(', ')}) and its type is ${declared ? `"${declared}"` : 'missing'}, not audio/….`,
  );
}

function describe(ext: string, mime: string) {
  return `a ${ext.toUpperCase()} file (${mime})`;
}

const notAudio = (message: string) => new DomainError('not_audio', message);
