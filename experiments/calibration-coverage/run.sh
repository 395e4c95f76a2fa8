#!/usr/bin/env bash
# How often `bgsim calibrate`'s 95 % intervals contain the value that generated the logs, how
# often its fits converge, and how often its goodness of fit flags a model that is right.
#
# For each case in cases/ (NAME.users.json: the users and phones; NAME.truth.json: the launch
# parameters that generate the logs, far from the defaults), each replication simulates 60
# phones × 28 days with fresh seeds, writes their field log, and calibrates it from the preset's
# default launch parameters with the same users (`--with NAME.users.json`), or with other users
# where the case gives them (`NAME.base.json`: the users' day must then be read from the logs).
# The summary goes to results.md and every replication's values to replications.csv.
#
# Usage: experiments/calibration-coverage/run.sh [REPLICATIONS [OUT]]
#   REPLICATIONS  per case (default 200: the committed results, about an hour on 2 cores)
#   OUT           where results.md and replications.csv go (default: this directory)
#   ONLY=NAME     (environment) run that case alone
#   PHONES=N      (environment) phones per replication (default 60; the small-log study uses 10-20)
#   START=K       (environment) logs that start K days after install: each phone runs 28 + K
#                 days and its first K days' records are dropped (the mid-history study)
#   GAP=D:L       (environment) logs that lost L days of records from day D of the log: each
#                 phone runs L more days, and loses them (the study of logs with gaps)
#   FIRST=R       (environment) start at replication R (default 0): more replications of a
#                 study with seeds of their own, REPLICATIONS of them from R on
# CI runs it with 1 replication into a temporary directory. Needs python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
replications=${1:-200}
# The settings, checked before anything runs (a bad one exits 2, naming it).
for setting in "REPLICATIONS=$replications" "PHONES=${PHONES:-60}" "START=${START:-0}" "FIRST=${FIRST:-0}"; do
    if ! [[ "${setting#*=}" =~ ^[0-9]+$ ]]; then echo "run.sh: ${setting%%=*} must be a whole number, not '${setting#*=}'" >&2; exit 2; fi
done
if [ -n "${GAP:-}" ] && ! [[ "$GAP" =~ ^[0-9]+:[0-9]+$ ]]; then
    echo "run.sh: GAP must be D:L (the day of the log the gap begins on and its length, whole days), not '$GAP'" >&2; exit 2
fi
out=${2:-$here}
mkdir -p "$out"
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# case:preset:replications
cases="refresh-far:coverdrop-shipped:$replications refresh-heavy-mini:coverdrop-shipped:$replications
processing-far:zashi-shipped:$replications processing-night-owl:zashi-shipped:$replications
processing-late:zashi-shipped:$replications"
# ONLY=NAME runs one case (its results only), to redo a case after a change that touches it alone.
if [ -n "${ONLY:-}" ]; then cases=$(for entry in $cases; do case "$entry" in "$ONLY":*) echo "$entry";; esac; done); fi
for entry in $cases; do
    IFS=: read -r name preset count <<< "$entry"
    for r in $(seq "${FIRST:-0}" $((${FIRST:-0} + count - 1))); do
        seed=$((100000 + r * 60))
        start=${START:-0}
        gap_from=0; gap_days=0
        if [ -n "${GAP:-}" ]; then IFS=: read -r gap_from gap_days <<< "$GAP"; fi
        "$bgsim" run --preset "$preset" --with "$here/cases/$name.users.json" --with "$here/cases/$name.truth.json" \
            --seeds "${PHONES:-60}" --seed "$seed" --days $((28 + start + gap_days)) --field-log "$work/log.jsonl" --quiet > /dev/null
        if [ "$start" -gt 0 ] || [ "$gap_days" -gt 0 ]; then
            python3 "$here/drop_days.py" "$work/log.jsonl" "$start" "$gap_from" "$gap_days"
        fi
        base="$here/cases/$name.users.json"
        if [ -f "$here/cases/$name.base.json" ]; then base="$here/cases/$name.base.json"; fi
        "$bgsim" calibrate "$work/log.jsonl" --preset "$preset" --with "$base" \
            --format json --quiet --output "$work/$name-$r.json"
        echo "$name $((r - ${FIRST:-0} + 1))/$count" >&2
    done
done
python3 "$here/summarise.py" "$work" "$here/cases" "$out" $cases
