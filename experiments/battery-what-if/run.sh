#!/usr/bin/env bash
# The battery what-if: what each reference policy costs in battery across 81 field conditions.
# Run from the repository root: experiments/battery-what-if/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# BGSIM names a bgsim already built (CI passes its static build); otherwise it is built here.
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
"$bgsim" whatif proton-upload-designed coverdrop-designed zashi-designed bgscheduler-designed \
    --seeds 16 --days 60 \
    --format markdown --output experiments/battery-what-if/report.md \
    --report experiments/battery-what-if/report.html
