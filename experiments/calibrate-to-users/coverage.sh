#!/usr/bin/env bash
# How often calibrate's 95 % intervals contain the truth, and how often the goodness of fit
# flags a correctly specified model: 20 independent replications of 60 phones × 28 days for
# each known-answer scenario (seeds 1000–2199), calibrated from the presets' defaults. About
# 3 minutes on 2 cores; not part of CI. Needs python3 to read the JSON.
# Run from anywhere: experiments/calibrate-to-users/coverage.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product bgsim
bgsim=.build/release/bgsim
out=experiments/calibrate-to-users
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for case in coverdrop:coverdrop-shipped zashi:zashi-shipped; do
    name=${case%%:*} preset=${case##*:}
    for r in $(seq 0 19); do
        "$bgsim" run --scenario "$out/scenarios/$name-users.json" --seeds 60 --seed $((1000 + r * 60)) --days 28 \
            --field-log "$work/$name-$r.jsonl" --quiet > /dev/null
        "$bgsim" calibrate "$work/$name-$r.jsonl" --preset "$preset" --format json --quiet --output "$work/$name-$r.json"
    done
done
python3 - "$work" "$out/scenarios" <<'PYTHON'
import json, sys
work, scenarios = sys.argv[1], sys.argv[2]
for name in ["coverdrop", "zashi"]:
    truth = json.load(open(f"{scenarios}/{name}-users.json"))["system"]["heuristic"]
    covered, flagged, converged = {}, 0, 0
    for r in range(20):
        for kind in json.load(open(f"{work}/{name}-{r}.json"))["kinds"]:
            flagged += sum(1 for feature in kind["features"] if not feature["fits"])
            converged += kind["converged"] and kind["tooSmall"] is None
            for p in kind["parameters"]:
                if p["heldBecause"] is None:
                    # A fit without an interval (not converged, or too small) covers nothing.
                    inside = p["low"] is not None and p["low"] <= truth[p["key"]] <= p["high"]
                    covered[p["key"]] = covered.get(p["key"], 0) + inside
    print(f"{name}: intervals containing the truth, of 20: " + ", ".join(f"{k} {v}" for k, v in covered.items())
          + f"; fits that converged: {converged}; features flagged over the 20 runs: {flagged}")
PYTHON
