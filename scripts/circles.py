#!/usr/bin/python3
"""Files of src/ whose functions call each other in a loop ("include circles").

Reads the object files of a build (nm: what each defines, what it needs), draws an
edge A -> B when A's object needs a symbol B's object defines, and prints every
strongly connected set of more than one file. Exit status 1 when there is one.

    scripts/circles.py [BUILD]      (default: build)
"""
import os
import subprocess
import sys


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True).stdout
    defined, needed = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            needed.add(name)
        elif kind in "TDBRC":
            defined.add(name)
    return defined, needed


def strongly_connected(graph):
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    root = os.path.join(build, "src")
    objs = []
    for d, _, files in os.walk(root):
        objs += [os.path.join(d, f) for f in files if f.endswith(".o")]
    if not objs:
        sys.exit(f"circles: no object files under {root}: run make first")
    owner, needs = {}, {}
    for o in sorted(objs):
        name = os.path.relpath(o, root)[:-2] + ".c"
        defined, needed = symbols(o)
        for s in defined:
            owner[s] = name
        needs[name] = needed
    graph = {f: sorted({owner[s] for s in n if s in owner and owner[s] != f}) for f, n in needs.items()}
    circles = [c for c in strongly_connected(graph) if len(c) > 1]
    for c in circles:
        print("circle: " + " <-> ".join(c))
    print(f"{len(circles)} circles among {len(graph)} files")
    sys.exit(1 if circles else 0)


if __name__ == "__main__":
    main()
