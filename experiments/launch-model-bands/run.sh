#!/usr/bin/env bash
# The launch models against their probes: launches a day, the share on the charger and the share
# between 21:00 and 06:00, for each probe under each launch model, seeds 1-3 × 200 days.
# Run from anywhere: experiments/launch-model-bands/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# BGSIM names a bgsim already built (CI passes its optimised build); otherwise it is built here.
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
out=experiments/launch-model-bands
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One run's figures, from its JSON report: launches a day of the probe's kind, the share on the
# charger, and the share of launches in the hours 21 to 5 (the launch hour histogram, local time).
figures() {
    awk -v kind="$1" '
        $0 ~ "\"" kind "LaunchesPerDay\"" { gsub(/[ ,]/, "", $2); perDay = $2 }
        /"launchesWhileChargingShare"/ { gsub(/[ ,]/, "", $2); charger = $2 }
        /"launchHourHistogram"/ { inHistogram = 1; hour = 0; next }
        inHistogram && /\]/ { inHistogram = 0 }
        inHistogram { gsub(/[ ,]/, "", $1); total += $1; if (hour >= 21 || hour < 6) night += $1; hour++ }
        END { share = total ? 100 * night / total : 0; printf "%.2f %.0f %.0f\n", perDay, 100 * charger, share }
    '
}

# The lowest and highest of some whole percentages, as "a–b %" (or "a %" when they agree).
range() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 { low = $1 } { high = $1 } END { print (low == high ? low : low "–" high) " %" }'; }

{
    echo "# The launch models against their probes"
    echo
    echo "Launches a day, and the share on the charger and between 21:00 and 06:00, for each probe"
    echo "under each launch model: seeds 1, 2 and 3, 200 days each (\`bgsim run --preset P --days 200"
    echo "--seed S --format json\`, with \`{\"system\": {\"launchModel\": M}}\` laid over the preset)."
    echo
    echo "| probe | model | launches a day (seeds 1, 2, 3) | on the charger | 21:00–06:00 |"
    echo "|---|---|---|---|---|"
    for probe in probe-refresh probe-processing; do
        kind=$([ "$probe" = probe-refresh ] && echo refresh || echo processing)
        for model in heuristic eager stingy; do
            echo "{\"system\": {\"launchModel\": \"$model\"}}" > "$work/$model.json"
            rates=() chargers=() nights=()
            for seed in 1 2 3; do
                read -r rate charger night < <("$bgsim" run --preset "$probe" --with "$work/$model.json" --days 200 --seed "$seed" \
                    --format json | figures "$kind")
                rates+=("$rate") chargers+=("$charger") nights+=("$night")
            done
            echo "| $probe | $model | ${rates[0]}, ${rates[1]}, ${rates[2]} | $(range "${chargers[@]}") | $(range "${nights[@]}") |"
        done
    done
} > "$out/bands.md"
