#!/usr/bin/env bash
# Which door? Proton Drive's uploads with 3-hour upload URLs through each way iOS offers to get
# background work done — extension then processing tasks (the design), the extension only (the
# App Store build), a background URL session, an iOS 26 continued-processing task — compared on
# the same 100 simulated users for a year each; and CoverDrop's sending woken by silent pushes
# instead of app refresh.
# Run from anywhere: experiments/which-door/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
# BGSIM names a bgsim already built (CI passes its static build); otherwise it is built here.
bgsim=${BGSIM:-}
if [ -z "$bgsim" ]; then swift build -c release --product bgsim; bgsim=.build/release/bgsim; fi
out=experiments/which-door
# MODEL_UNCERTAINTY=<name> reruns only that comparison under model uncertainty (rerun).
. experiments/model-uncertainty.sh
doors="extension-then-processing extension-only background-urlsession continued-processing"
compare() {
    local name=$1
    shift
    "$bgsim" compare "$@" --seeds 100 --days 365 --quiet \
        --format markdown --output "$out/$name.md" --report "$out/$name.html"
}
# Large uploads (20 MB median: photo bursts and short videos), the question's case: the most
# uploads done within a third of a percent of the battery a day.
uploads="--maximize work.completionPercent --subject-to energy.appBatteryPercentPerDay<=0.3"
compare large-uploads $(for door in $doors; do echo "$out/scenarios/$door.json"; done) $uploads
# The same question under model uncertainty: each seed draws the iOS model's inferred and observed
# numbers from their plausible ranges (docs/OUTPUT.md, "Under model uncertainty").
if rerun large-uploads-model-uncertainty; then
    compare large-uploads-model-uncertainty $(for door in $doors; do echo "$out/scenarios/$door.json"; done) $uploads --model-uncertainty
fi
# Why the new doors still miss some: the same arms without force-quits, then without their next cause.
compare why-uploads-miss $(for arm in background-urlsession urlsession-no-force-quits urlsession-no-force-quits-no-preparation \
    continued-processing continued-no-force-quits continued-no-force-quits-always-online; do echo "$out/scenarios/$arm.json"; done)
# The presets' photos (2.5 MB median), for contrast.
compare photos proton-upload-designed proton-upload-shipped proton-upload-urlsession proton-upload-continued $uploads
# CoverDrop: app refresh (the design) or an hourly silent push from its server: the sooner a
# message leaves, within a twentieth of a percent of the battery a day.
compare coverdrop-push coverdrop-designed coverdrop-push \
    --minimize work.allItemsLatencyMinutes.p90 --subject-to energy.appBatteryPercentPerDay\<=0.05
if rerun coverdrop-push-model-uncertainty; then
    compare coverdrop-push-model-uncertainty coverdrop-designed coverdrop-push \
        --minimize work.allItemsLatencyMinutes.p90 --subject-to energy.appBatteryPercentPerDay\<=0.05 --model-uncertainty
fi
# The push arm across the device's push budget and the other apps' pushes, the ends of their
# plausible ranges (docs/SCENARIOS.md): every cell's metrics in the .jsonl, the summary in the .md;
# then the comparison again where the push arm gets least (a budget of 0.5 an hour, other apps 4).
rm -f "$out/coverdrop-push-budgets.jsonl"
"$bgsim" sweep "$out/scenarios/coverdrop-push-budgets.json" --quiet --format markdown \
    --out "$out/coverdrop-push-budgets.jsonl" > "$out/coverdrop-push-budgets.md"
compare coverdrop-push-crowded coverdrop-designed coverdrop-push --with "$out/scenarios/crowded-phone.json" \
    --minimize work.allItemsLatencyMinutes.p90 --subject-to energy.appBatteryPercentPerDay\<=0.05
# What each new door did, in its own counters (relaunches, stalls, cancels, pushes).
for door in background-urlsession continued-processing; do
    "$bgsim" run --scenario "$out/scenarios/$door.json" --seeds 100 --days 365 --quiet --output "$out/$door.txt"
done
"$bgsim" run --preset coverdrop-push --seeds 100 --days 365 --quiet --output "$out/coverdrop-push.txt"
