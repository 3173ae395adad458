# The Groundwork agent image. Build it yourself: `docker build -t <registry>/groundwork:<version> .`
# then pass `--image` to `groundwork bootstrap`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bench ./bench
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
# git is not needed (isomorphic-git); ca-certificates for HTTPS remotes.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# Platform code is TypeScript that imports 'groundwork': the synth child compiles it with tsx
# against these sources.
COPY --from=build /app/src ./src
COPY crds ./crds
USER 65532:65532
ENV NODE_ENV=production GROUNDWORK_CACHE_DIR=/cache HOME=/tmp
EXPOSE 8080
ENTRYPOINT ["node", "dist/src/cli/run.js"]
CMD ["agent", "--help"]
