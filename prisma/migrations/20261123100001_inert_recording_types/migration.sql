-- Issue 16: a recording is only ever stored (and served) with an audio type. Rows accepted before
-- the fix may carry the type the client declared (text/html, image/svg+xml…): they get the type of
-- their known audio extension, else application/octet-stream. Audio types are kept as they are.
UPDATE calls
SET content_type = CASE
    WHEN lower(substring(storage_key FROM '\.([A-Za-z0-9]+)$')) IN
         ('mp3', 'wav', 'wave', 'ogg', 'oga', 'm4a', 'mp4', 'aac', 'flac', 'opus', 'webm', 'weba', 'wma', 'amr', '3gp')
      THEN 'audio/' || lower(substring(storage_key FROM '\.([A-Za-z0-9]+)$'))
    ELSE 'application/octet-stream'
  END
WHERE content_type !~ '^audio/[a-z0-9][a-z0-9.+-]{0,60}$';
