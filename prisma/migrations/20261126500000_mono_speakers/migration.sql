-- Two speakers in mono recordings (src/audio/diarize.ts). Per account: whether mono calls are split
-- into two voices and how the agent is told from the customer: the voice heard first, or the voice
-- that says the template's agent phrases (greeting…); 'off' keeps one "speaker".
ALTER TABLE "accounts"
  ADD COLUMN "mono_speakers" TEXT NOT NULL DEFAULT 'first_speaker',
  ADD CONSTRAINT "accounts_mono_speakers_check" CHECK ("mono_speakers" IN ('off', 'first_speaker', 'greeting'));

-- Per call: the voices were separated automatically (the transcript's agent/customer come from the
-- clustering, not from channels), and how confident the separation is (0–1); null when not attempted
-- (stereo, or separation off). A mono call with a confidence but diarized false had one voice only.
ALTER TABLE "calls"
  ADD COLUMN "diarized" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "diarization_confidence" REAL;
