#!/usr/bin/env python3
"""An independent check of the golden values pinned in the tests, in plain Python 3.

It reimplements, from their documentation alone, what the pinned values depend on, and compares:

- StreamLabel's 64-bit FNV-1a hash               (Tests/SimKernelTests/RandomStreamTests.swift)
- RandomStream's seed derivation and xoshiro256** (RandomStreamTests.swift, derivationGolden)
- the exponential and uniform samples            (Tests/SimKernelTests/DistributionTests.swift)
- TraceDigest's xxHash64-round digest            (Tests/SimKernelTests/TraceTests.swift)
- the per-wake energy worked example              (docs/MODEL.md, EnergyWorkedExampleTests.swift)
- the battery energies of every device model      (docs/MODEL.md)

Run from the repository root: python3 scripts/cross-check-golden.py   (exit 0 when all agree)
"""
import math
import re
import struct
import sys

M = (1 << 64) - 1
failures = 0


def check(name, got, expected, tolerance=None):
    global failures
    ok = got == expected if tolerance is None else abs(got - expected) <= tolerance * max(abs(expected), 1e-300)
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else f": got {got!r}, expected {expected!r}"))
    if not ok:
        failures += 1


def fnv1a(text):
    h = 0xCBF29CE484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001B3) & M
    return h


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def derived_seed(seed, label, entity, index):
    inc = 0x9E3779B97F4A7C15
    key = mix((seed + inc) & M)
    key = mix(((key + inc) & M) ^ fnv1a(label))
    key = mix(((key + inc) & M) ^ entity)
    return mix(((key + inc) & M) ^ index)


class Xoshiro:
    def __init__(self, seed):
        state = seed
        self.s = []
        for _ in range(4):
            state = (state + 0x9E3779B97F4A7C15) & M
            self.s.append(mix(state))

    def next(self):
        s0, s1, s2, s3 = self.s
        rotl = lambda x, k: ((x << k) | (x >> (64 - k))) & M
        result = (rotl((s1 * 5) & M, 7) * 9) & M
        t = (s1 << 17) & M
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return result

    def unit(self):
        return (self.next() >> 11) * 2.0 ** -53


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def value_of(bits_):
    return struct.unpack("<d", struct.pack("<Q", bits_))[0]


# Labels and streams.
for text, expected in [("", 0xCBF29CE484222325), ("a", 0xAF63DC4C8601EC8C), ("foobar", 0x85944171F73967E8)]:
    check(f"FNV-1a({text!r})", fnv1a(text), expected)
check("derived seed (2026, golden, 0, 0)", derived_seed(2026, "golden", 0, 0), 0x5757058A8DFC358E)
check("derived seed (7, user.sessions, 3, 41)", derived_seed(7, "user.sessions", 3, 41), 0x3A736E0671737246)
stream = Xoshiro(derived_seed(2026, "golden", 0, 0))
check("first four draws of (2026, golden)", [stream.next() for _ in range(4)],
      [0x184A3CA2ABA24547, 0xAE535B3260C982BE, 0xA30A55678499BF44, 0x642E12D973DAB51E])

# Distributions that need only log: within 6e-16 relative of the pinned bit patterns (the
# simulator's own portable log may differ from the C library's in the last bit).
pinned_exponential = [0x3FC985561D264CC0, 0x4002476BFA227059, 0x4000354C28F726B8, 0x3FEFC64264387E90]
pinned_uniform = [0x401584A3CA2ABA24, 0x401EE535B3260C98, 0x401E30A55678499C, 0x401A42E12D973DAB]
stream = Xoshiro(derived_seed(2026, "golden", 0, 0))
for i, pinned in enumerate(pinned_exponential):
    check(f"Exponential(mean 2) sample {i}", -2 * math.log(1 - stream.unit()), value_of(pinned), 6e-16)
stream = Xoshiro(derived_seed(2026, "golden", 0, 0))
for i, pinned in enumerate(pinned_uniform):
    check(f"Uniform(5, 9) sample {i} (bit for bit)", bits(5 + 4 * stream.unit()), pinned)

# The trace digest.
P1, P2, P3, P5 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0x27D4EB2F165667C5


def digest(records):
    acc = P5
    for record in records:
        for word in record:
            s = (acc + (word & M) * P2) & M
            acc = ((((s << 31) | (s >> 33)) & M) * P1) & M
    h = acc ^ ((len(records) * P1) & M)
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    h ^= h >> 32
    return f"{h:016x}"


check("trace digest of two records", digest([(1_000_000_000, 1, 2, -3), (5 * 3600 * 10**9, 4, 0, 0)]), "ddd342aa0389a9e2")

# The per-wake energy worked example of docs/MODEL.md.
transfer = 2.5e6 * 8 / 1e6
lte = 0.25 * 2 + 0.26 * 1.21 + transfer * (1.29 + 0.438) + 11.6 * 1.06
wifi = 0.25 * 2 + 0.08 * 0.124 + transfer * (0.133 + 0.283) + 0.25 * 0.12
model = open("docs/MODEL.md", encoding="utf-8").read()
check("LTE joules per wake (47.67 in docs/MODEL.md)", round(lte, 2), 47.67)
check("Wi-Fi joules per wake (8.86 in docs/MODEL.md)", round(wifi, 2), 8.86)
check("LTE every 15 min against Wi-Fi hourly (21.5×)", round(lte * 96 / (wifi * 24), 1), 21.5)
check("docs/MODEL.md states those figures", all(s in model for s in ["**47.67 J**", "**8.86 J**", "21.5×"]), True)

# Battery energies: mAh × V × 3.6 for every row of docs/MODEL.md's table.
rows = re.findall(r"^\| \**(iPhone [^|*]+?)\** (?:\(default\) )?\| ([\d,]+) \| ([\d.]+) \| ([\d.]+) \| \**([\d,]+)\** \|$", model, re.M)
check("docs/MODEL.md has twelve device rows", len(rows), 12)
for name, mah, volts, wh, joules in rows:
    mah, volts = float(mah.replace(",", "")), float(volts)
    check(f"{name}: Wh", round(mah * volts / 1000, 2), float(wh))
    check(f"{name}: J", round(mah * volts * 3.6), int(joules.replace(",", "")))

print(f"{failures} failure(s)")
sys.exit(1 if failures else 0)
