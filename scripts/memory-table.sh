#!/usr/bin/env bash
# Peak resident memory (GNU time's %M) of each bgsim command at its default size, 10× and 100×
# it, printed as the Markdown table in BENCHMARKS.md ("Memory: each command at 10× and 100×").
#
#   swift build -c release && scripts/memory-table.sh            # about 25 minutes on 2 cores
#   BGSIM=/path/to/bgsim SIZES="1 10" scripts/memory-table.sh     # a build of your own; fewer sizes
#   ONLY='compare|whatif' scripts/memory-table.sh                  # the rows whose label matches
#
# Each row says what "default" is for its command. Runs write into a temporary folder, removed
# at the end.
set -euo pipefail
BGSIM=${BGSIM:-$(cd "$(dirname "$0")/.." && pwd)/.build/release/bgsim}
SIZES=${SIZES:-"1 10 100"}
ONLY=${ONLY:-.}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# peak COMMAND...: runs it quietly and prints its peak RSS in MB, or its exit status if it failed.
peak() {
    if /usr/bin/time -f %M -o rss "$@" > /dev/null 2> err; then
        awk '{ printf "%.1f MB", $1 / 1024 }' rss
    else
        echo "exit $? ($(head -c 200 err))"
    fi
}

# row LABEL DEFAULT FUNCTION: one table row, FUNCTION called with each size's factor.
row() {
    local label=$1 default=$2 measure=$3 cells=""
    [[ $label =~ $ONLY ]] || return 0
    for factor in $SIZES; do cells+=" $($measure "$factor") |"; done
    echo "| $label | $default |$cells"
}

run_days() { peak "$BGSIM" run --preset coverdrop-shipped --days $((365 * $1)); }
run_trace() { peak "$BGSIM" run --preset coverdrop-shipped --days $((365 * $1)) --trace trace.json; rm -f trace.json; }
run_seeds() { peak "$BGSIM" run --preset coverdrop-shipped --seeds $((100 * $1)) --days 28 --quiet; }
run_field_log() { peak "$BGSIM" run --preset coverdrop-shipped --seeds $((100 * $1)) --days 28 --field-log "log$1.jsonl" --quiet; }
trace_days() { local days=$((3 * $1)); ((days > 60)) && days=60; peak "$BGSIM" trace --preset coverdrop-shipped --days $days --out trace.json; rm -f trace.json; }
compare_seeds() { peak "$BGSIM" compare --seeds $((100 * $1)) --quiet; }
whatif_seeds() { peak "$BGSIM" whatif coverdrop-shipped --seeds $((8 * $1)) --quiet; }
check_seeds() { peak "$BGSIM" check --preset coverdrop-shipped --seeds $((100 * $1)) --quiet; }
sweep_seeds() {
    cat > "sweep$1.json" <<EOF
{ "name": "delays$1", "preset": "coverdrop-designed",
  "axes": [ { "path": "app.policy.parameters.meanDelayMinutes", "values": [5, 30, 120] },
            { "path": "app.policy.parameters.minimumRunIntervalMinutes", "values": [15, 60] } ],
  "seeds": $((20 * $1)), "days": 90 }
EOF
    peak "$BGSIM" sweep "sweep$1.json" --quiet
}
tune_seeds() {
    cat > "tune$1.json" <<EOF
{ "name": "tune$1", "preset": "coverdrop-shipped",
  "parameters": [ { "path": "app.policy.parameters.meanDelayMinutes", "from": 10, "to": 130, "count": 4 },
                  { "path": "app.policy.parameters.minimumRunIntervalMinutes", "values": [15, 30, 60, 120] } ],
  "objective": { "minimize": "work.allItemsLatencyMinutes.p90", "subjectTo": ["energy.appBatteryPercentPerDay<=0.04"] },
  "indifferenceZone": 30, "tolerances": { "energy.appBatteryPercentPerDay": 0.002 },
  "days": 30, "firstStageSeeds": $((10 * $1)), "maximumSeeds": $((200 * $1)) }
EOF
    peak "$BGSIM" tune "tune$1.json" --quiet
}
fieldlog_records() { peak "$BGSIM" fieldlog "log$1.jsonl"; }
calibrate_records() { peak "$BGSIM" calibrate "log$1.jsonl" --preset coverdrop-shipped --quiet; }

echo "| command | default size | ${SIZES// / | } |" | sed -e 's/| \([0-9]*\) /| \1× /g'
echo "|---|---|$(for _ in $SIZES; do printf -- '---:|'; done)"
row "\`run\`" "1 phone × 365 days" run_days
row "\`run --trace\`" "1 phone × 365 days" run_trace
row "\`run --seeds\`" "100 phones × 28 days" run_seeds
row "\`run --seeds --field-log\`" "100 phones × 28 days" run_field_log
row "\`fieldlog\`" "that log (100 phones × 28 days)" fieldlog_records
row "\`calibrate\`" "that log" calibrate_records
row "\`trace\`" "3 days (10×: 30; 100×: the cap, 60)" trace_days
row "\`compare\` (bare)" "2 scenarios × 100 seeds × 365 days" compare_seeds
row "\`whatif\`" "81 cells × 8 seeds × 30 days" whatif_seeds
row "\`check\`" "100 seeds × 7 days" check_seeds
row "\`sweep\`" "6 cells × 20 seeds × 90 days" sweep_seeds
row "\`tune\`" "16 configurations, 10 first-stage and 200 most seeds, 30 days" tune_seeds
