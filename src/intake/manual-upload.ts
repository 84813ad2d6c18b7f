import { rm } from 'node:fs/promises';
import type { AppContext } from '../context.ts';
import { isUuid } from '../accounts/api-keys.ts';
import { DomainError } from '../domain/errors.ts';
import { acceptRecording } from './accept.ts';
import { insufficientStorage } from './errors.ts';
import type { ReceivedFile } from './multipart.ts';
import { isStorageFault } from './outcome.ts';

/** Files one upload request may carry; the app splits bigger selections into several requests. */
export const MAX_UPLOAD_FILES = 20;
/**
 * Bound on one request whatever the plan: 20 files at a 500 MB plan limit would be 10 GB of
 * temporary disk held by a single request. A request may always carry one file at the plan limit.
 */
export const UPLOAD_REQUEST_CAP = 2 * 1024 ** 3;
// Multipart framing and the text fields on top of the files themselves.
const FORM_OVERHEAD = 1_048_576;

/** Intake-document fields that apply to every file of the upload; external_id does not (it would make every file after the first `exists`). */
export const SHARED_FIELDS = [
  'agent_code',
  'agent_name',
  'campaign',
  'started_at',
  'customer_phone',
  'customer_name',
  'direction',
  'language',
] as const;

export interface UploadLimits {
  /** A file may have at most this many bytes: the plan's manual_upload_max_bytes. */
  perFileBytes: number;
  /** The whole request must stay strictly below this. */
  requestBytes: number;
}

export function uploadLimits(manualUploadMaxBytes: bigint | number): UploadLimits {
  const perFileBytes = Number(manualUploadMaxBytes);
  const files = Math.min(perFileBytes * MAX_UPLOAD_FILES, Math.max(perFileBytes, UPLOAD_REQUEST_CAP));
  return { perFileBytes, requestBytes: files + FORM_OVERHEAD };
}

export type UploadResult =
  | { fileName: string; ok: true; id: string; status: 'queued' | 'exists'; url: string }
  | { fileName: string; ok: false; error: { code: string; message: string } };

export interface UploadInput {
  accountId: string;
  files: ReceivedFile[];
  /** The form's text fields as sent. */
  fields: Record<string, string>;
  perFileBytes: number;
  /** Quoted in the message of an unexpected per-file failure. */
  requestId: string;
}

/** The picker fields of the form; a malformed id is a broken form, not a per-file problem. */
export function uploadDefaults(fields: Record<string, string>): { agentId?: string; campaignId?: string } {
  const pick = (name: string) => {
    const v = fields[name]?.trim();
    if (!v) return undefined;
    if (!isUuid(v))
      throw new DomainError(
        'bad_request',
        `\`${name}\` must be the id of one of your ${name === 'agent_id' ? 'agents' : 'campaigns'}.`,
      );
    return v;
  };
  return { agentId: pick('agent_id'), campaignId: pick('campaign_id') };
}

/**
 * Accepts each file of a manual upload on its own, with the intake rules (acceptRecording,
 * source `upload`), so one file without an agent or that is not audio does not sink the others.
 * One after another, not in parallel: they draw on the same minute balance, and the order of the
 * results (and of any `no_minutes`) should be the order the user picked the files in.
 * Every temporary file is gone when this returns or throws (a malformed picker id: bad_request).
 */
export async function acceptUploads(app: AppContext, input: UploadInput): Promise<UploadResult[]> {
  const fields = Object.fromEntries(SHARED_FIELDS.map((name) => [name, input.fields[name]]));
  const results: UploadResult[] = [];
  try {
    const defaults = uploadDefaults(input.fields);
    for (const file of input.files) {
      const fileName = file.fileName;
      if (file.size > input.perFileBytes) {
        await rm(file.tempPath, { force: true });
        results.push({
          fileName,
          ok: false,
          error: {
            code: 'bad_request',
            message: `The file has ${formatMb(file.size)}; your plan allows up to ${formatMb(input.perFileBytes)} per recording.`,
          },
        });
        continue;
      }
      try {
        const accepted = await acceptRecording(app, {
          accountId: input.accountId,
          source: 'upload',
          file,
          fields,
          defaults,
        });
        app.log.info({ callId: accepted.id, status: accepted.status }, 'call uploaded');
        results.push({ fileName, ok: true, ...accepted });
      } catch (error) {
        if (error instanceof DomainError) {
          results.push({ fileName, ok: false, error: { code: error.code, message: error.message } });
        } else if (isStorageFault(error)) {
          app.log.error({ err: error, fileName }, 'ALERT storage cannot write recordings (disk full or failing)');
          const e = insufficientStorage();
          results.push({ fileName, ok: false, error: { code: e.code, message: e.message } });
        } else {
          app.log.error({ err: error, fileName }, 'upload of one file failed');
          results.push({
            fileName,
            ok: false,
            error: {
              code: 'internal_error',
              message: `Something went wrong on our side. Quote request id ${input.requestId} when reporting it.`,
            },
          });
        }
      }
    }
  } finally {
    await Promise.all(input.files.map((f) => rm(f.tempPath, { force: true })));
  }
  return results;
}

const formatMb = (bytes: number) => `${(bytes / 1_048_576).toFixed(bytes < 10 * 1_048_576 ? 1 : 0)} MB`;
