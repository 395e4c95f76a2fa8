# bgsim in a small image, for sweeps on Kubernetes or any container runner (docs/SWEEPS.md).
#
#   docker build -t bgsim .
#   docker run --rm -v "$PWD:/work" -w /work bgsim sweep delays.json --shard 0/4 --out part0.jsonl
#
# The binary is linked with the Swift runtime and Foundation inside it (--static-swift-stdlib), so
# the runtime image needs only the C and C++ libraries Debian ships.
FROM swift:6.2-bookworm AS build
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Benchmarks ./Benchmarks
COPY Tests ./Tests
RUN swift build -c release --product bgsim --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/bgsim" /usr/local/bin/bgsim

FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/bgsim /usr/local/bin/bgsim
ENTRYPOINT ["bgsim"]
CMD ["--help"]
