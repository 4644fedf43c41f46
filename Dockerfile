# syntax=docker/dockerfile:1
# Atrium's container image: build and pack the package, install the packed package without devDependencies,
# then run it as a non-root user with its data in a volume. docs/production.md, "Container".
#
# This image has never been built on the project's machines (they have no Docker engine). What keeps it honest:
# the two steps marked "package-test:" below are run exactly as written, by `npm run test:package`
# (test/package/production-install.ts reads them from this file), which then starts `atrium serve` from the
# installed package and calls it; `npm test` checks that the marked steps are there (test/package/dockerfile.test.ts).
# Change them here and the test runs the new commands.

# Node.js 24 (LTS), the line the docs recommend; the floor is 22.12 (package.json's engines).
ARG NODE_IMAGE=node:24-bookworm-slim

# 1. Build: every dependency (TypeScript builds dist/), then `npm pack`, whose prepare step builds.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
COPY packages/client/package.json packages/client/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
ARG PACK_DIR=/pkg
# package-test: pack
RUN mkdir -p "$PACK_DIR" && npm pack --pack-destination "$PACK_DIR"

# 2. Install the packed package without devDependencies. better-sqlite3's package carries its Node-API binaries
#    (glibc and musl, x64 and arm64): nothing is compiled or downloaded besides the npm packages.
FROM ${NODE_IMAGE} AS install
ARG PACK_DIR=/pkg
ARG ATRIUM_PREFIX=/opt/atrium
COPY --from=build /pkg /pkg
# package-test: install
RUN npm install --global --prefix "$ATRIUM_PREFIX" --omit=dev --allow-scripts=better-sqlite3 --prefer-offline --no-audit --no-fund "$PACK_DIR"/atrium-[0-9]*.tgz

# 3. Run: the installed package only, as the image's unprivileged `node` user; data (SQLite database, stored
#    files, the master key file) in the /data volume.
FROM ${NODE_IMAGE}
# LibreOffice's writer, headless, for document generation's ODT and DOC output (docs/hr-api.md, "Document
# generation"); without it those two formats answer 424 and the rest works.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libreoffice-writer-nogui \
  && rm -rf /var/lib/apt/lists/*
ARG ATRIUM_COMMIT=
ENV NODE_ENV=production \
  PATH=/opt/atrium/bin:$PATH \
  HOST=0.0.0.0 \
  PORT=8080 \
  ATRIUM_DATA_DIR=/data \
  ATRIUM_COMMIT=${ATRIUM_COMMIT}
COPY --from=install /opt/atrium /opt/atrium
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
USER node
WORKDIR /data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["atrium", "serve"]
