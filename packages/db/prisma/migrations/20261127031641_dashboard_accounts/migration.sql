-- AlterTable
ALTER TABLE "auth"."api_keys" ADD COLUMN     "expires_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "auth"."dashboard_accounts" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disabled_at" TIMESTAMPTZ(3),
    "password_changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "dashboard_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "auth"."dashboard_sessions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "account_id" UUID NOT NULL,
    "token_hash" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "user_agent" TEXT,
    "ip" TEXT,

    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_accounts_email_key" ON "auth"."dashboard_accounts"("email");

-- CreateIndex
CREATE INDEX "dashboard_accounts_client_id_idx" ON "auth"."dashboard_accounts"("client_id");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_sessions_token_hash_key" ON "auth"."dashboard_sessions"("token_hash");

-- CreateIndex
CREATE INDEX "dashboard_sessions_account_id_idx" ON "auth"."dashboard_sessions"("account_id");

-- AddForeignKey
ALTER TABLE "auth"."dashboard_accounts" ADD CONSTRAINT "dashboard_accounts_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "auth"."clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "auth"."dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "auth"."dashboard_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
