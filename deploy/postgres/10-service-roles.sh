#!/bin/sh
# Run once by the postgres image on an empty data directory (mounted into /docker-entrypoint-initdb.d by
# docker-compose.yml), as POSTGRES_USER on POSTGRES_DB. Idempotent, so it can also be run by hand on an
# existing volume:  docker compose exec postgres sh /docker-entrypoint-initdb.d/10-service-roles.sh
#
# One login role per service, each owning only its schema: gateway -> identity, jobs -> jobs,
# billing -> billing, webhook_delivery (the webhook-delivery service) -> webhooks. Passwords come from
# the environment; there is no default. No `set -u`, no exit on success: the image may source this file
# instead of running it.
: "${POSTGRES_DB:?}"
: "${POSTGRES_GATEWAY_PASSWORD:?set POSTGRES_GATEWAY_PASSWORD (see .env.example)}"
: "${POSTGRES_JOBS_PASSWORD:?set POSTGRES_JOBS_PASSWORD (see .env.example)}"
: "${POSTGRES_BILLING_PASSWORD:?set POSTGRES_BILLING_PASSWORD (see .env.example)}"
: "${POSTGRES_WEBHOOK_DELIVERY_PASSWORD:?set POSTGRES_WEBHOOK_DELIVERY_PASSWORD (see .env.example)}"

psql -v ON_ERROR_STOP=1 --no-psqlrc --quiet --username "${POSTGRES_USER:-postgres}" --dbname "$POSTGRES_DB" \
  -v database="$POSTGRES_DB" \
  -v gateway_password="$POSTGRES_GATEWAY_PASSWORD" \
  -v jobs_password="$POSTGRES_JOBS_PASSWORD" \
  -v billing_password="$POSTGRES_BILLING_PASSWORD" \
  -v webhook_delivery_password="$POSTGRES_WEBHOOK_DELIVERY_PASSWORD" <<'SQL'
-- Nothing by default: PUBLIC loses its rights on the database and on schema public.
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
REVOKE ALL ON SCHEMA public FROM PUBLIC;

SELECT format('CREATE ROLE %I', role) FROM unnest(ARRAY['gateway', 'jobs', 'billing', 'webhook_delivery']) AS role
WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = role) \gexec

ALTER ROLE gateway WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'gateway_password';
ALTER ROLE jobs WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'jobs_password';
ALTER ROLE billing WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'billing_password';
ALTER ROLE webhook_delivery WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD :'webhook_delivery_password';

-- CREATE on the database because each service's migrations run CREATE SCHEMA IF NOT EXISTS, which
-- PostgreSQL checks against that right even when the schema exists. It lets a role make a new schema
-- of its own, never use another role's.
GRANT CONNECT, CREATE ON DATABASE :"database" TO gateway, jobs, billing, webhook_delivery;

-- Each schema belongs to its service's role and grants nothing to anyone else.
CREATE SCHEMA IF NOT EXISTS identity AUTHORIZATION gateway;
CREATE SCHEMA IF NOT EXISTS jobs AUTHORIZATION jobs;
CREATE SCHEMA IF NOT EXISTS billing AUTHORIZATION billing;
CREATE SCHEMA IF NOT EXISTS webhooks AUTHORIZATION webhook_delivery;
ALTER SCHEMA identity OWNER TO gateway;
ALTER SCHEMA jobs OWNER TO jobs;
ALTER SCHEMA billing OWNER TO billing;
ALTER SCHEMA webhooks OWNER TO webhook_delivery;
SQL
