#!/usr/bin/env python3
"""Mutation fuzzer for seiche's input (issue 14), meant for a sanitizer build (make fuzz).

Three parts:
- the regression corpus (--corpus DIR): scenes that once crashed, hung or blew up; a file named
  ran_* must run (exit 0), refused_* must be refused (exit 2) without writing anything;
- mutated scenes (--cases N): the shipped scenes with keys dropped or renamed, values swapped for
  other types, scaled or extreme numbers, deep nesting, truncated text, bad UTF-8, longer arrays
  (one mutation in most cases, so that many still run), each run with
  `seiche run MUTANT -o DIR --end-time T -q`;
- damaged run directories (--rundirs N): a small real run (frames, meshes, checkpoint) with one
  file truncated, bit-flipped, given a bad count, emptied or removed, then `seiche render`,
  `seiche mesh` or `seiche run --resume` on it.
A case fails when seiche is killed by a signal, prints a sanitizer report, runs past the time
limit, exits with a code other than 0 (ran), 1 (I/O error), 2 (refused) or 3 (unstable) — 1 only
for damaged run directories —, or writes its output directory while refusing the input.

Usage: fuzz_scenes.py SEICHE_BINARY [--cases N] [--rundirs N] [--corpus DIR] [--seed S]
                      [--timeout SECONDS] [--keep DIR]
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


CHOICES = {"type": ["pbf", "wcsph", "ddr"], "kernel": ["cubic_spline", "poly6_spiky"],
           "dt_mode": ["cfl", "fixed"], "equation_of_state": ["tait", "linear"],
           "color_by": ["speed", "density"]}


def mutate(doc, rng):
    """One to three mutations: about half of them plausible (a number scaled, another valid
    choice, a flag flipped: the scene should still run), the rest hostile."""
    doc = json.loads(json.dumps(doc))
    for _ in range(rng.choice([1, 1, 1, 1, 1, 1, 1, 2, 2, 3])):
        targets = list(paths(doc))
        plausible = rng.random() < 0.5
        if plausible:
            numbers = [(p, v) for p, v in targets
                       if isinstance(v, (int, float)) and not isinstance(v, bool)]
            choices = [(p, v) for p, v in targets
                       if p and isinstance(p[-1], str) and p[-1] in CHOICES]
            flags = [(p, v) for p, v in targets if isinstance(v, bool)]
            pick = rng.choice([numbers, numbers, choices or numbers, flags or numbers])
            if pick:
                path, value = rng.choice(pick)
                if isinstance(value, bool):
                    doc = set_at(doc, path, not value)
                elif isinstance(value, str):
                    doc = set_at(doc, path, rng.choice(CHOICES[path[-1]]))
                else:
                    doc = set_at(doc, path, value * rng.choice([0.5, 0.8, 0.9, 1.1, 1.25, 2, -1]))
                continue
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


def check(p, err, allowed):
    """The problem with a finished case, or None."""
    if p.returncode < 0:
        return f"killed by signal {-p.returncode}"
    if "Sanitizer" in err or "runtime error:" in err:
        return "sanitizer report"
    if p.returncode not in allowed:
        return f"exit {p.returncode}"
    return None


def run_case(cmd, env, timeout, allowed):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, f"no answer within {timeout:.0f} s", ""
    err = p.stderr.decode("utf-8", "replace")
    return p.returncode, check(p, err, allowed), err


def damage(run, rng):
    """Damages one file of a copied run directory; returns what was done."""
    files = sorted(f for f in run.rglob("*") if f.is_file() and f.name != ".seiche-run")
    f = rng.choice(files)
    data = f.read_bytes()
    kind = rng.randrange(6)
    if kind == 0:
        f.write_bytes(data[: rng.randrange(max(1, len(data)))])
        return f"{f.name} truncated"
    if kind == 1:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if b:
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        f.write_bytes(bytes(b))
        return f"{f.name} bits flipped"
    if kind == 2:
        bad = rng.choice(["-1", "0", "1", "2147483648", "18446744073709551615", "99999999999"])
        text = data.replace(b"element vertex ", b"element vertex " + bad.encode() + b" #", 1)
        text = text.replace(b'NumberOfPoints="', b'NumberOfPoints="' + bad.encode() + b'" x="', 1)
        text = text.replace(b'"next_frame":', b'"next_frame":' + bad.encode() + b",\"x\":", 1)
        f.write_bytes(text)
        return f"{f.name} count {bad}"
    if kind == 3:
        f.write_bytes(b"")
        return f"{f.name} emptied"
    if kind == 4:
        f.unlink()
        return f"{f.name} removed"
    f.write_bytes(data + data[: rng.randrange(max(1, len(data)))])
    return f"{f.name} doubled"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seiche")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--rundirs", type=int, default=0)
    ap.add_argument("--corpus", help="regression corpus: ran_*.json must run, refused_*.json not")
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
    names = {0: "ran", 1: "I/O error", 2: "refused", 3: "unstable"}
    counts = {part: {n: 0 for n in names.values()} for part in ("corpus", "scenes", "rundirs")}
    failures = []
    t0 = time.time()

    def scene_case(scene, out, part, expect=None):
        cmd = [a.seiche, "run", str(scene), "-o", str(out), "-q", "--end-time", "0.005",
               "--set", "output.preview=false", "--max-memory", "2G"]
        code, problem, err = run_case(cmd, env, a.timeout, (0, 2, 3))
        if not problem and code == 2 and out.exists():
            problem = "refused but wrote its output directory"
        if not problem and expect is not None and code != expect:
            problem = f"exit {code}, expected {expect}"
        if problem:
            failures.append((scene.name, problem, err[-600:]))
            if a.keep:
                os.makedirs(a.keep, exist_ok=True)
                shutil.copy(scene, a.keep)
        else:
            counts[part][names[code]] += 1
        shutil.rmtree(out, ignore_errors=True)

    corpus = sorted(pathlib.Path(a.corpus).glob("*.json")) if a.corpus else []
    for k, scene in enumerate(corpus):
        scene_case(scene, work / f"corpus_{k:04d}", "corpus", 0 if scene.name.startswith("ran_") else 2)

    for k in range(a.cases):
        doc = mutate(rng.choice(bases), rng)
        scene = work / f"case_{k:04d}.json"
        scene.write_bytes(as_text(doc, rng))
        scene_case(scene, work / f"out_{k:04d}", "scenes")

    if a.rundirs > 0:
        base = work / "base_run"
        subprocess.run([a.seiche, "run", str(ROOT / "scenes/dam_break_2d.json"), "-o", str(base),
                        "-q", "--end-time", "0.1", "--mesh", "--set", "output.checkpoint_every=0.05"],
                       check=True, capture_output=True, env=env)
    for k in range(a.rundirs):
        run = work / f"run_{k:04d}"
        shutil.copytree(base, run)
        what = damage(run, rng)
        cmd = rng.choice([["render", str(run), "-q"], ["mesh", str(run), "-q"],
                          ["run", "--resume", str(run), "-q", "--end-time", "0.12"]])
        code, problem, err = run_case([a.seiche] + cmd, env, a.timeout, (0, 1, 2, 3))
        if problem:
            failures.append((f"{what}; seiche {cmd[0]}", problem, err[-600:]))
            if a.keep:
                shutil.copytree(run, pathlib.Path(a.keep) / run.name, dirs_exist_ok=True)
        else:
            counts["rundirs"][names[code]] += 1
        shutil.rmtree(run, ignore_errors=True)

    for name, problem, err in failures:
        print(f"FAIL {name}: {problem}\n{err}")
    total = len(corpus) + a.cases + a.rundirs
    def line(part):
        return ", ".join(f"{v} {k}" for k, v in counts[part].items() if v)
    print(f"fuzz_scenes: {total} cases in {time.time() - t0:.0f} s, {len(failures)} failures "
          f"(seed {a.seed})\n  corpus ({len(corpus)}): {line('corpus')}\n"
          f"  mutated scenes ({a.cases}): {line('scenes')}\n"
          f"  damaged run directories ({a.rundirs}): {line('rundirs')}")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
