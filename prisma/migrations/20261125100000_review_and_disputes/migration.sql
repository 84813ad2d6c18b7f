-- Human review and agents as users (issue 10.3–10.4).
--
-- calls.score and calls.criteria keep holding the EFFECTIVE values (after a reviewer's overrides):
-- the list, CSV, webhooks and the reports' rollups read them. The analysis's own score is kept in
-- calls.auto_score and each overridden criterion keeps its automatic outcome in the criteria JSON
-- (`auto_result`, src/call-columns.ts); criterion_reviews is the revision history.

-- The lowest role: a person of the team who sees only their own agent's calls.
ALTER TYPE "UserRole" ADD VALUE IF NOT EXISTS 'agent';

ALTER TABLE "users" ADD COLUMN "agent_id" UUID;
ALTER TABLE "users" ADD CONSTRAINT "users_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;
CREATE INDEX "users_agent_id_idx" ON "users"("agent_id");

ALTER TABLE "invitations" ADD COLUMN "agent_id" UUID;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Days after a call is analyzed during which its agent may acknowledge it or dispute a criterion.
ALTER TABLE "accounts" ADD COLUMN "dispute_window_days" INTEGER NOT NULL DEFAULT 7;

ALTER TABLE "calls" ADD COLUMN "auto_score" DOUBLE PRECISION;
ALTER TABLE "calls" ADD COLUMN "reviewed_at" TIMESTAMPTZ(3);
ALTER TABLE "calls" ADD COLUMN "reviewed_by_id" UUID;
ALTER TABLE "calls" ADD COLUMN "open_disputes" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "calls" ADD COLUMN "acknowledged_at" TIMESTAMPTZ(3);
ALTER TABLE "calls" ADD COLUMN "acknowledged_by_id" UUID;
ALTER TABLE "calls" ADD CONSTRAINT "calls_reviewed_by_id_fkey" FOREIGN KEY ("reviewed_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "calls" ADD CONSTRAINT "calls_acknowledged_by_id_fkey" FOREIGN KEY ("acknowledged_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- Analyzed calls so far were never reviewed: their automatic score is their score.
UPDATE "calls" SET "auto_score" = "score" WHERE "score" IS NOT NULL;

-- One row per override, never updated: the revision history of a call's review.
CREATE TABLE "criterion_reviews" (
    "id" BIGSERIAL NOT NULL,
    "account_id" UUID NOT NULL,
    "call_id" UUID NOT NULL,
    "criterion_key" TEXT NOT NULL,
    "auto_result" TEXT NOT NULL,
    "from_result" TEXT NOT NULL,
    "to_result" TEXT NOT NULL,
    "note" TEXT NOT NULL,
    "reviewer_id" UUID,
    "reviewer_name" TEXT NOT NULL,
    "dispute_id" UUID,
    "score_before" DOUBLE PRECISION,
    "score_after" DOUBLE PRECISION,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "criterion_reviews_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "criterion_reviews_call_id_created_at_idx" ON "criterion_reviews"("call_id", "created_at");
ALTER TABLE "criterion_reviews" ADD CONSTRAINT "criterion_reviews_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "criterion_reviews" ADD CONSTRAINT "criterion_reviews_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "criterion_reviews" ADD CONSTRAINT "criterion_reviews_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- An agent's dispute of one criterion; the moves are src/domain/disputes.ts DISPUTE_MOVES.
CREATE TABLE "disputes" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "call_id" UUID NOT NULL,
    "criterion_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "comment" TEXT NOT NULL,
    "opened_by_id" UUID,
    "opened_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reply" TEXT,
    "resolved_by_id" UUID,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "disputes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "disputes_account_id_status_opened_at_idx" ON "disputes"("account_id", "status", "opened_at");
CREATE INDEX "disputes_call_id_idx" ON "disputes"("call_id");
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_opened_by_id_fkey" FOREIGN KEY ("opened_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "disputes" ADD CONSTRAINT "disputes_resolved_by_id_fkey" FOREIGN KEY ("resolved_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Every state a dispute went through, with its time.
CREATE TABLE "dispute_events" (
    "id" BIGSERIAL NOT NULL,
    "dispute_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "user_id" UUID,
    "note" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dispute_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "dispute_events_dispute_id_at_idx" ON "dispute_events"("dispute_id", "at");
ALTER TABLE "dispute_events" ADD CONSTRAINT "dispute_events_dispute_id_fkey" FOREIGN KEY ("dispute_id") REFERENCES "disputes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "dispute_events" ADD CONSTRAINT "dispute_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Reviewers' comments on a call, optionally pinned to a moment of the transcript.
CREATE TABLE "call_comments" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "call_id" UUID NOT NULL,
    "author_id" UUID,
    "author_name" TEXT NOT NULL,
    "at_seconds" DOUBLE PRECISION,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "call_comments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "call_comments_call_id_created_at_idx" ON "call_comments"("call_id", "created_at");
ALTER TABLE "call_comments" ADD CONSTRAINT "call_comments_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "call_comments" ADD CONSTRAINT "call_comments_call_id_fkey" FOREIGN KEY ("call_id") REFERENCES "calls"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "call_comments" ADD CONSTRAINT "call_comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
