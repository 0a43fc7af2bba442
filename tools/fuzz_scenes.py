#!/usr/bin/env python3
"""Mutation fuzzer for seiche's scene input (issue 14), meant for a sanitizer build (make fuzz).

Takes the shipped scenes, mutates them (keys dropped or renamed, values swapped for other types,
extreme numbers, deep nesting, truncated text, bad UTF-8, huge arrays) and runs
`seiche run MUTANT -o DIR --end-time T -q` on each with a time limit. A case fails when seiche is
killed by a signal, prints a sanitizer report, runs past the limit, exits with a code other than
0 (ran), 2 (refused) or 3 (unstable), or writes its output directory while refusing the input.

Usage: fuzz_scenes.py SEICHE_BINARY [--cases N] [--seed S] [--timeout SECONDS] [--keep DIR]
"""
import argparse
import json
import os
import pathlib
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXTREMES = [0, -1, 1e-300, 1e300, -1e300, 1e308, 2**63, -(2**63), 0.5, 1e-7, 10**30, True,
            False, None, "", "pbf", "nan", [], {}, [1, 2, 3, 4], [[1]], "\udcff"]


def paths(doc, prefix=()):
    """Every (path, value) in a JSON document."""
    yield prefix, doc
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, prefix + (i,))


def set_at(doc, path, value):
    if not path:
        return value
    node = doc
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return doc


def mutate(doc, rng):
    doc = json.loads(json.dumps(doc))
    for _ in range(rng.randint(1, 3)):
        targets = list(paths(doc))
        path, value = rng.choice(targets)
        kind = rng.randrange(8)
        if kind == 0 and path:  # drop a key or an element
            parent = doc
            for p in path[:-1]:
                parent = parent[p]
            del parent[path[-1]]
        elif kind == 1 and path and isinstance(path[-1], str):  # misspell a key
            parent = doc
            for p in path[:-1]:
                parent = parent[p]
            parent[path[-1] + rng.choice(["_", "s", "x"])] = parent.pop(path[-1])
        elif kind == 2:  # an extreme or a wrong-typed value
            doc = set_at(doc, path, rng.choice(EXTREMES))
        elif kind == 3 and isinstance(value, (int, float)) and not isinstance(value, bool):
            doc = set_at(doc, path, value * rng.choice([-1, 0, 1e-9, 1e9, 1e30]))
        elif kind == 4:  # deep nesting, spliced in as text (Python's json would recurse)
            doc = set_at(doc, path, "__DEEP_%d__" % rng.choice([10, 70, 5000, 100000]))
        elif kind == 5 and isinstance(value, list):  # a vector of the wrong length
            doc = set_at(doc, path, value + value)
        elif kind == 6 and path:  # a block copied onto another (overlaps)
            if "fluid" in doc and isinstance(doc["fluid"], list) and doc["fluid"]:
                doc["fluid"].append(json.loads(json.dumps(doc["fluid"][0])))
        else:
            doc = set_at(doc, path, str(value)[:20])
    return doc


def as_text(doc, rng):
    text = json.dumps(doc, ensure_ascii=False)
    while "\"__DEEP_" in text:
        start = text.index("\"__DEEP_")
        end = text.index("__\"", start + 8) + 3
        n = int(text[start + 8:end - 3])
        text = text[:start] + "[" * n + "1" + "]" * n + text[end:]
    r = rng.random()
    if r < 0.05:
        return text[: rng.randrange(len(text))].encode("utf-8", "surrogatepass")
    if r < 0.08:
        return text.replace("0.", "1e400*0.", 1).encode("utf-8", "surrogatepass")
    if r < 0.10:
        return b"\xff\xfe" + text.encode("utf-8", "surrogatepass")
    return text.encode("utf-8", "surrogatepass")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seiche")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--keep", help="copy failing cases here")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    scenes = sorted(ROOT.glob("scenes/**/*.json"))
    bases = [json.load(open(s)) for s in scenes]
    work = pathlib.Path(tempfile.mkdtemp(prefix="seiche_fuzz_"))
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1", OMP_NUM_THREADS="2")
    counts = {"ran": 0, "refused": 0, "unstable": 0}
    failures = []
    t0 = time.time()
    for k in range(a.cases):
        doc = mutate(rng.choice(bases), rng)
        scene = work / f"case_{k:04d}.json"
        scene.write_bytes(as_text(doc, rng))
        out = work / f"out_{k:04d}"
        cmd = [a.seiche, "run", str(scene), "-o", str(out), "-q", "--end-time", "0.005",
               "--set", "output.preview=false", "--max-memory", "2G"]
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=a.timeout, env=env)
            err = p.stderr.decode("utf-8", "replace")
            problem = None
            if p.returncode < 0:
                problem = f"killed by signal {-p.returncode}"
            elif "Sanitizer" in err or "runtime error:" in err:
                problem = "sanitizer report"
            elif p.returncode not in (0, 2, 3):
                problem = f"exit {p.returncode}"
            elif p.returncode == 2 and out.exists():
                problem = "refused but wrote its output directory"
            else:
                counts[{0: "ran", 2: "refused", 3: "unstable"}[p.returncode]] += 1
        except subprocess.TimeoutExpired:
            problem, err = f"no answer within {a.timeout:.0f} s", ""
        if problem:
            failures.append((scene.name, problem, err[-600:]))
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                shutil.copy(scene, a.keep)
        shutil.rmtree(out, ignore_errors=True)
    for name, problem, err in failures:
        print(f"FAIL {name}: {problem}\n{err}")
    print(f"fuzz_scenes: {a.cases} cases in {time.time() - t0:.0f} s: {counts['ran']} ran, "
          f"{counts['refused']} refused, {counts['unstable']} unstable, {len(failures)} failures "
          f"(seed {a.seed}, {len(scenes)} base scenes)")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
