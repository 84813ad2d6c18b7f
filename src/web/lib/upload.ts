/**
 * Manual upload of recordings to `POST /api/uploads` with XMLHttpRequest, which (unlike fetch)
 * reports upload progress. One request per file so each file has its own progress bar; the endpoint
 * answers `{results:[{fileName, ok, id?, status?, url?, error?:{code,message}}]}`.
 */
import { csrfHeaders } from './client.ts';

export interface UploadResult {
  fileName: string;
  ok: boolean;
  id?: string;
  status?: string;
  url?: string;
  error?: { code: string; message: string };
}

export interface UploadOptions {
  agentId?: string | null;
  campaignId?: string | null;
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export const UPLOAD_URL = '/api/uploads';

export function buildUploadForm(file: File, opts: Pick<UploadOptions, 'agentId' | 'campaignId'>): FormData {
  const form = new FormData();
  // Fields before the file, so the server knows them when the file part starts streaming.
  if (opts.agentId) form.append('agent_id', opts.agentId);
  if (opts.campaignId) form.append('campaign_id', opts.campaignId);
  form.append('file', file, file.name);
  return form;
}

/** Reads the endpoint's answer (or an error body) into a result for this one file. */
export function parseUploadResponse(status: number, body: string, fileName: string): UploadResult {
  let json: unknown = null;
  try {
    json = JSON.parse(body);
  } catch {
    // not JSON: handled below
  }
  const results = (json as { results?: UploadResult[] } | null)?.results;
  if (Array.isArray(results) && results.length) return results.find((r) => r.fileName === fileName) ?? results[0]!;
  const err = (json as { error?: { code?: string; message?: string } } | null)?.error;
  if (err) return { fileName, ok: false, error: { code: err.code ?? `http_${status}`, message: err.message ?? '' } };
  if (status === 0)
    return { fileName, ok: false, error: { code: 'network', message: 'The connection was interrupted.' } };
  return { fileName, ok: false, error: { code: `http_${status}`, message: `The server answered ${status}.` } };
}

export function uploadFile(file: File, opts: UploadOptions = {}): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', UPLOAD_URL);
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(csrfHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onProgress?.(e.total ? e.loaded / e.total : 0);
    };
    xhr.onload = () => {
      opts.onProgress?.(1);
      resolve(parseUploadResponse(xhr.status, xhr.responseText, file.name));
    };
    xhr.onerror = () => resolve(parseUploadResponse(0, '', file.name));
    xhr.onabort = () => resolve({ fileName: file.name, ok: false, error: { code: 'aborted', message: 'Cancelled.' } });
    opts.signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(buildUploadForm(file, opts));
  });
}

const AUDIO_EXT = /\.(mp3|wav|ogg|oga|m4a|mp4|aac|flac|opus|webm|weba|wma|amr|3gp)$/i;

/** A quick client-side check so obviously wrong files are flagged before uploading. */
export function looksLikeAudio(file: { name: string; type: string }): boolean {
  return file.type.startsWith('audio/') || AUDIO_EXT.test(file.name);
}
