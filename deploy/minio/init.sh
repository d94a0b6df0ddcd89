#!/bin/sh
# One-shot set-up of MinIO, run by the minio-init service of docker-compose.yml (minio/mc image) with the
# root credentials, which no service gets. Idempotent: it runs on every `docker compose up`.
#   - the bucket, private: no anonymous access at all;
#   - one MinIO user per service (S3_<SERVICE>_ACCESS_KEY / S3_<SERVICE>_SECRET_KEY) with the policy of
#     deploy/minio/<service>.json attached, and nothing else.
set -eu

: "${MINIO_ROOT_USER:?}" "${MINIO_ROOT_PASSWORD:?}" "${S3_BUCKET:?}"
DIR=$(dirname "$0")
MINIO_URL=${MINIO_URL:-http://minio:9000}

# MinIO may still be starting.
tries=0
until mc alias set vj "$MINIO_URL" "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null 2>&1 && mc admin info vj >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 60 ]; then
    echo "minio-init: MinIO at $MINIO_URL did not accept the root credentials within 60 s" >&2
    exit 1
  fi
  sleep 1
done

mc mb --ignore-existing "vj/$S3_BUCKET"
mc anonymous set none "vj/$S3_BUCKET"

# service  access-key-variable  secret-key-variable
for entry in \
  "gateway S3_GATEWAY_ACCESS_KEY S3_GATEWAY_SECRET_KEY" \
  "render-worker S3_RENDER_WORKER_ACCESS_KEY S3_RENDER_WORKER_SECRET_KEY" \
  "jobs S3_JOBS_ACCESS_KEY S3_JOBS_SECRET_KEY" \
  "webhook-delivery S3_WEBHOOK_DELIVERY_ACCESS_KEY S3_WEBHOOK_DELIVERY_SECRET_KEY"; do
  set -- $entry
  service=$1
  eval "access_key=\${$2:-}"
  eval "secret_key=\${$3:-}"
  if [ -z "$access_key" ] || [ -z "$secret_key" ]; then
    echo "minio-init: $2 and $3 must be set" >&2
    exit 1
  fi
  policy="vj-$service"
  # The policies name the bucket: a different S3_BUCKET needs them edited too.
  case "$(cat "$DIR/$service.json")" in
    *"arn:aws:s3:::$S3_BUCKET\""*) ;;
    *)
      echo "minio-init: $DIR/$service.json does not name the bucket $S3_BUCKET" >&2
      exit 1
      ;;
  esac
  mc admin policy create vj "$policy" "$DIR/$service.json"
  mc admin user add vj "$access_key" "$secret_key"
  # On a second run the policy is attached already, which attach reports as an error.
  if ! out=$(mc admin policy attach vj "$policy" --user "$access_key" 2>&1); then
    case "$out" in
      *already*) ;;
      *)
        echo "$out" >&2
        exit 1
        ;;
    esac
  fi
  echo "minio-init: user for $service has policy $policy"
done
