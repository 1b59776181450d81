#!/usr/bin/python3
"""Includes of src/ that go up the layers (docs/ARCHITECTURE.md, the layer table).

Each folder of src/ is one layer; a file may include headers of its own folder and of the
folders below it in LAYERS only. Prints every include that breaks this, and a folder of src/
that is not in LAYERS; exit status 1 when there is one.

    scripts/layers.py [SRC]      (default: src)
"""
import os
import re
import sys

LAYERS = ["core", "refel", "mesh", "dg", "io", "part", "codegen", "device", "backend", "tune",
          "bench", "solver", "app"]

INCLUDE = re.compile(r'\s*#\s*include\s+"([A-Za-z0-9_]+)/')


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "src"
    rank = {d: i for i, d in enumerate(LAYERS)}
    bad = 0
    for d in sorted(os.listdir(src)):
        if not os.path.isdir(os.path.join(src, d)):
            continue
        if d not in rank:
            print(f"layers: src/{d}/ is not in the layer table (scripts/layers.py LAYERS)")
            bad += 1
            continue
        for f in sorted(os.listdir(os.path.join(src, d))):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(src, d, f)
            with open(path, errors="replace") as fh:
                for n, line in enumerate(fh, 1):
                    m = INCLUDE.match(line)
                    if m and m.group(1) in rank and rank[m.group(1)] > rank[d]:
                        print(f"{path}:{n}: {d}/ includes {m.group(1)}/, a layer above it")
                        bad += 1
    print(f"{bad} includes up the layers")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
