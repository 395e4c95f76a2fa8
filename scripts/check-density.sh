#!/usr/bin/env bash
# Checks per 1,000 lines of each module under Sources/, as docs/ARCHITECTURE.md's table gives
# them (Markdown, one row per module). A check is a call of precondition, preconditionFailure,
# assert, assertionFailure or fatalError outside a comment; those in `+Invariants.swift` files
# run after every mutation only in a build with SIMKERNEL_INTERNAL_CHECKS (every debug build), the others always
# (assert and assertionFailure in debug builds only). Lines are every line of the module's
# Swift files, comments and blank lines included.
# Run from anywhere: scripts/check-density.sh
set -euo pipefail
cd "$(dirname "$0")/../Sources"
count() { if [ $# -eq 0 ]; then echo 0; else { grep -hv '^[[:space:]]*//' "$@" | grep -oE '\b(precondition|preconditionFailure|assert|assertionFailure|fatalError)\(' || true; } | wc -l; fi; }
echo "| module | lines | checks always on | checks under internal checks | per 1,000 lines |"
echo "|---|---:|---:|---:|---:|"
for module in */; do
    module=${module%/}
    mapfile -t files < <(find "$module" -name '*.swift' | LC_ALL=C sort)
    mapfile -t invariants < <(printf '%s\n' "${files[@]}" | grep '+Invariants\.swift$' || true)
    mapfile -t others < <(printf '%s\n' "${files[@]}" | grep -v '+Invariants\.swift$' || true)
    lines=$(cat "${files[@]}" | wc -l)
    always=$(count "${others[@]}")
    internal=$(count "${invariants[@]}")
    awk -v m="$module" -v l="$lines" -v a="$always" -v i="$internal" \
        'BEGIN { printf "| `%s` | %d | %d | %d | %.1f |\n", m, l, a, i, (a + i) * 1000 / l }'
done
