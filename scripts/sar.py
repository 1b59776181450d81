#!/usr/bin/python3
"""Absorbed power and a SAR-like density per material from a run's volume DFT.

Reads the case file (for each material's eps(w): eps, sigma and poles, docs/CASE_FILE.md)
and the run's dft_fNNN.vtu (or .pvtu) files, which hold the phasors E = E_re + i E_im at
every node of the DFT volumes (docs/OUTPUTS.md), and prints for each frequency and material
  volume, mean |E|^2, absorbed power P = (w/2) eps''(w) int |E|^2 dV, P / volume, and
  P / (volume * density) when --density NAME=RHO gives the material's density,
with eps'' = -Im eps(w) (phasors e^{+iwt}: Im eps < 0 in a lossy medium) and w = 2 pi f;
(w/2) eps'' |E|^2 is the time-averaged loss density (1/2) sigma_eff |E|^2 (Jackson 6.8 with
the losses in eps''). All in dgtd's normalised units (docs/UNITS.md); with "normalize":
"source" the fields, and so the powers, are per unit source spectrum, so they compare
materials and frequencies (a SAR-like distribution), not absolute SAR in W/kg.

The integral: on linear cells ("vtu_format": "linear", N^3 linear sub-tetrahedra per
element) exact for the linear interpolant, int |u|^2 = V/20 (sum_i |u_i|^2 + |sum_i u_i|^2)
for each of E_re and E_im; on Lagrange cells the element's volume times the mean of |E|^2
over its nodes (an approximation).

Usage: scripts/sar.py CASE.json OUTPUT_DIR [--density muscle=1090 --density fat=911]
       [--csv FILE] [--no-case-check]   (python3-vtk9)

CASE must be the run's case file: OUTPUT_DIR/run.json records it ("case"), and another one
is refused (--no-case-check skips this, for a case file since renamed or moved). A --density
NAME must be one of the case's materials. Bad input exits with status 2 and a message.
       scripts/sar.py selftest   (the integral and eps'' against independent values)
"""
import argparse
import glob
import json
import math
import os
import sys

import numpy as np


def eps_of_omega(m, w):
    """eps(w) of a case-file material (docs/CASE_FILE.md "Poles"; phasors e^{+i w t})."""
    poles = m.get("poles", [])
    e = complex(m.get("eps_inf", 1.0) if poles else m.get("eps", 1.0)) - 1j * m.get("sigma", 0.0) / w
    for p in poles:
        if p["type"] == "debye":
            e += p["delta_eps"] / (1 + 1j * w * p["tau"])
        elif p["type"] == "drude":
            e += -p["omega_p"] ** 2 / (w * w - 1j * p["gamma"] * w)
        elif p["type"] == "lorentz":
            e += p["delta_eps"] * p["omega_0"] ** 2 / (p["omega_0"] ** 2 + 2j * p["delta"] * w - w * w)
    return e


def read(path):
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
    r = vtk.vtkXMLPUnstructuredGridReader() if path.endswith(".pvtu") else vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    tv = g.GetFieldData().GetArray("TimeValue")
    if tv is None:
        sys.exit(f"sar.py: {path}: no TimeValue (the frequency)")
    f = tv.GetValue(0)
    pts = vtk_to_numpy(g.GetPoints().GetData())
    E = vtk_to_numpy(g.GetPointData().GetArray("E_re")) + 1j * vtk_to_numpy(g.GetPointData().GetArray("E_im"))
    mat = vtk_to_numpy(g.GetCellData().GetArray("material"))
    conn = vtk_to_numpy(g.GetCells().GetConnectivityArray())
    offs = vtk_to_numpy(g.GetCells().GetOffsetsArray())
    types = vtk_to_numpy(g.GetCellTypesArray())
    return f, pts, E, mat, conn, offs, types


def integrate(pts, E, conn, offs, types):
    """Per cell: volume and int |E|^2."""
    n = len(types)
    vol = np.zeros(n)
    e2 = np.zeros(n)
    for c in range(n):
        ids = conn[offs[c]:offs[c + 1]]
        p = pts[ids[:4]]
        v = abs(np.linalg.det(p[1:] - p[0])) / 6
        vol[c] = v
        if types[c] == 10:          # VTK_TETRA: exact for the linear interpolant
            u = E[ids]
            e2[c] = v / 20 * (np.sum(np.abs(u) ** 2) + np.sum(np.abs(u.sum(axis=0)) ** 2))
        else:                       # VTK_LAGRANGE_TETRAHEDRON: node mean
            e2[c] = v * np.mean(np.sum(np.abs(E[ids]) ** 2, axis=1))
    return vol, e2


def selftest():
    """The linear-cell integral against a degree-2 quadrature (Keast's 4-point rule, exact
    for quadratics) on a random tetrahedron with random complex vertex values, and eps''
    of each pole type where it has a closed form; prints each check, returns failures."""
    rng = np.random.default_rng(1)
    fails = 0

    def check(name, got, want, rtol):
        nonlocal fails
        ok = abs(got - want) <= rtol * abs(want)
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {got:.12g} vs {want:.12g} (rtol {rtol:g})")

    P = rng.random((4, 3))
    E = rng.random((4, 3)) + 1j * rng.random((4, 3))
    vol, e2 = integrate(P, E, np.arange(4), np.array([0, 4]), np.array([10]))
    V = abs(np.linalg.det(P[1:] - P[0])) / 6
    a, b = 0.5854101966249685, 0.1381966011250105     # Keast / Hammer-Stroud, degree 2
    q = 0.0
    for i in range(4):
        lam = np.full(4, b)
        lam[i] = a
        u = lam @ E
        q += V / 4 * np.sum(np.abs(u) ** 2)
    check("linear tet: volume", vol[0], V, 1e-14)
    check("linear tet: int |E|^2 = degree-2 quadrature", e2[0], q, 1e-13)
    w = 2.0
    m = {"eps_inf": 2, "sigma": 0.3, "poles": [{"type": "debye", "delta_eps": 3, "tau": 0.5}]}
    check("debye at w tau = 1: eps'' = delta_eps/2 + sigma/w", -eps_of_omega(m, w).imag,
          1.5 + 0.15, 1e-14)
    m = {"eps_inf": 1, "poles": [{"type": "drude", "omega_p": 3, "gamma": 1}]}
    check("drude: eps'' = omega_p^2 gamma / (w (w^2 + gamma^2))", -eps_of_omega(m, w).imag,
          9 * 1 / (2 * (4 + 1)), 1e-14)
    m = {"eps_inf": 1, "poles": [{"type": "lorentz", "delta_eps": 2, "omega_0": 2, "delta": 0.5}]}
    check("lorentz at w = w0: eps'' = delta_eps w0 / (2 delta)", -eps_of_omega(m, w).imag,
          2 * 2 / (2 * 0.5), 1e-14)
    check("plain material: eps'' = sigma / w", -eps_of_omega({"eps": 4, "sigma": 0.8}, w).imag,
          0.4, 1e-14)
    print(f"{fails} failed")
    return fails


def check_case(ap, case_path, outdir):
    """Refuse a case other than the run's: OUTDIR/run.json records the case file the run
    read ("case", the path as given to dgtd). The same file, or a file with the same bytes,
    passes; where the recorded path does not resolve from here (the run was started in
    another directory) the file names must agree."""
    rj = os.path.join(outdir, "run.json")
    try:
        with open(rj) as fh:
            recorded = json.load(fh).get("case") or ""
    except FileNotFoundError:
        print(f"sar.py: warning: no {rj}, so the case file cannot be checked against the run",
              file=sys.stderr)
        return
    except (OSError, ValueError) as e:
        ap.error(f"{rj}: cannot be read as JSON ({e}); is OUTPUT_DIR a dgtd run's output?")
    if not recorded:
        return
    if os.path.exists(recorded):
        if os.path.samefile(recorded, case_path):
            return
        with open(recorded, "rb") as f1, open(case_path, "rb") as f2:
            if f1.read() == f2.read():
                return
        why = "a different file with different content"
    elif os.path.basename(recorded) == os.path.basename(case_path):
        return
    else:
        why = "a different file name"
    ap.error(f"CASE {case_path!r} is not the case of the run in {outdir!r}: its run.json records "
             f"\"case\": {recorded!r} ({why}); the materials would be those of another problem. "
             f"Pass the run's case file, or --no-case-check if that file was renamed or moved")


def main(argv):
    if argv[:1] == ["selftest"]:
        return 1 if selftest() else 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("case", help="the run's case file (checked against OUTPUT_DIR/run.json)")
    ap.add_argument("outdir", help="the run's output directory, with dft_fNNN.vtu and run.json")
    ap.add_argument("--density", action="append", default=[],
                    help="NAME=RHO: the density of the case's material NAME (its \"volume\"), "
                         "a positive number in any unit")
    ap.add_argument("--csv", help="also write freq,material,volume,mean_E2,power,power_density,sar")
    ap.add_argument("--no-case-check", action="store_true",
                    help="do not compare CASE with the case recorded in OUTPUT_DIR/run.json")
    a = ap.parse_args(argv)
    try:
        with open(a.case) as fh:
            case = json.load(fh)
    except FileNotFoundError:
        ap.error(f"CASE {a.case!r}: no such file; give the case file (.json) the run was made from")
    except (OSError, ValueError) as e:
        ap.error(f"CASE {a.case!r}: cannot be read as a JSON case file ({e})")
    if not isinstance(case, dict):
        ap.error(f"CASE {a.case!r}: not a case file (a JSON object, docs/CASE_FILE.md)")
    if not os.path.isdir(a.outdir):
        ap.error(f"OUTPUT_DIR {a.outdir!r}: no such directory; give the run's output directory")
    if not a.no_case_check:
        check_case(ap, a.case, a.outdir)
    mats = case.get("materials", [])
    names = [str(m.get("volume")) for m in mats]
    rho = {}
    for d in a.density:
        k, eq, v = d.partition("=")
        if not eq or not k:
            ap.error(f"--density {d!r}: expected NAME=RHO (e.g. --density muscle=1090)")
        if k not in names:
            ap.error(f"--density {d!r}: {k!r} is no material of {a.case}; its materials are "
                     f"{', '.join(names) if names else '(none)'}")
        try:
            r = float(v)
        except ValueError:
            r = float("nan")
        if not (math.isfinite(r) and r > 0):
            ap.error(f"--density {d!r}: RHO {v!r} is not a positive number")
        rho[k] = r
    files = sorted(glob.glob(os.path.join(a.outdir, "dft_f[0-9][0-9][0-9].pvtu"))) or \
        sorted(glob.glob(os.path.join(a.outdir, "dft_f[0-9][0-9][0-9].vtu")))
    if not files:
        ap.error(f"OUTPUT_DIR {a.outdir!r}: no dft_fNNN.vtu (.pvtu) there; run a case with "
                 f"\"dft\": {{\"volumes\": [...]}} (docs/OUTPUTS.md) into it")
    out = open(a.csv, "w") if a.csv else None
    if out:
        out.write("freq,material,volume,mean_E2,power,power_density,sar\n")
    for path in files:
        f, pts, E, mat, conn, offs, types = read(path)
        w = 2 * math.pi * f
        vol, e2 = integrate(pts, E, conn, offs, types)
        print(f"# f = {f:.6g} ({os.path.basename(path)}): per material; P = (w/2) eps'' int |E|^2 dV")
        print(f"{'material':>12} {'eps(w)':>20} {'volume':>10} {'mean |E|^2':>12} {'P':>12} "
              f"{'P/volume':>12} {'P/(vol rho)':>12}")
        for mi in sorted(set(mat.tolist())):
            sel = mat == mi
            if mi >= len(mats):
                sys.stderr.write(f"sar.py: error: {path}: material index {mi}, but {a.case} has "
                                 f"{len(mats)} materials: not the case of this run\n")
                return 2
            m = mats[mi] if mi >= 0 else {"volume": "vacuum"}
            name = str(m.get("volume"))
            e = eps_of_omega(m, w)
            V, I = vol[sel].sum(), e2[sel].sum()
            P = 0.5 * w * (-e.imag) * I
            sar = P / (V * rho[name]) if name in rho else float("nan")
            es = f"{e.real:.4g}{'-' if e.imag < 0 else '+'}{abs(e.imag):.4g}i"
            print(f"{name:>12} {es:>20} {V:10.4g} {I / V:12.4e} {P:12.4e} {P / V:12.4e} {sar:12.4e}")
            if out:
                out.write(f"{f:.10g},{name},{V:.10g},{I / V:.10e},{P:.10e},{P / V:.10e},{sar:.10e}\n")
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
