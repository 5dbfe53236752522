-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "vault";

-- CreateTable
CREATE TABLE "vault"."fields" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "ciphertext" BYTEA NOT NULL,
    "wrapped_key" BYTEA NOT NULL,
    "key_version" INTEGER NOT NULL,
    "masked" TEXT NOT NULL,
    "source_kind" TEXT NOT NULL,
    "source_extraction_id" UUID,
    "source_candidate_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fields_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vault"."client_states" (
    "client_id" UUID NOT NULL,
    "fields_changed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "client_states_pkey" PRIMARY KEY ("client_id")
);

-- CreateTable
CREATE TABLE "vault"."extractions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "version" INTEGER NOT NULL DEFAULT 1,
    "document_kind" TEXT NOT NULL,
    "upload_id" UUID,
    "content_type" TEXT NOT NULL,
    "pages" INTEGER NOT NULL,
    "characters" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "reviewed_at" TIMESTAMPTZ(3),

    CONSTRAINT "extractions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vault"."candidates" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "extraction_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "position" INTEGER NOT NULL,
    "field_name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "masked" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "page" INTEGER NOT NULL,
    "span_start" INTEGER NOT NULL,
    "span_end" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "ciphertext" BYTEA,
    "wrapped_key" BYTEA,
    "key_version" INTEGER,
    "saved_as_name" TEXT,
    "saved_as_version" INTEGER,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "candidates_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vault"."documents" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "client_id" UUID NOT NULL,
    "report" JSONB NOT NULL,
    "artifact_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vault"."audit_events" (
    "id" BIGSERIAL NOT NULL,
    "client_id" UUID NOT NULL,
    "purpose" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "key_version" INTEGER NOT NULL,
    "subject_id" UUID NOT NULL,
    "request_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vault"."rotations" (
    "target_version" INTEGER NOT NULL,
    "state" TEXT NOT NULL,
    "rewrapped" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "rotations_pkey" PRIMARY KEY ("target_version")
);

-- CreateIndex
CREATE INDEX "fields_key_version_idx" ON "vault"."fields"("key_version");

-- CreateIndex
CREATE UNIQUE INDEX "fields_client_id_name_key" ON "vault"."fields"("client_id", "name");

-- CreateIndex
CREATE INDEX "extractions_client_id_created_at_idx" ON "vault"."extractions"("client_id", "created_at");

-- CreateIndex
CREATE INDEX "extractions_status_expires_at_idx" ON "vault"."extractions"("status", "expires_at");

-- CreateIndex
CREATE INDEX "candidates_key_version_idx" ON "vault"."candidates"("key_version");

-- CreateIndex
CREATE UNIQUE INDEX "candidates_extraction_id_position_key" ON "vault"."candidates"("extraction_id", "position");

-- CreateIndex
CREATE INDEX "documents_client_id_created_at_idx" ON "vault"."documents"("client_id", "created_at");

-- CreateIndex
CREATE INDEX "documents_expires_at_idx" ON "vault"."documents"("expires_at");

-- CreateIndex
CREATE INDEX "audit_events_client_id_id_idx" ON "vault"."audit_events"("client_id", "id");

-- AddForeignKey
ALTER TABLE "vault"."candidates" ADD CONSTRAINT "candidates_extraction_id_fkey" FOREIGN KEY ("extraction_id") REFERENCES "vault"."extractions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
