# Sourced, from the package root, by the studies that hold comparisons under model uncertainty
# (experiments/*/*-model-uncertainty.md). Each takes 1.5 to 3.5 minutes, for its search for
# break-even points, so CI reruns one per commit, the one the commit's hash picks (.ci/run).
#
# MODEL_UNCERTAINTY, when set, names that one (its output's name without .md); the others keep
# their committed results. A name that is no such comparison exits 2 before anything runs.
# Unset, every comparison reruns.
if [ -n "${MODEL_UNCERTAINTY:-}" ] && ! compgen -G "experiments/*/$MODEL_UNCERTAINTY.md" > /dev/null; then
    known=$(for file in experiments/*/*-model-uncertainty.md; do basename "$file" .md; done | tr '\n' ' ')
    echo "MODEL_UNCERTAINTY=$MODEL_UNCERTAINTY: no such comparison; expected one of: $known" >&2
    exit 2
fi

# Whether the comparison under model uncertainty named `$1` is to be rerun.
rerun() { [ -z "${MODEL_UNCERTAINTY:-}" ] || [ "$MODEL_UNCERTAINTY" = "$1" ]; }
