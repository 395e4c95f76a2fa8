#!/usr/bin/env bash
# Tuning CoverDrop's sending as shipped: the mean of its random delay before a background run and
# the least time between two runs that send, for the lowest p90 message latency within 0.04 % of
# the battery a day. bgsim tune's fully sequential (Kim–Nelson) selection on common random numbers.
# Run from anywhere: experiments/tune-coverdrop/run.sh (about 25 s on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/../.."
# BGSIM names a bgsim already built (CI passes its static build); otherwise it is built here.
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
out=experiments/tune-coverdrop
# Start from nothing (the stage files are results, not inputs), and leave nothing but the reports.
rm -f "$out"/coverdrop-delay.stage*.jsonl
"$bgsim" tune "$out/coverdrop-delay.json" --quiet --format markdown --output "$out/tune.md" --report "$out/tune.html"
rm -f "$out"/coverdrop-delay.stage*.jsonl
