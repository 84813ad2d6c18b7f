-- Sentiment (issue 14), written by the analysis (src/analysis/sentiment.ts): per segment, per speaker and
-- the customer's trend as JSON, and the two customer figures as columns so CSV, filters and reports
-- read them without parsing the JSON.
ALTER TABLE "calls" ADD COLUMN "sentiment" JSONB;
ALTER TABLE "calls" ADD COLUMN "customer_sentiment" DOUBLE PRECISION;
ALTER TABLE "calls" ADD COLUMN "customer_sentiment_trend" DOUBLE PRECISION;
