# Sourced, from the package root, by the studies that hold comparisons under model uncertainty
# (experiments/*/*-model-uncertainty.md). Each takes up to 8 CPU-minutes (the main job's 7.6), for
# its search for break-even points, so CI does not rerun them: it reruns a small one instead
# (designed-vs-shipped's model-uncertainty-guard.md, 8 seeds × 10 days, with a break-even search),
# which moves when the model, the draws or the search move. When it does, rerun the studies with
# MODEL_UNCERTAINTY unset and commit what they write.
#
# MODEL_UNCERTAINTY, when set, names the one to rerun (its output's name without .md), or `none`;
# the others keep their committed results. A name that is no such comparison exits 2 before
# anything runs. Unset, every comparison reruns.
if [ -n "${MODEL_UNCERTAINTY:-}" ] && [ "$MODEL_UNCERTAINTY" != none ] && ! compgen -G "experiments/*/$MODEL_UNCERTAINTY.md" > /dev/null; then
    known=$(for file in experiments/*/*-model-uncertainty.md; do basename "$file" .md; done | tr '\n' ' ')
    echo "MODEL_UNCERTAINTY=$MODEL_UNCERTAINTY: no such comparison; expected none or one of: $known" >&2
    exit 2
fi

# Whether the comparison under model uncertainty named `$1` is to be rerun.
rerun() { [ -z "${MODEL_UNCERTAINTY:-}" ] || [ "$MODEL_UNCERTAINTY" = "$1" ]; }
