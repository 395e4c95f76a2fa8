#!/usr/bin/env bash
# Designed vs shipped: each seed app as its design document describes it and as its code ships
# it, compared on the same 100 simulated users for a year each.
# Run from anywhere: experiments/designed-vs-shipped/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# BGSIM names a bgsim already built (CI passes its static build); otherwise it is built here.
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
out=experiments/designed-vs-shipped
# MODEL_UNCERTAINTY=<name> reruns only that comparison under model uncertainty (rerun).
. experiments/model-uncertainty.sh
compare() {
    local name=$1
    shift
    "$bgsim" compare "$@" --seeds 100 --days 365 --quiet \
        --format markdown --output "$out/$name.md" --report "$out/$name.html"
}
compare coverdrop coverdrop-designed coverdrop-shipped coverdrop-processing-2025-07
# The README's main job (bgsim compare with no scenarios) under model uncertainty: each seed draws
# the iOS model's inferred and observed numbers from their plausible ranges.
if rerun main-job-model-uncertainty; then
    "$bgsim" compare --model-uncertainty --quiet --format markdown --output "$out/main-job-model-uncertainty.md" \
        --report "$out/main-job-model-uncertainty.html"
fi
# The guard for the comparisons under model uncertainty, which CI does not rerun
# (experiments/model-uncertainty.sh): the built-in comparison at 8 seeds × 10 days, with a
# break-even search. CI reruns it on every commit; when it moves, rerun every study.
"$bgsim" compare --model-uncertainty --seeds 8 --days 10 --break-even system.suspendedTerminationPerHour --quiet \
    --format markdown --output "$out/model-uncertainty-guard.md"
compare proton proton-upload-designed proton-upload-shipped proton-upload-restart
compare zashi zashi-designed zashi-shipped
compare bgscheduler bgscheduler-designed bgscheduler-shipped
"$bgsim" run --preset proton-photos-backup --seeds 100 --days 365 --quiet \
    --output "$out/proton-photos-backup.txt"
# The shipped TestBGScheduler's two defects, as bgsim check reports them (exit 1; paths made
# relative to the package root so that the file is the same on every machine).
status=0
"$bgsim" check --preset bgscheduler-shipped --swarm --seeds 2000 --quiet --out "$out" > "$out/bgscheduler-check.txt" || status=$?
test "$status" -eq 1
sed -i "s|$PWD/||g" "$out/bgscheduler-check.txt"
