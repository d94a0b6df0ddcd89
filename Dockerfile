# One image for the four services; docker-compose.yml picks the entry point per service.
FROM node:20-bookworm-slim
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip NODE_ENV=production
COPY package.json package-lock.json ./
COPY apps/gateway/package.json apps/gateway/
COPY apps/jobs/package.json apps/jobs/
COPY apps/render-worker/package.json apps/render-worker/
COPY apps/billing/package.json apps/billing/
COPY libs/contracts/package.json libs/contracts/
COPY libs/config/package.json libs/config/
COPY libs/storage/package.json libs/storage/
COPY libs/messaging/package.json libs/messaging/
COPY libs/local-stack/package.json libs/local-stack/
COPY libs/tflite-onnx/package.json libs/tflite-onnx/
# npm 11 may refuse its own lockfile in `npm ci` (other platforms' optional binaries are left out of it).
RUN npm ci --no-audit --no-fund --omit=dev || npm install --no-save --no-audit --no-fund --omit=dev
COPY tsconfig.base.json ./
COPY scripts/run-ts.cjs scripts/
COPY apps apps
COPY libs libs
USER node
