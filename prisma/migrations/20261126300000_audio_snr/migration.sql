-- The recording's signal-to-noise ratio as transcription estimated it (dB): the call page shows it as
-- audio quality, and it chose whether noise suppression ran. Null for calls transcribed before.
ALTER TABLE calls ADD COLUMN audio_snr_db real;
