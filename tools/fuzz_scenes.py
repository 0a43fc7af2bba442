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
  `seiche mesh` or `seiche run --resume` on it;
- forged checkpoints (--checkpoints N): the checkpoint of a run with bodies and an emitter with
  values changed (its time, step and particle counters, its front end's frame counter and lists,
  positions, velocities, poses, an emitter's state) and its checksum written anew, so that the
  values themselves must be refused; then `seiche run --resume`. A refused resume must leave
  the run directory exactly as it was, and no resume may lose a frame that was there;
- damaged side files (--sidefiles N): the scenes with a mesh body and keyframes run from a copy
  of their directory with the mesh (OBJ, or as binary and text STL) or the keyframe CSV damaged:
  numbers made extreme, lines dropped, repeated or cut, indices out of range, bytes flipped, the
  file emptied or replaced by a directory, a FIFO or a device;
- viewer scripts (--scripts N, under Xvfb): `seiche view SCENE --script S --frames 20` with
  scripts of every action and wrong, extreme or deeply nested values;
- Python (--python N, the package in --python-module, default build/python; a module built with
  AddressSanitizer runs with its runtime preloaded): mutated scene
  dicts through `Scene.from_dict`, `Scene.set`, `World.set`, the setters and self-referencing
  values, in batches in child interpreters: only `SceneError`, `ValueError`, `TypeError`,
  `KeyError`, `RecursionError` and the like may come out, never a signal, and the world must
  still step.
A case fails when seiche is killed by a signal, prints a sanitizer report, runs past the time
limit, uses more than 2 GiB of memory, exits with a code other than 0 (ran), 1 (I/O error), 2 (refused) or 3 (unstable) — 1 only
for damaged run directories —, or writes its output directory while refusing the input.

Usage: fuzz_scenes.py SEICHE_BINARY [--cases N] [--rundirs N] [--checkpoints N] [--sidefiles N]
                      [--scripts N] [--python N] [--corpus DIR] [--seed S] [--timeout SECONDS]
                      [--keep DIR]
"""
import argparse
import json
import os
import pathlib
import random
import shutil
import stat
import struct
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


CHOICES = {"type": ["pbf", "wcsph", "ddr"], "kernel": ["cubic_spline", "poly6_spiky", "wendland_c2"],
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


MEMORY_LIMIT = 2 << 30  # bytes of resident memory a case may use (sanitizer shadow included)


def run_case(cmd, env, timeout, allowed):
    """Runs one case; returns (exit code, the problem or None, stderr). Its peak resident memory
    is the kernel's own account of the finished child (wait4), over MEMORY_LIMIT a problem."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err_file, env=env, stdin=subprocess.DEVNULL)
        deadline = time.time() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.time() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                return None, f"no answer within {timeout:.0f} s", ""
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        err = err_file.read().decode("utf-8", "replace")
    problem = check(proc, err, allowed)
    if not problem and usage.ru_maxrss * 1024 > MEMORY_LIMIT:
        problem = f"used {usage.ru_maxrss / 1024 / 1024:.1f} GiB of memory"
    return proc.returncode, problem, err


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


# --- forged checkpoints -------------------------------------------------------------------------
CHECKPOINT_MAGIC = b"SEICHE checkpoint 4\n"


def with_checksum(data):
    """DATA with its last 8 bytes the FNV-1a of everything before them, as World::save writes."""
    h = 0xcbf29ce484222325
    for byte in data[:-8]:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return data[:-8] + struct.pack("<Q", h)


def forge(data, rng):
    """A checkpoint with one group of values changed and a valid checksum; returns (bytes, what)."""
    data = bytearray(data)
    off = len(CHECKPOINT_MAGIC) + 8
    off += 8 + struct.unpack_from("<Q", data, off)[0]  # the definition's text
    extra_at = off
    n = struct.unpack_from("<Q", data, off)[0]
    extra = bytes(data[off + 8:off + 8 + n])
    # time f64, steps i64, step scale f64, last iterations i32, contained, emitted, removed u64,
    # next id u32
    head = off + 8 + n
    kind = rng.randrange(8)
    if kind == 0:  # the front end's state: frame counter, frame lists, body rows
        state = json.loads(extra)
        key = rng.choice(["next_frame", "frames", "surfaces", "bodies", "body_rows", "iterations",
                          "density_error_mean_sum", "density_error_max", "wall_time"])
        value = state.get(key)
        if isinstance(value, list) and value and rng.random() < 0.6:
            op = rng.randrange(4)
            if op == 0:
                value.pop(rng.randrange(len(value)))
            elif op == 1:
                value.append(value[rng.randrange(len(value))])
            elif op == 2:
                value.reverse()
            else:
                entry = value[rng.randrange(len(value))]
                if isinstance(entry, dict):
                    k = rng.choice(list(entry))
                    entry[k] = rng.choice([-1, 1e300, "../../x", None, "frames/../../../etc/passwd", 2**31])
        else:
            value = rng.choice([-1, 0, 1, 2, 10**9, 2**31, 2**63, 1.5, "3", None, [], {}])
        state[key] = value
        text = json.dumps(state).encode()
        data = data[:extra_at] + struct.pack("<Q", len(text)) + text + data[extra_at + 8 + n:]
        return bytes(with_checksum(data)), f"state {key} = {str(value)[:60]}"
    if kind == 1:  # the time
        t = struct.unpack_from("<d", data, head)[0]
        value = rng.choice([float("nan"), float("inf"), -1.0, 1e300, t + 0.05, t * 3, 0.0, t - 0.04])
        struct.pack_into("<d", data, head, value)
        return bytes(with_checksum(data)), f"time {t} -> {value}"
    if kind == 7:  # the step scale of time.target_iterations
        if rng.random() < 0.5:
            value = rng.choice([-1, -(2**31), 2**31 - 1])
            struct.pack_into("<i", data, head + 24, value)
            return bytes(with_checksum(data)), f"last step's iterations -> {value}"
        value = rng.choice([float("nan"), float("inf"), -1.0, 0.0, 1.5, -0.0, 1e300])
        struct.pack_into("<d", data, head + 16, value)
        return bytes(with_checksum(data)), f"step scale -> {value}"
    if kind == 2:  # the step count
        value = rng.choice([-1, 0, 2**63 - 1, 2**53 + 1, -(2**63)])
        struct.pack_into("<q", data, head + 8, value)
        return bytes(with_checksum(data)), f"steps -> {value}"
    if kind == 3:  # the particle counters and the next id
        which = rng.randrange(4)
        if which < 3:
            value = rng.choice([0, 1, 2**32, 2**63, 2**64 - 1, 10**7])
            struct.pack_into("<Q", data, head + 28 + 8 * which, value)
            return bytes(with_checksum(data)), f"counter {['contained', 'emitted', 'removed'][which]} -> {value}"
        value = rng.choice([0, 1, 2**32 - 1, 2**31])
        struct.pack_into("<I", data, head + 52, value)
        return bytes(with_checksum(data)), f"next id -> {value}"
    # The arrays and the objects after the header: floats made extreme, a count changed.
    start = head + 56
    if kind == 4:
        for _ in range(rng.choice([1, 1, 3, 100])):
            at = start + 4 * rng.randrange((len(data) - 8 - start) // 4)
            struct.pack_into("<f", data, at, rng.choice([float("nan"), float("inf"), -float("inf"), 1e30, -1e30, 0.0, 3e38]))
        return bytes(with_checksum(data)), "float32 values made extreme"
    if kind == 5:  # the objects' poses at the end (doubles or floats, whole matrices)
        tail = max(start, len(data) - 8 - 400)
        at = tail + 4 * rng.randrange((len(data) - 8 - tail) // 4)
        for k in range(rng.choice([1, 3, 9])):
            if at + 4 * k + 4 <= len(data) - 8:
                struct.pack_into("<f", data, at + 4 * k, rng.choice([float("nan"), 2.0, -1.0, 0.0, 1e20]))
        return bytes(with_checksum(data)), "the end (object poses) made extreme"
    at = start + 4 * rng.randrange((len(data) - 8 - start) // 4)
    value = rng.choice([0, 1, 2**32 - 1, 2**31])
    struct.pack_into("<I", data, at, value)
    return bytes(with_checksum(data)), f"a word at {at} -> {value}"


def snapshot(run):
    """Every file of a run directory and its bytes' hash."""
    import hashlib
    return {str(f.relative_to(run)): hashlib.sha1(f.read_bytes()).hexdigest()
            for f in sorted(run.rglob("*")) if f.is_file()}


# --- damaged side files ---------------------------------------------------------------------------
NUMBER_SWAPS = ["nan", "inf", "-inf", "1e300", "-1e300", "1e-300", "0", "-1", "99999999999",
                "2147483648", "", "x", "1e", "0x10", "-0", "1,5"]


def obj_to_stl(obj_text, binary):
    """The OBJ's triangles (fans of its faces) as an STL file."""
    vertices, triangles = [], []
    for line in obj_text.splitlines():
        parts = line.split()
        if parts and parts[0] == "v":
            vertices.append([float(x) for x in parts[1:4]])
        elif parts and parts[0] == "f":
            idx = [int(p.split("/")[0]) - 1 for p in parts[1:]]
            triangles += [(idx[0], idx[i], idx[i + 1]) for i in range(1, len(idx) - 1)]
    if binary:
        out = bytearray(b"seiche fuzz".ljust(80, b" ")) + struct.pack("<I", len(triangles))
        for t in triangles:
            out += struct.pack("<3f", 0, 0, 0)
            for i in t:
                out += struct.pack("<3f", *vertices[i])
            out += struct.pack("<H", 0)
        return bytes(out)
    lines = ["solid fuzz"]
    for t in triangles:
        lines += ["facet normal 0 0 0", "outer loop"] + \
                 [f"vertex {vertices[i][0]} {vertices[i][1]} {vertices[i][2]}" for i in t] + ["endloop", "endfacet"]
    return ("\n".join(lines + ["endsolid fuzz"]) + "\n").encode()


def damage_side_file(f, rng):
    """Damages the side file F (a mesh or a keyframe CSV); returns what was done."""
    data = f.read_bytes()
    kind = rng.randrange(12)
    if kind == 0:
        f.unlink()
        f.mkdir()
        return "replaced by a directory"
    if kind == 1:
        f.unlink()
        os.mkfifo(f)
        return "replaced by a FIFO"
    if kind == 2:
        f.unlink()
        f.symlink_to(rng.choice(["/dev/zero", "/dev/urandom", "/dev/null"]))
        return "a link to a device"
    if kind == 3:
        f.write_bytes(b"")
        return "emptied"
    if kind == 4:
        f.write_bytes(data[: rng.randrange(max(1, len(data)))])
        return "truncated"
    if kind == 5:
        b = bytearray(data)
        for _ in range(rng.randint(1, 16)):
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        f.write_bytes(bytes(b))
        return "bits flipped"
    if data[:80].startswith(b"seiche fuzz"):  # binary STL: its count, its coordinates
        b = bytearray(data)
        if kind < 9:
            value = rng.choice([0, 1, 2**31, 2**32 - 1, struct.unpack_from("<I", b, 80)[0] + 1])
            struct.pack_into("<I", b, 80, value)
            f.write_bytes(bytes(b))
            return f"triangle count {value}"
        for _ in range(rng.choice([1, 10])):
            at = 84 + 4 * rng.randrange((len(b) - 84) // 4)
            struct.pack_into("<f", b, at, rng.choice([float("nan"), float("inf"), 1e30, -1e30]))
        f.write_bytes(bytes(b))
        return "coordinates made extreme"
    lines = data.decode("utf-8", "replace").split("\n")
    i = rng.randrange(len(lines))
    if kind == 6:  # a number swapped
        tokens = lines[i].replace(",", " , ").split()
        numbers = [k for k, t in enumerate(tokens) if any(c.isdigit() for c in t)]
        if numbers:
            k = rng.choice(numbers)
            tokens[k] = rng.choice(NUMBER_SWAPS)
            lines[i] = " ".join(tokens).replace(" , ", ",")
        what = f"line {i + 1} now {lines[i][:50]!r}"
    elif kind == 7:
        del lines[i]
        what = f"line {i + 1} dropped"
    elif kind == 8:
        times = rng.choice([2, 1000, 300000])
        lines[i:i + 1] = [lines[i]] * times
        what = f"line {i + 1} repeated {times} times"
    elif kind == 9:
        lines[i] = lines[i][: len(lines[i]) // 2]
        what = f"line {i + 1} cut"
    elif kind == 10:  # faces: indices out of range, negative, zero
        faces = [k for k, line in enumerate(lines) if line.startswith("f ")]
        if faces:
            i = rng.choice(faces)
            lines[i] = "f " + " ".join(rng.choice(["0", "-1", "-99999", "99999", "2147483648", "1", "1/2/3"])
                                       for _ in range(rng.choice([1, 2, 3, 4, 40])))
        what = f"face line {lines[i][:50]!r}"
    else:  # a long line
        lines[i] = lines[i] + " 1" * rng.choice([10, 100000])
        what = f"line {i + 1} made long"
    f.write_bytes("\n".join(lines).encode())
    return what


# --- viewer scripts ---------------------------------------------------------------------------
def viewer_script(rng):
    """A viewer script of random events, some with wrong or extreme values."""
    def value():
        return rng.choice(EXTREMES + [1, 0.3, [0.2, 0.3], [0.2, 0.3, 0.1], "wcsph", "density"])

    def vec():
        return rng.choice([[0.2, 0.3], [0.5, 0.2, 0.3], [float(rng.uniform(-5, 5)) for _ in range(3)],
                           [1e30, 0, 0], value()])

    events = []
    hostile = rng.random() < 0.5  # half the scripts valid, so that the actions run
    if not hostile:
        value = lambda: rng.choice([1, 0.3, 30, "wcsph", "density", True])  # noqa: E731
        vec = lambda: [rng.uniform(0.05, 0.9), rng.uniform(0.05, 0.5)]  # noqa: E731
    for _ in range(rng.randint(1, 8)):
        frame = rng.choice([0, 1, 3, 10, 19] + ([-1, 2**31, 1e300, "2", None] if hostile else []))
        action = rng.choice(["camera", "drag", "release", "set", "solver", "color_by", "pause",
                             "reset", "drop", "surface", "record", "screenshot", "panel"] +
                            (["teleport"] if hostile else []))
        if action == "camera":
            v = {k: rng.choice([value(), 30, -89, 1.0]) for k in rng.sample(["yaw", "pitch", "distance", "target"], 2)}
        elif action == "drag":
            v = {"path": rng.choice([[vec(), vec()], [], [vec()] * rng.choice([1, 3, 10000]), value()]),
                 "frames": rng.choice([1, 30, 0, -5, 10**9, value()])}
        elif action == "set":
            v = {rng.choice(["gravity", "solver.pbf.max_iterations", "time.dt", "solver.xsph", "x"]): value()}
        elif action == "solver":
            v = rng.choice(["pbf", "wcsph", "ddr", "dfsph", value()])
        elif action == "color_by":
            v = rng.choice(["speed", "density", "pressure", "vorticity", value()])
        elif action == "drop":
            v = vec()
        elif action == "screenshot":
            v = rng.choice(["shot.png", "../shot.png", "/tmp/../etc/shot.png", "", "sub/dir/shot.png", value()])
        else:
            v = rng.choice([True, False, value()])
        if not hostile:
            v = {"camera": {"yaw": rng.uniform(-180, 180), "pitch": rng.uniform(-80, 80), "distance": rng.uniform(0.5, 3)},
                 "drag": {"path": [vec(), vec()], "frames": rng.randint(1, 15)},
                 "set": rng.choice([{"solver.pbf.max_iterations": 2}, {"solver.xsph": 0.01}]),
                 "solver": rng.choice(["pbf", "wcsph", "ddr", "dfsph"]),
                 "color_by": rng.choice(["speed", "density", "pressure", "vorticity"]),
                 "drop": vec(), "screenshot": "shot.png"}.get(action, True)
        events.append({"frame": frame, action: v})
    doc = {"events": events}
    text = json.dumps(doc)
    if hostile and rng.random() < 0.1:
        n = rng.choice([100, 5000, 100000])
        text = text.replace('"events": [', '"events": [' + "[" * n + "]" * n + ", ", 1)
    if hostile and rng.random() < 0.05:
        text = text[: rng.randrange(len(text))]
    return text


# --- the Python module --------------------------------------------------------------------------
PYTHON_CHILD = r"""
import json, random, sys
import numpy as np
import seiche
rng = random.Random(int(sys.argv[1]))
count = int(sys.argv[2])
root = sys.argv[3]
bases = [json.load(open(p)) for p in sys.argv[4:]]
EXTREMES = %r
allowed = (seiche.SceneError, ValueError, TypeError, KeyError, IndexError, RecursionError,
           OverflowError, seiche.UnstableError, FileNotFoundError)
small = seiche.load_scene(root + "/scenes/dam_break_2d.json")
def fresh():
    return seiche.World(small)
w = fresh()
def value():
    return rng.choice(EXTREMES + [1, 0.5, [0, -9.81], [0, -9.81, 0], "x" * 10**6,
                                 np.float32(2), np.array([1.0, 2.0]), np.nan, {"a": 1}])
for case in range(count):
    kind = rng.randrange(7)
    print(case, kind, flush=True)
    try:
        if kind == 0:
            d = json.loads(json.dumps(rng.choice(bases)))
            for _ in range(rng.randint(1, 3)):
                paths = [()]
                def walk(x, p):
                    if isinstance(x, dict):
                        for k, v in x.items(): paths.append(p + (k,)); walk(v, p + (k,))
                    elif isinstance(x, list):
                        for i, v in enumerate(x): paths.append(p + (i,)); walk(v, p + (i,))
                walk(d, ())
                p = rng.choice(paths[1:])
                node = d
                for k in p[:-1]: node = node[k]
                node[p[-1]] = value()
            seiche.Scene.from_dict(d, base=root + "/scenes")
        elif kind == 1:
            d = {}
            d["self"] = d
            seiche.Scene.from_dict(rng.choice([d, {"fluid": [d]}, {"solver": d}]))
        elif kind == 2:
            deep = []
            for _ in range(rng.choice([100, 100000])):
                deep = [deep]
            s = small.copy()
            s.set(rng.choice(["gravity", "fluid", "bodies", "solver.pbf.max_iterations"]),
                  rng.choice([deep, {"a": deep}]))
        elif kind == 3:
            s = small.copy()
            l = []
            l.append(l)
            key = rng.choice(["gravity", "fluid[0].min", "fluid", "emitters", "solver.xsph", "name",
                              "container.max", "bodies", "time.frame_rate", "solver.type"])
            s.set(key, rng.choice([l, value()]))
            if rng.random() < 0.2:
                seiche.World(s)
        elif kind == 4:
            w.set(rng.choice(list(w.live_keys) + ["fluid", "x", "", "gravity[0]"]), value())
        elif kind == 5:
            n = len(w.ids)
            shape = rng.choice([(n, 2), (n, 3), (n - 1, 2), (0, 2), (n,), (n, 2, 1)])
            a = rng.choice([np.zeros, np.ones])(shape, dtype=rng.choice([np.float32, np.float64, np.int32, np.float16, object]))
            if a.size and a.dtype != object and rng.random() < 0.5:
                a.flat[rng.randrange(a.size)] = rng.choice([np.nan, np.inf, 1e30, -1e30])
            rng.choice([w.set_positions, w.set_velocities])(a)
        else:
            w.solver = rng.choice(["pbf", "wcsph", "ddr", "dfsph", "x", "", None, 3])
    except allowed:
        pass
    try:
        w.step()
    except seiche.UnstableError:
        w = fresh()
print("done", flush=True)
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seiche")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--rundirs", type=int, default=0)
    ap.add_argument("--checkpoints", type=int, default=0)
    ap.add_argument("--sidefiles", type=int, default=0)
    ap.add_argument("--scripts", type=int, default=0)
    ap.add_argument("--python", type=int, default=0)
    ap.add_argument("--python-module", help="directory with the seiche package (default build/python)")
    ap.add_argument("--corpus", help="regression corpus: ran_*.json must run, refused_*.json not")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--keep", help="copy failing cases here")
    a = ap.parse_args()
    a.seiche = os.path.abspath(a.seiche)  # the viewer cases run in directories of their own
    rng = random.Random(a.seed)
    scenes = sorted(ROOT.glob("scenes/**/*.json"))
    bases = [json.load(open(s)) for s in scenes]
    work = pathlib.Path(tempfile.mkdtemp(prefix="seiche_fuzz_"))
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1", OMP_NUM_THREADS="2")
    names = {0: "ran", 1: "I/O error", 2: "refused", 3: "unstable"}
    parts = ("corpus", "scenes", "rundirs", "checkpoints", "sidefiles", "scripts", "python")
    counts = {part: {n: 0 for n in names.values()} for part in parts}
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

    def settle(part, name, problem, err, code, directory):
        """Counts a finished case, or records its failure (a copy of DIRECTORY kept with --keep);
        then removes DIRECTORY."""
        if problem:
            failures.append((name, problem, err[-600:]))
            if a.keep:
                shutil.copytree(directory, pathlib.Path(a.keep) / directory.name, dirs_exist_ok=True,
                                symlinks=True, ignore_dangling_symlinks=True)
        else:
            counts[part][names[code]] += 1
        shutil.rmtree(directory, ignore_errors=True)

    # Mutated scenes sit beside a copy of the shipped meshes, so that mesh bodies and keyframes
    # resolve and are mutated too.
    shutil.copytree(ROOT / "scenes/meshes", work / "meshes")
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
        settle("rundirs", f"{what}; seiche {cmd[0]}", problem, err, code, run)

    # Forged checkpoints: a 2D run with a floating body, one with an emitter.
    bases_ckpt = []
    if a.checkpoints > 0:
        for name in ("floating_box_2d", "jet_breakup_2d"):
            base = work / f"ckpt_base_{name}"
            subprocess.run([a.seiche, "run", str(ROOT / f"scenes/{name}.json"), "-o", str(base), "-q",
                            "--end-time", "0.1", "--set", "output.checkpoint_every=0.05",
                            "--set", "output.preview=false"],
                           check=True, capture_output=True, env=env)
            bases_ckpt.append(base)
    for k in range(a.checkpoints):
        run = work / f"ckpt_{k:04d}"
        shutil.copytree(rng.choice(bases_ckpt), run)
        forged, what = forge((run / "checkpoint.bin").read_bytes(), rng)
        (run / "checkpoint.bin").write_bytes(forged)
        before = snapshot(run)
        code, problem, err = run_case([a.seiche, "run", "--resume", str(run), "-q", "--end-time",
                                       rng.choice(["0.12", "0.2"])], env, a.timeout, (0, 1, 2, 3))
        if not problem:
            after = snapshot(run)
            if code in (1, 2) and after != before:
                changed = sorted(set(before) ^ set(after) | {f for f in before if after.get(f) != before[f]})
                problem = f"refused resume changed the run directory: {changed[:5]}"
            lost = sorted(f for f in before if f.startswith("frames") and f not in after)
            if lost:
                problem = f"resume lost frames that were there: {lost[:5]}"
        settle("checkpoints", f"checkpoint {what}; seiche run --resume", problem, err, code, run)

    # Damaged side files: the scenes with a mesh body and keyframes, run from a copy.
    side_scenes = {"pour_into_glass_3d": ["glass.obj"], "sloshing_tank_3d": ["tank.obj", "tank_rocking.csv"]}
    for k in range(a.sidefiles):
        case = work / f"side_{k:04d}"
        shutil.copytree(ROOT / "scenes/meshes", case / "meshes")
        name = rng.choice(sorted(side_scenes))
        doc = json.load(open(ROOT / f"scenes/{name}.json"))
        target = rng.choice(side_scenes[name])
        f = case / "meshes" / target
        form = ""
        if target.endswith(".obj") and rng.random() < 0.4:
            binary = rng.random() < 0.5
            stl = f.with_suffix(".stl")
            stl.write_bytes(obj_to_stl(f.read_text(), binary))
            for body in doc.get("bodies", []):
                if body.get("mesh") == f"meshes/{target}":
                    body["mesh"] = f"meshes/{stl.name}"
            f, form = stl, " (as binary STL)" if binary else " (as text STL)"
        what = f"{name}: {f.name}{form} " + damage_side_file(f, rng)
        scene = case / f"{name}.json"
        scene.write_text(json.dumps(doc))
        out = case / "out"
        cmd = [a.seiche, "run", str(scene), "-o", str(out), "-q", "--end-time", "0.005",
               "--set", "output.preview=false", "--max-memory", "2G"]
        code, problem, err = run_case(cmd, env, a.timeout, (0, 1, 2, 3))
        if not problem and code in (1, 2) and out.exists():
            problem = "refused but wrote its output directory"
        if f.exists() and stat.S_ISFIFO(os.lstat(f).st_mode):
            f.unlink()  # a copy would wait on it
        settle("sidefiles", what, problem, err, code, case)

    # Viewer scripts, under one Xvfb server.
    xvfb = None
    if a.scripts > 0:
        if os.environ.get("DISPLAY"):
            display = os.environ["DISPLAY"]
        elif shutil.which("Xvfb"):
            display = f":{200 + os.getpid() % 500}"
            xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "1280x1024x24"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.5)
        else:
            print("fuzz_scenes: viewer scripts skipped: no display and no Xvfb")
            a.scripts = 0
    for k in range(a.scripts):
        case = work / f"script_{k:04d}"
        case.mkdir()
        script = case / "script.json"
        script.write_text(viewer_script(rng))
        scene = ROOT / rng.choice(["scenes/dam_break_2d.json", "scenes/floating_box_2d.json",
                                   "scenes/jet_breakup_2d.json"])
        cmd = [a.seiche, "view", str(scene), "--script", str(script), "--frames", "20",
               "--width", "320", "--height", "200"]
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=a.timeout, cwd=case,
                               env=dict(env, DISPLAY=display))
            err = p.stderr.decode("utf-8", "replace")
            problem = check(p, err, (0, 1, 2, 3))
            code = p.returncode
        except subprocess.TimeoutExpired:
            problem, err, code = f"no answer within {a.timeout:.0f} s", "", None
        outside = [f for f in (case.parent / "shot.png", ROOT / "etc/shot.png") if f.exists()]
        if not problem and outside:
            problem = f"wrote outside its directory: {outside}"
        settle("scripts", f"viewer script {script.read_text()[:300]}", problem, err, code, case)
    if xvfb:
        xvfb.terminate()

    # The Python module: batches of 25 cases, each batch in its own interpreter.
    module = os.path.abspath(a.python_module) if a.python_module else str(ROOT / "build/python")
    child_env = dict(os.environ, PYTHONPATH=module, OMP_NUM_THREADS="2",
                     ASAN_OPTIONS="detect_leaks=0:abort_on_error=0", UBSAN_OPTIONS="print_stacktrace=1")
    if a.python > 0 and not (pathlib.Path(module) / "seiche").exists():
        print(f"fuzz_scenes: Python cases skipped: no seiche module under {module} (--python-module)")
        a.python = 0
    elif a.python > 0:
        # A module built with AddressSanitizer runs in Debian's python3 with the runtime first.
        so = next((pathlib.Path(module) / "seiche").glob("_seiche*.so"), None)
        libs = subprocess.run(["ldd", str(so)], capture_output=True, text=True).stdout if so else ""
        asan = [w for w in libs.split() if "libasan.so" in w and w.startswith("/")]
        cxx = [w for w in libs.split() if "libstdc++.so" in w and w.startswith("/")]
        if asan:
            # libstdc++ too: python3 does not link it, and ASan's __cxa_throw interceptor needs
            # it there from the start ("CHECK failed: real___cxa_throw" at the first throw).
            child_env["LD_PRELOAD"] = " ".join(asan[:1] + cxx[:1])
    child = work / "python_child.py"
    child.write_text(PYTHON_CHILD % (EXTREMES[:-1],))
    done = 0
    while done < a.python:
        batch = min(25, a.python - done)
        seed = rng.randrange(2**31)
        cmd = ["/usr/bin/python3", str(child), str(seed), str(batch), str(ROOT)] + \
              [str(ROOT / f"scenes/{n}.json") for n in ("dam_break_2d", "floating_box_2d", "jet_breakup_2d",
                                                          "pour_into_glass_3d", "stir_2d")]
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=a.timeout * 3, env=child_env)
            out_text = p.stdout.decode("utf-8", "replace")
            err = p.stderr.decode("utf-8", "replace")
            problem = check(p, err, (0,))
            last = out_text.strip().splitlines()[-1] if out_text.strip() else ""
        except subprocess.TimeoutExpired as e:
            problem, err = f"no answer within {3 * a.timeout:.0f} s", ""
            last = (e.stdout or b"").decode().strip().splitlines()[-1:] or ""
        if problem:
            failures.append((f"python batch seed {seed}, last case started (case, kind): {last}", problem, err[-600:]))
        else:
            counts["python"]["ran"] += batch
        done += batch

    for name, problem, err in failures:
        print(f"FAIL {name}: {problem}\n{err}")
    total = len(corpus) + a.cases + a.rundirs + a.checkpoints + a.sidefiles + a.scripts + a.python
    def line(part):
        return ", ".join(f"{v} {k}" for k, v in counts[part].items() if v)
    print(f"fuzz_scenes: {total} cases in {time.time() - t0:.0f} s, {len(failures)} failures "
          f"(seed {a.seed})\n  corpus ({len(corpus)}): {line('corpus')}\n"
          f"  mutated scenes ({a.cases}): {line('scenes')}\n"
          f"  damaged run directories ({a.rundirs}): {line('rundirs')}\n"
          f"  forged checkpoints ({a.checkpoints}): {line('checkpoints')}\n"
          f"  damaged side files ({a.sidefiles}): {line('sidefiles')}\n"
          f"  viewer scripts ({a.scripts}): {line('scripts')}\n"
          f"  Python cases ({a.python}): {line('python')}")
    shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
