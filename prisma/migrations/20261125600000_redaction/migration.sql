-- Redaction of personal and payment data (src/redaction): per account, applied before anything
-- is stored. redaction_kinds lists the detectors that are on (src/redaction/detect.ts PII_KINDS).
ALTER TABLE "accounts"
  ADD COLUMN "redaction_mode" TEXT NOT NULL DEFAULT 'off',
  ADD COLUMN "redaction_kinds" TEXT[] NOT NULL DEFAULT ARRAY['card_number', 'cvv', 'card_expiry', 'iban', 'dni_nie', 'ssn', 'email', 'phone']::TEXT[],
  ADD CONSTRAINT "accounts_redaction_mode_check" CHECK ("redaction_mode" IN ('off', 'text', 'text_audio'));

-- What was redacted in a call: [{kind, start, end}] in seconds (placeholders stand in the text),
-- and whether the stored recording is the redacted copy.
ALTER TABLE "calls"
  ADD COLUMN "redactions" JSONB,
  ADD COLUMN "audio_redacted" BOOLEAN NOT NULL DEFAULT false;
