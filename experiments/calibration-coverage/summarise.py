"""Summarises the coverage study's calibrations (run.sh): per case and parameter, how many 95 %
intervals contain the generating value; how many fits converged; the features flagged.

Usage: summarise.py WORK CASES OUT name:preset:count ..."""
import csv
import json
import math
import os
import sys

work, cases, out = sys.argv[1:4]
entries = [entry.split(":") for entry in sys.argv[4:]]
# run.sh's FIRST: the replications are numbered from it.
first = int(os.environ.get("FIRST", "0"))


def wilson(hits, n):
    """The 95 % Wilson score interval of a proportion (Wilson 1927)."""
    if n == 0:
        return (0.0, 1.0)
    z, p = 1.959964, hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


rows, lines = [], []
lines.append("| case | parameter | generating | intervals containing it | share (95 % CI) | median fitted |")
lines.append("|---|---|---:|---:|---|---:|")
notes = []
for name, preset, count in entries:
    count = int(count)
    truth = json.load(open(f"{cases}/{name}.truth.json"))["system"]["heuristic"]
    covered, values, converged, edge, small, flagged, shifts = {}, {}, 0, 0, 0, {}, {}
    for r in range(first, first + count):
        report = json.load(open(f"{work}/{name}-{r}.json"))
        shift = int(report["usersDayShiftHours"])
        shifts[shift] = shifts.get(shift, 0) + 1
        for kind in report["kinds"]:
            converged += kind["converged"]
            edge += not kind["converged"] and kind["startsAgree"]
            small += kind["tooSmall"] is not None
            for feature in kind["features"]:
                if not feature["fits"]:
                    flagged[feature["feature"]] = flagged.get(feature["feature"], 0) + 1
            for p in kind["parameters"]:
                if p["heldBecause"] is not None or p["key"] not in truth:
                    continue
                inside = p["low"] is not None and p["low"] <= truth[p["key"]] <= p["high"]
                covered[p["key"]] = covered.get(p["key"], 0) + inside
                values.setdefault(p["key"], []).append(p["value"])
                rows.append([name, r, p["key"], truth[p["key"]], p["value"], p["low"], p["high"], int(inside),
                             int(kind["converged"])])
    for key, hits in covered.items():
        low, high = wilson(hits, count)
        fitted = sorted(values[key])
        median = fitted[len(fitted) // 2]
        lines.append(f"| {name} | `{key}` | {truth[key]:g} | {hits}/{count} | {100 * hits / count:.1f} % "
                     f"({100 * low:.1f}–{100 * high:.1f}) | {median:.4g} |")
    flagged_text = ", ".join(f"{k} {v}" for k, v in sorted(flagged.items())) or "none"
    shifts_text = ", ".join(f"{k:+d} h {v}" if k else f"none {v}" for k, v in sorted(shifts.items()))
    notes.append(f"- {name} ({preset}): {converged}/{count} fits converged; {edge} ended with every start agreeing on the "
                 f"edge of a parameter's range (one-sided interval for it); {small} too small; "
                 f"users' day read from the logs (replications): {shifts_text}; "
                 f"features flagged (replications): {flagged_text}")

with open(f"{out}/results.md", "w") as f:
    f.write("# Calibration coverage: results\n\n")
    phones = os.environ.get("PHONES", "60")
    f.write(f"Written by run.sh; each replication is {phones} phones × 28 days with fresh seeds, calibrated from the "
            "preset's default launch parameters. A fit whose starts disagree, or logs too small, give no interval "
            "and count as a miss; a fit whose starts agree on the edge of a parameter's range gives that parameter "
            "an interval to the range's end.\n\n")
    f.write("\n".join(lines) + "\n\n" + "\n".join(notes) + "\n")
with open(f"{out}/replications.csv", "w", newline="") as f:
    writer = csv.writer(f, lineterminator="\n")
    writer.writerow(["case", "replication", "parameter", "generating", "fitted", "low", "high", "contains", "converged"])
    writer.writerows(rows)
print("\n".join(lines))
print("\n".join(notes))
