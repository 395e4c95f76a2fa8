#!/usr/bin/env bash
# Calibrate to your own users, on logs with a known answer: 250 simulated phones × 28 days
# (1,000 device-weeks each) whose iOS treats the app differently from the default launch
# model, logged as an instrumented app would log them, then calibrated from the defaults:
# CoverDrop's refresh and Zashi's processing. And a case the model cannot express: Zashi's
# users force-quitting and using Low Power Mode, which no field log shows.
# Run from anywhere: experiments/calibrate-to-users/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# BGSIM names a bgsim already built (CI passes its static build); otherwise it is built here.
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
out=experiments/calibrate-to-users
# The logs (17 MB each) are not kept; a fixed path keeps the reports' command lines the same bytes.
logs=$out/logs
mkdir -p "$logs"
trap 'rm -rf "$logs"' EXIT
calibrate() {
    local name=$1 log=$2
    shift 2
    "$bgsim" calibrate "$log" "$@" --quiet --format markdown --output "$out/$name.md" --report "$out/$name.html" \
        --fragment "$out/$name.fitted.json"
}
# Known answers: the phones' launch parameters are in the scenarios; calibration starts from the presets' defaults.
"$bgsim" run --scenario "$out/scenarios/coverdrop-users.json" --seeds 250 --days 28 --field-log "$logs/coverdrop.jsonl" --quiet > /dev/null
calibrate coverdrop "$logs/coverdrop.jsonl" --preset coverdrop-shipped
"$bgsim" run --scenario "$out/scenarios/zashi-users.json" --seeds 250 --days 28 --field-log "$logs/zashi.jsonl" --quiet > /dev/null
calibrate zashi "$logs/zashi.jsonl" --preset zashi-shipped
# Mis-specified: Zashi's default users force-quit after 10 % of sessions and accept Low Power Mode.
"$bgsim" run --preset zashi-shipped --seeds 250 --days 28 --field-log "$logs/zashi-force-quits.jsonl" --quiet > /dev/null
calibrate zashi-force-quits "$logs/zashi-force-quits.jsonl" --preset zashi-shipped
