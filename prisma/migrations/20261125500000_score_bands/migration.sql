-- Score colour bands per account (issue 11): good from score_good up, fair from score_fair up (checked in src/accounts/accounts.ts).
ALTER TABLE "accounts" ADD COLUMN "score_good" INTEGER NOT NULL DEFAULT 80;
ALTER TABLE "accounts" ADD COLUMN "score_fair" INTEGER NOT NULL DEFAULT 60;
