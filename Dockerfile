# One image for the five services; docker-compose.yml and deploy/k8s pick the entry point per service.
# Node.js 24 LTS: Node 20 reached end of life on 2026-04-30 (the code still runs on 20, decision 0026).

# Every workspace's package.json, in place and nothing else: `npm ci` needs each workspace the lockfile
# names, and a new app or lib needs no line here. Only these files reach the next stage, so its
# dependency layer is rebuilt when they change, not when the source does.
FROM node:24-bookworm-slim AS manifests
WORKDIR /src
COPY apps apps
COPY libs libs
RUN mkdir /manifests && find apps libs -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# The web page the gateway serves at / (apps/web/dist), built with the dev dependencies it needs (Vite);
# only its output reaches the image.
FROM node:24-bookworm-slim AS web
WORKDIR /src
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
COPY --from=manifests /manifests/ ./
RUN npm ci --no-audit --no-fund --ignore-scripts || npm install --no-save --no-audit --no-fund --ignore-scripts
COPY tsconfig.base.json ./
COPY apps/web apps/web
COPY libs/sdk libs/sdk
RUN npx vite build apps/web

FROM node:24-bookworm-slim
# The Vulkan loader and what NVIDIA's mounted Vulkan driver links: ONNX Runtime's WebGPU provider
# reaches a GPU through them where ONNX_EXECUTION_PROVIDERS names it (decision 0055).
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg ca-certificates libvulkan1 libglvnd0 libx11-6 libxext6 \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip NODE_ENV=production
COPY package.json package-lock.json ./
COPY --from=manifests /manifests/ ./
# npm 11 (bundled with Node 24 as with this repository's Node 20) refuses this lockfile in `npm ci`: other
# platforms' optional binaries are left out of it. `npm install` then installs the lockfile's versions.
RUN npm ci --no-audit --no-fund --omit=dev || npm install --no-save --no-audit --no-fund --omit=dev
COPY tsconfig.base.json ./
COPY scripts/run-ts.cjs scripts/
COPY apps apps
COPY libs libs
COPY --from=web /src/apps/web/dist apps/web/dist
# The image's `node` user, by number: Kubernetes can only verify runAsNonRoot against a numeric user.
USER 1000:1000
