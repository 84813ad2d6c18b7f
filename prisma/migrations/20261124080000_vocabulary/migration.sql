-- The account's own words (company, product and place names) the recogniser is biased towards.
ALTER TABLE "accounts" ADD COLUMN "vocabulary" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
