"""Drops a field log's first K days, in place: what a log begun K days after install keeps.

Usage: drop_days.py LOG.jsonl K

Every phone of a simulated log starts on the scenario's first day, so the records before the
first date + K days go, the first launch's record (`firstLaunch`) with them.
"""
import datetime
import json
import os
import sys

path, days = sys.argv[1], int(sys.argv[2])
with open(path) as handle:
    records = [json.loads(line) for line in handle if line.strip()]
first = min(datetime.date.fromisoformat(record["time"][:10]) for record in records)
cut = (first + datetime.timedelta(days=days)).isoformat()
kept = [record for record in records if record["time"][:10] >= cut]
with open(path + ".part", "w") as handle:
    handle.writelines(json.dumps(record, separators=(",", ":")) + "\n" for record in kept)
os.replace(path + ".part", path)
