# The Groundwork agent image: the npm package, installed globally from the tarball `npm pack` makes
# (the same route the install e2e test proves). Build it with any OCI builder:
#   docker build -t <registry>/groundwork:<version> .     (or: podman build / buildah bud)
# then pass `--image` to `groundwork bootstrap`.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && mkdir /pkg && npm pack --pack-destination /pkg

FROM node:20-bookworm-slim
# git is not needed (isomorphic-git); ca-certificates for HTTPS remotes.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /pkg/ /tmp/pkg/
RUN npm install --global --no-audit --no-fund /tmp/pkg/groundwork-gitops-*.tgz && rm -rf /tmp/pkg /root/.npm
USER 65532:65532
ENV NODE_ENV=production GROUNDWORK_CACHE_DIR=/cache HOME=/tmp
EXPOSE 8080
ENTRYPOINT ["groundwork"]
CMD ["agent", "--help"]
