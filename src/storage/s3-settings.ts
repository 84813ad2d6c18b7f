// Kept apart from the driver so reading the configuration does not load the AWS SDK.

export interface S3Settings {
  bucket: string;
  /** Prepended to every key: '' or ends with '/'. */
  prefix: string;
  /** Any S3-compatible endpoint (MinIO, Ceph, R2, …); none = AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** None = the AWS SDK's default chain (AWS_* variables, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** `endpoint/bucket/key` addressing, which most self-hosted stores need. */
  forcePathStyle: boolean;
}

/** `s3://bucket/some/prefix` → bucket and a prefix that is '' or ends with '/'. */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!m) throw new Error(`STORAGE_URL must look like s3://bucket/prefix (got ${url})`);
  const prefix = m[2]!.replace(/^\/+|\/+$/g, '');
  return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : '' };
}
