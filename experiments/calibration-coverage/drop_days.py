"""Drops days of a field log, in place: the first K, as a log begun K days after install keeps;
and optionally a run of days later on, as a log that lost records (an upload that never
arrived, the app offloaded) keeps.

Usage: drop_days.py LOG.jsonl K [GAP_START GAP_DAYS]

Every phone of a simulated log starts on the scenario's first day, so the records before the
first date + K days go, the first launch's record (`firstLaunch`) with them. With GAP_START and
GAP_DAYS, every phone also loses the records of GAP_DAYS days from the first date + K +
GAP_START.
"""
import datetime
import json
import os
import sys

path, days = sys.argv[1], int(sys.argv[2])
gap_start, gap_days = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (0, 0)
with open(path) as handle:
    records = [json.loads(line) for line in handle if line.strip()]
first = min(datetime.date.fromisoformat(record["time"][:10]) for record in records)
cut = (first + datetime.timedelta(days=days)).isoformat()
lost_from = (first + datetime.timedelta(days=days + gap_start)).isoformat()
lost_to = (first + datetime.timedelta(days=days + gap_start + gap_days)).isoformat()
kept = [record for record in records
        if record["time"][:10] >= cut and not lost_from <= record["time"][:10] < lost_to]
with open(path + ".part", "w") as handle:
    handle.writelines(json.dumps(record, separators=(",", ":")) + "\n" for record in kept)
os.replace(path + ".part", path)
