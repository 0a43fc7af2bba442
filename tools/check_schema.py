#!/usr/bin/env python3
"""Checks scene files against docs/scene.schema.json with Debian's python3-jsonschema.

Usage: check_schema.py SCHEMA SCENE... ; exit 0 when every scene is valid, 1 when one is not,
77 (skipped) when jsonschema is not installed. With --expect-invalid the scenes must be refused.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_schema: python3-jsonschema is not installed (scripts/install-deps.sh installs it); skipped")
    sys.exit(77)

args = sys.argv[1:]
expect_invalid = "--expect-invalid" in args
args = [a for a in args if a != "--expect-invalid"]
schema = json.load(open(args[0]))
jsonschema.Draft7Validator.check_schema(schema)
validator = jsonschema.Draft7Validator(schema)
bad = 0
for path in args[1:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    if expect_invalid:
        if not errors:
            print(f"{path}: accepted, but it should be refused")
            bad += 1
        else:
            print(f"{path}: refused as expected: {errors[0].message}")
    else:
        for e in errors:
            print(f"{path}: {'.'.join(map(str, e.path))}: {e.message}")
        bad += bool(errors)
print(f"check_schema: {len(args) - 1 - bad} of {len(args) - 1} as expected")
sys.exit(1 if bad else 0)
