# The team server's image (docs/operations.md): the bundle of `npm run build:server` and the production
# node_modules of `npm ci --omit=dev --omit=optional` (no desktop package: docs/operations.md), run by Node 24 as the unprivileged `node` user. The same commands run outside
# a container in CI (scripts/check-server-bundle.mjs).
#   docker build -t backoffice-api .

FROM node:24.21.0-bookworm-slim AS toolchain
# The native addon of the audience engine (roaring) compiles where no prebuilt binary fits. The desktop app's packages
# (keytar and its libsecret among them) are optionalDependencies, never installed here.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./

FROM toolchain AS build
RUN npm ci --omit=optional
COPY . .
RUN npm run build:server

FROM toolchain AS production-dependencies
RUN npm ci --omit=dev --omit=optional && npm cache clean --force

FROM node:24.21.0-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000 \
    BACKOFFICE_DATA_DIR=/data/pglite BACKOFFICE_STORAGE_DIR=/data/storage
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/out/server ./out/server
# Only what the server writes is the user's: the embedded database and local uploads when no PostgreSQL or S3 is set.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 4000
# Liveness only (GET /health touches nothing); the load balancer asks GET /ready (compose.yaml's proxy does).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: requests in flight finish, jobs stop at a batch boundary (another instance resumes them), then exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "out/server/cli.js"]
