/**
 * `inline|attachment; filename="…"; filename*=UTF-8''…` (RFC 6266 + RFC 5987): old clients read
 * the plain ASCII fallback, every current browser the encoded UTF-8 name. The fallback drops what
 * could break out of the quoted string (quotes, backslashes, control characters).
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const name = fileName.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'download';
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["%]/g, '_');
  if (ascii === name) return `${kind}; filename="${ascii}"`;
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

function encodeRfc5987(s: string): string {
  // encodeURIComponent leaves ' ( ) * ! unescaped; attr-char does not allow them.
  return encodeURIComponent(s).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
