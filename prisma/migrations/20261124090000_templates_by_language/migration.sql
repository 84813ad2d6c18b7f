-- The account's default template per language (issue 10): a call with no campaign template is
-- scored with the default of its language, else the account's any-language default
-- (accounts.default_template_id). The template's own language is its definition's `language`.
CREATE TABLE "account_language_templates" (
    "account_id" UUID NOT NULL,
    "language" TEXT NOT NULL,
    "template_id" UUID NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_language_templates_pkey" PRIMARY KEY ("account_id", "language")
);

CREATE INDEX "account_language_templates_template_id_idx" ON "account_language_templates"("template_id");

ALTER TABLE "account_language_templates" ADD CONSTRAINT "account_language_templates_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "account_language_templates" ADD CONSTRAINT "account_language_templates_template_id_fkey" FOREIGN KEY ("template_id") REFERENCES "templates"("id") ON DELETE CASCADE ON UPDATE CASCADE;
