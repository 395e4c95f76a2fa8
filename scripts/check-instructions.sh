#!/usr/bin/env bash
# The instruction guard: runs each benchmark of Benchmarks/instructions.txt under callgrind and
# compares the instructions it executed with the committed count. Fails (exit 1) when one rose by
# more than 2 %; says so, without failing, when one fell by more than 2 % (the table should be
# updated to keep the guard tight). Callgrind's counts repeat exactly however loaded the machine
# is, so a 2 % rise is the code's, not the machine's.
#
#   scripts/check-instructions.sh BIN_DIR            # check, with the binaries in BIN_DIR
#   scripts/check-instructions.sh BIN_DIR --update   # write the counts measured into the table
#
# BIN_DIR holds bgsim-bench and bgsim-app-bench from CI's optimised build:
#   swift build -c release --scratch-path .build-release -Xswiftc -enable-testing --product bgsim-bench
#   swift build -c release --scratch-path .build-release -Xswiftc -enable-testing --product bgsim-app-bench
#   scripts/check-instructions.sh .build-release/release
# Counts from another build (another compiler, other flags, another C library) differ: the
# table holds the counts of the build CI makes, on the CI machine's Debian and toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
table=Benchmarks/instructions.txt
bin=${1:?usage: scripts/check-instructions.sh BIN_DIR [--update]}
update=${2:-}
limit_percent=2
command -v valgrind >/dev/null || { echo "check-instructions: valgrind (callgrind) is not installed" >&2; exit 1; }

# instructions ARGS...: the instructions the benchmark executed.
instructions() {
    local exe=$1
    shift
    # Swift seeds its hashing per process, so a dictionary's probes, and the instructions, vary
    # a little from run to run (±0.1 %); with the seed fixed they repeat exactly.
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin/$exe" "$@" 2>&1 >/dev/null \
        | awk '/I[ ]+refs:/ { gsub(",", "", $NF); print $NF }'
}

failed=0
new_table=$(mktemp)
trap 'rm -f "$new_table"' EXIT
printf '%-24s %15s %15s %8s\n' benchmark committed measured change
while IFS= read -r line; do
    if [[ -z $line || $line == \#* ]]; then
        echo "$line" >> "$new_table"
        continue
    fi
    read -r name committed exe args <<< "$line"
    # shellcheck disable=SC2086
    measured=$(instructions "$exe" $args)
    if [[ -z $measured ]]; then
        echo "check-instructions: $name did not run: $exe $args" >&2
        exit 1
    fi
    change=$(awk -v m="$measured" -v c="$committed" 'BEGIN { printf "%+.2f %%", (m - c) * 100 / c }')
    printf '%-24s %15s %15s %8s\n' "$name" "$committed" "$measured" "$change"
    if awk -v m="$measured" -v c="$committed" -v l="$limit_percent" 'BEGIN { exit !(m > c * (1 + l / 100)) }'; then
        echo "  $name rose by more than $limit_percent %: find the cause (callgrind_annotate), or update $table in the same commit and say why in BENCHMARKS.md (\"The instruction guard\")" >&2
        failed=1
    elif awk -v m="$measured" -v c="$committed" -v l="$limit_percent" 'BEGIN { exit !(m < c * (1 - l / 100)) }'; then
        echo "  $name fell by more than $limit_percent %: update $table (scripts/check-instructions.sh BIN_DIR --update) to keep the guard tight"
    fi
    printf '%-24s %12s  %s %s\n' "$name" "$measured" "$exe" "$args" >> "$new_table"
done < "$table"
if [[ $update == --update ]]; then
    cp "$new_table" "$table"
    echo "wrote $table"
    exit 0
fi
exit $failed
