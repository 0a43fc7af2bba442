#!/usr/bin/env bash
# Regenerates what the docs copy from the parameter table: the tables of docs/scene-format.md
# (between the GENERATED markers) and docs/scene.schema.json. Usage: tools/update_docs.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seiche="${1:-build}/seiche"
"$seiche" schema -o docs/scene.schema.json
tables=$(mktemp)
trap 'rm -f "$tables"' EXIT
"$seiche" schema --markdown -o "$tables"
python3 - "$tables" <<'PY'
import sys
begin, end = "<!-- BEGIN GENERATED: seiche schema --markdown -->\n", "<!-- END GENERATED -->"
doc = open("docs/scene-format.md").read()
i, j = doc.index(begin) + len(begin), doc.index(end)
open("docs/scene-format.md", "w").write(doc[:i] + open(sys.argv[1]).read() + doc[j:])
PY
echo "docs/scene-format.md and docs/scene.schema.json updated"
