# The Groundwork agent image: the npm package, installed globally from the tarball `npm pack` makes
# (the same route the install e2e test proves). Build it with any OCI builder:
#   docker build -t <registry>/groundwork:<version> .     (or: podman build / buildah bud)
# then pass `--image` to `groundwork bootstrap`.
FROM node:20-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npm ci --no-audit --no-fund && mkdir /pkg && npm pack --pack-destination /pkg

# helm, kustomize and sops: the releases src/tools/recipes.ts pins, built from the Go module proxy
# (test/lint/dockerfile.test.ts keeps the two in step). The agent finds them by GROUNDWORK_<TOOL>.
FROM golang:1.26-bookworm AS tools
RUN go install -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=v3.22.0" helm.sh/helm/v3/cmd/helm@v3.22.0 \
 && GOTOOLCHAIN=go1.27.3 go install -ldflags "-s -w -X sigs.k8s.io/kustomize/api/provenance.version=v5.8.2" sigs.k8s.io/kustomize/kustomize/v5@v5.8.2 \
 && go install -ldflags "-s -w" github.com/getsops/sops/v3/cmd/sops@v3.13.3

FROM node:20-bookworm-slim
# git is not needed (isomorphic-git); ca-certificates for HTTPS remotes.
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=tools /go/bin/helm /go/bin/kustomize /go/bin/sops /usr/local/bin/
COPY --from=build /pkg/ /tmp/pkg/
RUN npm install --global --no-audit --no-fund /tmp/pkg/groundwork-gitops-*.tgz && rm -rf /tmp/pkg /root/.npm
USER 65532:65532
ENV NODE_ENV=production GROUNDWORK_CACHE_DIR=/cache HOME=/tmp \
    GROUNDWORK_HELM=/usr/local/bin/helm GROUNDWORK_KUSTOMIZE=/usr/local/bin/kustomize GROUNDWORK_SOPS=/usr/local/bin/sops
EXPOSE 8080
ENTRYPOINT ["groundwork"]
CMD ["agent", "--help"]
