# syntax=docker/dockerfile:1
#
# nachfolge — container image of the worker.
#
#   docker build -t nachfolge .
#   docker run --rm nachfolge decide --election … --vacancy …     (offline commands work too)
#
# Stage 1 builds the dependencies alone (from Cargo.toml and Cargo.lock, with placeholder sources), so that
# a change to the sources rebuilds only the crate itself — what cargo-chef does, by hand. Stage 2 installs
# cargo-cyclonedx (cached on its own). Stage 3 builds the real binary and its CycloneDX SBOM (the same
# command as `bash .ci/sbom`). Stage 4 is distroless: glibc and the CA certificates, no shell, no package
# manager, user 65532 (nonroot).
#
# SBOM: /usr/share/doc/nachfolge/sbom.cdx.json in the image (CycloneDX 1.5 JSON: every crate compiled into
# the binary, with version, SHA-256, licence and purl; see docs/security.md). Read it without running the
# image: `docker create --name x IMAGE && docker cp x:/usr/share/doc/nachfolge/sbom.cdx.json . && docker rm x`.
# `docker build --build-arg SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)` makes its timestamp reproducible.
#
# No sqlx query macros are used (queries are checked at run time; migrations are embedded with
# include_str!), so the build needs no database and no SQLX_OFFLINE / .sqlx metadata.
#
# Health: the runtime image has no shell and no HTTP client, so there is no Docker HEALTHCHECK. The worker
# serves GET /healthz (alive) and GET /readyz (database, broker, consumer) on port 8080: Kubernetes probes
# them (deploy/k8s/deployment.yaml); see docs/deploy.md.

ARG RUST_IMAGE=rust:1-slim-bookworm
ARG RUNTIME_IMAGE=gcr.io/distroless/cc-debian12:nonroot

FROM ${RUST_IMAGE} AS deps
WORKDIR /src
ENV CARGO_TERM_COLOR=never \
    CARGO_INCREMENTAL=0
COPY Cargo.toml Cargo.lock ./
# The workspace's own crates (the legal core, the importer): their manifests here, placeholders for their
# sources, so that this stage builds only what crates.io brings; their sources come in the build stage.
COPY crates/nachfolge-core/Cargo.toml ./crates/nachfolge-core/
COPY crates/nachfolge-import/Cargo.toml ./crates/nachfolge-import/
# cargo checks at manifest load that every declared target's file exists: the benches (which this build does
# not compile) are copied as they are, the library and the binary get placeholders. Then build the
# dependency graph only.
COPY benches ./benches
RUN mkdir -p src crates/nachfolge-core/src crates/nachfolge-import/src \
 && echo 'fn main() {}' > src/main.rs \
 && echo '' > src/lib.rs \
 && echo '' > crates/nachfolge-core/src/lib.rs \
 && echo '' > crates/nachfolge-import/src/lib.rs \
 && cargo build --release --locked --bin nachfolge \
 && rm -rf src crates \
    target/release/nachfolge target/release/nachfolge.d \
    target/release/deps/nachfolge-* target/release/deps/libnachfolge-* \
    target/release/deps/nachfolge_* target/release/deps/libnachfolge_* \
    target/release/.fingerprint/nachfolge-*

FROM ${RUST_IMAGE} AS sbom-tool
# The version .ci/sbom installs (checked by .ci/lint-deploy).
ARG CYCLONEDX_VERSION=0.5.9
RUN cargo install cargo-cyclonedx --locked --version "${CYCLONEDX_VERSION}"

FROM deps AS build
# What the crate compiles in: sources, embedded templates (config/templates), the fonts of the PDFs
# (assets/fonts) and migrations.
COPY crates ./crates
COPY src ./src
COPY config ./config
COPY assets ./assets
COPY migrations ./migrations
COPY --from=sbom-tool /usr/local/cargo/bin/cargo-cyclonedx /usr/local/cargo/bin/cargo-cyclonedx
# SOURCE_DATE_EPOCH: the SBOM's timestamp when given (cargo-cyclonedx panics on an empty one, hence unset).
ARG SOURCE_DATE_EPOCH
# The SBOM: the arguments of .ci/sbom (SBOM_ARGS; checked by .ci/lint-deploy).
RUN cargo build --release --locked --bin nachfolge \
 && ./target/release/nachfolge --version \
 && if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then unset SOURCE_DATE_EPOCH; fi \
 && cargo cyclonedx --format json --spec-version 1.5 --describe binaries --no-build-deps \
 && mv nachfolge_bin.cdx.json target/release/nachfolge.cdx.json

FROM ${RUNTIME_IMAGE} AS runtime
LABEL org.opencontainers.image.title="nachfolge" \
      org.opencontainers.image.description="List successors (Listennachfolge) for German municipal councils: NRW § 45 KWahlG, Hessen § 34 KWG" \
      org.opencontainers.image.licenses="EUPL-1.2"
WORKDIR /app
# config/default.toml is read from the working directory; the templates are compiled in (config/templates
# is copied as the reference for deployments that override them with templates.dir).
# Both are owned by root and read-only for the worker.
COPY --from=build /src/config /app/config
COPY --from=build /src/target/release/nachfolge /app/nachfolge
COPY --from=build /src/target/release/nachfolge.cdx.json /usr/share/doc/nachfolge/sbom.cdx.json
# the fonts compiled into the binary (the PDFs) come with their licence notice
COPY --from=build /src/assets/fonts/LICENSE-DejaVu.txt /usr/share/doc/nachfolge/LICENSE-DejaVu.txt
USER 65532:65532
ENV NACHFOLGE__HTTP__ADDR=0.0.0.0:8080 \
    NACHFOLGE__CONSOLE__ADDR=0.0.0.0:8081 \
    RUST_LOG=info
# 8080: probes and metrics; 8081: the Wahlleiter console (docs/console.md), behind a TLS-terminating proxy
EXPOSE 8080 8081
ENTRYPOINT ["/app/nachfolge"]
CMD ["run"]
