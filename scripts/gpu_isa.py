#!/usr/bin/python3
"""Compile dgtd's generated kernels for GPUs this machine does not have, with the vendors'
own back ends, and report what each kernel costs there: registers, spills, local memory,
occupancy. `dgtd kernels` writes the sources (one program per variant, order and precision,
for each device profile); this script compiles each program

  NVIDIA (nvidia-sm90): clang-14's OpenCL front end to nvptx64-nvidia-nvcl, linked with
      libclc's builtins, llc-14 to PTX, then the CUDA toolkit's ptxas -arch=sm_90 -v
  AMD (amd-gfx90a): the same front end to amdgcn-amd-amdhsa, libclc, llc-14 -mcpu=gfx90a;
      the assembly's NumVgprs, ScratchSize, LDSByteSize and Occupancy comments
  Intel (intel-pvc, intel-dg2): ocloc from Debian's intel-opencl-icd, unpacked into
      build/intel by scripts/install-deps.sh (never registered as an ICD), given the options
      dgtd builds with there (dg_device_build_options); it reports a kernel's registers and
      spills only when it spills

and writes one CSV row per kernel. It fails (exit 1) on any compile error, and on a spill in
a profile's default variant or the tuner's first-stage candidates at N <= 6. A vendor whose
tools are missing is skipped with the package to install (exit 77 if every one is).

  usage: scripts/gpu_isa.py [--quick | --order LIST --family LIST] [--out DIR] [--dgtd BIN]
                            [--jobs J]
         scripts/gpu_isa.py --against-driver DIR...
    --quick  N = 3: the default and first-stage variants, the default with the source, PML
             and curved-element kernels, the DFT and multirate programs (the make test
             subset)
    --order, --family  only these orders and families (`dgtd kernels`' lists; the results
             go to isa-part.csv and summary-part.txt)
    --out    where isa.csv and summary.txt go (default bench/results/isa)
    --against-driver  for each DIR of `DGTD_CL_OPTIONS=-cl-nv-verbose dgtd run --dump-kernels
             DIR` made on an NVIDIA GPU: the driver's registers and spills per kernel (from
             the .log) beside this script's for the same source (the .cl)

The NVIDIA numbers are LLVM's NVPTX back end's, not NVIDIA's own front end's: on the H100
(bench/results/nvidia-h100/2026-11-26) the driver gave the same registers for the split
kernels but 1.5-3x fewer for the fused rhs_node (docs/PORTABILITY.md). Spills and local
memory are the dependable columns; registers are an upper estimate there."""

import argparse
import concurrent.futures
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBCLC = "/usr/lib/clc"


def find_tool(names, extra_dirs=()):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
        for d in extra_dirs:
            q = os.path.join(d, n)
            if os.access(q, os.X_OK):
                return q
    return None


def toolchains(build):
    """What each compiler family needs, and what is missing (with the package to install)."""
    clang = find_tool(["clang-14"])
    link = find_tool(["llvm-link-14"])
    llc = find_tool(["llc-14"])
    ptxas = find_tool(["ptxas"], ["/usr/local/cuda/bin",
                                  os.path.join(build, "cuda-nvcc", "nvidia", "cuda_nvcc", "bin")])
    intel_root = os.path.join(build, "intel")
    ocloc = os.path.join(intel_root, "usr", "bin", "ocloc")
    llvm_missing = [w for w, p in (("clang-14", clang), ("llvm-link-14", link), ("llc-14", llc))
                    if not p]
    t = {}
    miss = {}
    nv_bc = os.path.join(LIBCLC, "nvptx64--nvidiacl.bc")
    amd_bc = os.path.join(LIBCLC, "amdgcn--amdhsa.bc")
    if llvm_missing:
        miss["nvidia"] = miss["amd"] = "missing %s (Debian: clang-14 llvm-14)" % ", ".join(llvm_missing)
    else:
        if not os.path.exists(nv_bc) or not os.path.exists(amd_bc):
            miss["nvidia"] = miss["amd"] = "missing libclc builtins in %s (Debian: libclc-14)" % LIBCLC
        else:
            if ptxas:
                t["nvidia"] = dict(clang=clang, link=link, llc=llc, ptxas=ptxas, bc=nv_bc)
            else:
                miss["nvidia"] = ("missing ptxas (the CUDA toolkit, or scripts/install-deps.sh "
                                  "puts the PyPI wheel nvidia-cuda-nvcc-cu12 in build/cuda-nvcc)")
            t["amd"] = dict(clang=clang, link=link, llc=llc, bc=amd_bc)
    if os.access(ocloc, os.X_OK):
        libdir = os.path.join(intel_root, "usr", "lib", "x86_64-linux-gnu")
        t["intel"] = dict(ocloc=ocloc, clang=clang,
                          env=dict(os.environ, LD_LIBRARY_PATH=libdir + ":" +
                                   os.path.join(libdir, "intel-opencl")))
    else:
        miss["intel"] = ("missing %s (scripts/install-deps.sh unpacks Debian's intel-opencl-icd "
                         "there)" % os.path.relpath(ocloc, ROOT))
    return t, miss


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def llvm_front(tc, src, triple, extra, tmp):
    bc, linked = os.path.join(tmp, "k.bc"), os.path.join(tmp, "l.bc")
    r = run([tc["clang"], "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-target",
             triple] + extra + ["-O3", "-emit-llvm", "-c", src, "-o", bc])
    if r.returncode:
        return None, "clang: " + r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "clang failed"
    r = run([tc["link"], "--only-needed", bc, tc["bc"], "-o", linked])
    if r.returncode:
        return None, "llvm-link: " + r.stdout.strip()[-200:]
    return linked, None


def occupancy_sm90(regs, threads, smem):
    """Warps resident per SM over the 64 an SM holds (registers, shared memory, warps)."""
    warps = max(1, (threads + 31) // 32)
    regs_per_warp = ((max(regs, 1) * 32 + 255) // 256) * 256
    by_regs = 65536 // (regs_per_warp * warps)
    by_warps = 64 // warps
    by_smem = (233472 // (smem + 1024)) if smem else 32
    blocks = min(by_regs, by_warps, by_smem, 32)
    return blocks * warps / 64.0


# Floating-point and load instructions in the code (static counts: a loop left rolled counts
# once). Their ratio says how many arithmetic instructions each load feeds: an SM issues
# about 4 FP32 FMAs per load per clock, so a kernel under ~4 is bound by its loads.
PTX_FP = re.compile(r"^\s*(?:@%p\d+\s+)?(?:fma|mul|add|sub|neg|min|max|div|rcp|sqrt)\.[\w.]*f(?:32|64)\b")
PTX_LD = re.compile(r"^\s*(?:@%p\d+\s+)?ld\.(?:global|shared|const|local)\b[\w.]*\s")
AMD_FP = re.compile(r"^\s*v_(?:pk_)?(?:fma|fmac|mac|mad|mul|add|sub|subrev|min|max)_(?:legacy_)?f(?:32|64)")
AMD_LD = re.compile(r"^\s*(?:global_load|buffer_load|flat_load|ds_read|ds_load|scratch_load)\w*\s")


def fp_per_load(counts):
    fp, ld = counts
    return "%.2f" % (fp / ld) if ld else ""


def compile_nvidia(tc, src, tmp):
    linked, err = llvm_front(tc, src, "nvptx64-nvidia-nvcl", [], tmp)
    if err:
        return None, err
    ptx = os.path.join(tmp, "k.ptx")
    r = run([tc["llc"], "-mcpu=sm_70", linked, "-o", ptx])
    if r.returncode:
        return None, "llc: " + r.stdout.strip()[-300:]
    threads, ops = {}, {}
    cur = None
    with open(ptx) as f:
        for line in f:
            m = re.match(r"\s*\.entry\s+(\w+)", line)
            if m:
                cur = m.group(1)
                ops[cur] = [0, 0]
            if cur:
                ops[cur][0] += bool(PTX_FP.match(line))
                ops[cur][1] += bool(PTX_LD.match(line))
            m = re.search(r"\.reqntid\s+(\d+)(?:,\s*(\d+))?(?:,\s*(\d+))?", line)
            if m and cur:
                threads[cur] = int(m.group(1)) * int(m.group(2) or 1) * int(m.group(3) or 1)
    r = run([tc["ptxas"], "-arch=sm_90", "-v", ptx, "-o", os.path.join(tmp, "k.cubin")])
    if r.returncode:
        return None, "ptxas: " + r.stdout.strip()[-300:]
    rows, name = [], None
    for line in r.stdout.splitlines():
        m = re.search(r"Compiling entry function '(\w+)'", line)
        if m:
            name = m.group(1)
            rows.append(dict(kernel=name, spill=0, registers=0, local=0))
        m = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and rows:
            rows[-1]["spill"] = int(m.group(1)) + int(m.group(2))
        m = re.search(r"Used (\d+) registers", line)
        if m and rows:
            rows[-1]["registers"] = int(m.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            rows[-1]["local"] = int(s.group(1)) if s else 0
    for row in rows:
        t = threads.get(row["kernel"], 256)
        row["threads"] = t
        c = ops.get(row["kernel"], [0, 0])
        row.update(fp=c[0], loads=c[1], fp_per_load=fp_per_load(c))
        row["occupancy"] = "%.2f" % occupancy_sm90(row["registers"], t, row["local"])
    return rows, None


def compile_amd(tc, src, tmp, target):
    linked, err = llvm_front(tc, src, "amdgcn-amd-amdhsa", ["-mcpu=" + target, "-nogpulib"], tmp)
    if err:
        return None, err
    asm = os.path.join(tmp, "k.s")
    r = run([tc["llc"], "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + target, linked, "-o", asm])
    if r.returncode:
        return None, "llc: " + r.stdout.strip()[-300:]
    rows, name, ops = [], None, {}
    with open(asm) as f:
        for line in f:
            m = re.match(r"^(\w+):\s*(;.*)?$", line)
            if m and not line.startswith(".L"):
                name = m.group(1)
                ops.setdefault(name, [0, 0])
            if name:
                ops[name][0] += bool(AMD_FP.match(line))
                ops[name][1] += bool(AMD_LD.match(line))
            m = re.match(r"\s*; NumVgprs: (\d+)", line)
            if m and name:
                c = ops.get(name, [0, 0])
                rows.append(dict(kernel=name, registers=int(m.group(1)), spill=0, local=0,
                                 fp=c[0], loads=c[1], fp_per_load=fp_per_load(c)))
            m = re.match(r"\s*; ScratchSize: (\d+)", line)
            if m and rows:
                rows[-1]["spill"] = int(m.group(1))
            m = re.match(r"\s*; LDSByteSize: (\d+)", line)
            if m and rows:
                rows[-1]["local"] = int(m.group(1))
            m = re.match(r"\s*; Occupancy: (\d+)", line)
            if m and rows:
                rows[-1]["occupancy"] = "%.2f" % (int(m.group(1)) / 8.0)  # waves per SIMD / 8
    for row in rows:
        row.setdefault("occupancy", "")
        row["threads"] = ""
    return rows, None


def compile_intel(tc, src, tmp, target, options):
    r = run([tc["ocloc"], "compile", "-file", src, "-device", target, "-out_dir", tmp,
             "-output", "k", "-output_no_suffix"] + (["-options", options] if options else []),
            env=tc["env"])
    if r.returncode or "Build succeeded" not in r.stdout:
        lines = [l for l in r.stdout.splitlines() if "error" in l.lower()]
        return None, "ocloc: " + (lines[0] if lines else r.stdout.strip()[-300:])
    text = open(src).read()
    if tc.get("clang"):  # kernel names are made by macros: read them after the preprocessor
        r2 = run([tc["clang"], "-E", "-P", "-x", "cl", "-cl-std=CL1.2", src])
        if r2.returncode == 0:
            text = r2.stdout
    kernels = re.findall(r"__kernel\s+(?:__attribute__\s*\(\(.*?\)\)\s*)*void\s+(\w+)\s*\(",
                         text, re.S)
    rows = {k: dict(kernel=k, registers="", spill=0, local="", threads="", occupancy="")
            for k in kernels}
    for m in re.finditer(r"kernel (\w+)\s+compiled SIMD(\d+) allocated (\d+) regs and spilled "
                         r"around (\d+)", r.stdout):
        rows.setdefault(m.group(1), dict(kernel=m.group(1), local="", threads="", occupancy=""))
        rows[m.group(1)].update(registers=int(m.group(3)), spill=int(m.group(4)))
    return list(rows.values()), None


def against_driver(tc, dirs):
    if "nvidia" not in tc:
        print("gpu_isa: no NVIDIA tools here")
        return 77
    print("%-40s %-17s %7s %8s %s" % ("dump", "kernel", "driver", "offline", "spill driver/offline"))
    for d in dirs:
        for src in sorted(f for f in os.listdir(d) if f.endswith(".cl")):
            log = os.path.join(d, src[:-3] + ".log")
            drv, name = {}, None
            for line in open(log) if os.path.exists(log) else []:
                m = re.search(r"Compiling entry function '(\w+)'", line)
                if m:
                    name = m.group(1)
                m = re.search(r"(\d+) bytes spill stores", line)
                if m and name:
                    drv.setdefault(name, {})["spill"] = int(m.group(1))
                m = re.search(r"Used (\d+) registers", line)
                if m and name:
                    drv.setdefault(name, {})["regs"] = int(m.group(1))
            tmp = tempfile.mkdtemp()
            rows, err = compile_nvidia(tc["nvidia"], os.path.join(d, src), tmp)
            shutil.rmtree(tmp, ignore_errors=True)
            if err:
                print("%s: %s" % (src, err))
                continue
            for r in sorted(rows, key=lambda r: r["kernel"]):
                k = drv.get(r["kernel"], {})
                print("%-40s %-17s %7s %8d %s/%d" % (os.path.join(os.path.basename(d), src)[-40:],
                      r["kernel"], k.get("regs", "?"), r["registers"], k.get("spill", "?"), r["spill"]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--order")
    ap.add_argument("--family")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results", "isa"))
    ap.add_argument("--dgtd", default=os.path.join(ROOT, "bin", "dgtd"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--against-driver", nargs="+", metavar="DIR")
    a = ap.parse_args()

    tc, missing = toolchains(a.build)
    if a.against_driver:
        return against_driver(tc, a.against_driver)
    for fam, why in sorted(missing.items()):
        print("gpu_isa: %s skipped: %s" % (fam, why))
    if not tc:
        print("gpu_isa: no vendor compiler available")
        return 77
    work = tempfile.mkdtemp(prefix="dgtd-isa-")
    try:
        cmd = [a.dgtd, "kernels", "--out", work]
        if a.quick:
            cmd += ["--order", "3", "--precision", "both", "--family",
                    "default,stage1,pml,dft,multirate"]
        else:
            cmd += (["--order", a.order] if a.order else []) + (["--family", a.family] if a.family else [])
        r = run(cmd)
        if r.returncode:
            print("gpu_isa: %s failed:\n%s" % (" ".join(cmd), r.stdout))
            return 1
        jobs = []
        for prof in sorted(os.listdir(work)):
            fam = prof.split("-")[0]
            if fam not in tc:
                continue
            with open(os.path.join(work, prof, "index.tsv")) as f:
                for row in csv.DictReader(f, delimiter="\t"):
                    if row["file"] != "-":
                        jobs.append((prof, fam, row))
        targets = {"nvidia-sm90": "sm_90", "amd-gfx90a": "gfx90a", "intel-pvc": "pvc",
                   "intel-dg2": "dg2-g10"}

        def one(job):
            prof, fam, row = job
            src = os.path.join(work, prof, row["file"])
            tmp = tempfile.mkdtemp(dir=work)
            try:
                if fam == "nvidia":
                    return job, compile_nvidia(tc["nvidia"], src, tmp)
                if fam == "amd":
                    return job, compile_amd(tc["amd"], src, tmp, targets[prof])
                return job, compile_intel(tc["intel"], src, tmp, targets[prof],
                                          row.get("options") or "")
            finally:
                shutil.rmtree(tmp, ignore_errors=True)

        out_rows, errors, spills = [], [], []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            for (prof, fam, row), (kernels, err) in ex.map(one, jobs):
                base = dict(profile=prof, target=targets[prof], file=row["file"],
                            families=row["families"], N=row["N"], precision=row["precision"],
                            variant=row["variant"], options=row.get("options") or "")
                if err:
                    errors.append("%s %s: %s" % (prof, row["file"], err))
                    out_rows.append(dict(base, kernel="", registers="", spill="", local="",
                                         threads="", occupancy="", fp="", loads="",
                                         fp_per_load="", status="error: " + err[:200]))
                    continue
                for k in kernels:
                    out_rows.append(dict(base, status="ok", **k))
                    guarded = ("default" in row["families"] or "stage1" in row["families"])
                    if k["spill"] and guarded and int(row["N"]) <= 6:
                        spills.append("%s N=%s %s %s: %s spills %s bytes (%s)" % (
                            prof, row["N"], row["precision"], row["families"], k["kernel"],
                            k["spill"], row["variant"]))
        os.makedirs(a.out, exist_ok=True)
        fields = ["profile", "target", "families", "N", "precision", "variant", "kernel",
                  "registers", "spill", "local", "threads", "occupancy", "fp", "loads",
                  "fp_per_load", "status", "file", "options"]
        part = a.quick or a.order or a.family
        name = "isa-quick.csv" if a.quick else "isa-part.csv" if part else "isa.csv"
        with open(os.path.join(a.out, name), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            for row in sorted(out_rows, key=lambda r: (r["profile"], int(r["N"]), r["precision"],
                                                       r["file"], r["kernel"])):
                w.writerow({k: row.get(k, "") for k in fields})
        if not part:
            write_plot(out_rows, a.out)
        summary = summarize(out_rows, len(jobs), errors, spills, missing)
        summ = "summary-quick.txt" if a.quick else "summary-part.txt" if part else "summary.txt"
        with open(os.path.join(a.out, summ), "w") as f:
            f.write(summary)
        print(summary, end="")
        return 1 if errors or spills else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_plot(rows, out):
    """isa.png (and its gnuplot script isa.gp, data inline): left, the most registers (VGPRs)
    of any kernel of the default variant per order, float and double, NVIDIA and AMD; right,
    the kernels that spill per order and profile, all families."""
    profs = sorted({r["profile"] for r in rows})
    orders = sorted({int(r["N"]) for r in rows})
    lines = ["set terminal pngcairo size 1300,480 font ',10'", "set output 'isa.png'",
             "set multiplot layout 1,2", "set grid", "set key top left", "set xlabel 'order N'",
             "set title 'default variant: most registers of any kernel'",
             "set ylabel 'registers (NVIDIA) / VGPRs (AMD) per work-item'"]
    series = []
    for prof in ("nvidia-sm90", "amd-gfx90a"):
        for prec in ("float", "double"):
            pts = []
            for n in orders:
                v = [int(r["registers"]) for r in rows if r["profile"] == prof and int(r["N"]) == n
                     and r["precision"] == prec and "default" in r["families"]
                     and "pml" not in r["families"] and r["registers"] not in ("", None)]
                if v:
                    pts.append((n, max(v)))
            if pts:
                series.append(("%s %s" % (prof, prec), pts))
    if series:
        lines.append("plot " + ", ".join("'-' with linespoints title '%s'" % t for t, _ in series))
        for _, pts in series:
            lines += ["%d %d" % p for p in pts] + ["e"]
    lines += ["set title 'kernels that spill (all families, float and double)'",
              "set ylabel 'kernels with spill or scratch > 0'", "set yrange [0:*]"]
    lines.append("plot " + ", ".join("'-' with linespoints title '%s'" % p for p in profs))
    for prof in profs:
        for n in orders:
            c = sum(1 for r in rows if r["profile"] == prof and int(r["N"]) == n
                    and r["spill"] not in ("", None, 0, "0"))
            lines.append("%d %d" % (n, c))
        lines.append("e")
    lines.append("unset multiplot")
    with open(os.path.join(out, "isa.gp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    if shutil.which("gnuplot"):
        run(["gnuplot", "isa.gp"], cwd=out)


def summarize(rows, nprog, errors, spills, missing):
    lines = []
    by = {}
    for r in rows:
        by.setdefault(r["profile"], []).append(r)
    lines.append("gpu_isa: %d programs compiled" % nprog)
    for prof in sorted(by):
        rs = [r for r in by[prof] if r["status"] == "ok"]
        progs = len({r["file"] for r in by[prof]})
        spilled = [r for r in rs if r["spill"]]
        occ = [float(r["occupancy"]) for r in rs if r["occupancy"] not in ("", None)]
        lines.append("  %-12s %4d programs, %5d kernels, %3d spill (%d programs), worst occupancy %s"
                     % (prof, progs, len(rs), len(spilled), len({r["file"] for r in spilled}),
                        "%.2f" % min(occ) if occ else "n/a"))
    for fam, why in sorted(missing.items()):
        lines.append("  %s: skipped, %s" % (fam, why))
    for e in errors:
        lines.append("COMPILE ERROR " + e)
    for s in spills:
        lines.append("SPILL " + s)
    lines.append("gpu_isa: %s\n" % ("FAILED" if errors or spills else "ok"))
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
