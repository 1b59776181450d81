#!/usr/bin/python3
"""Mie series: bistatic radar cross section of a sphere (PEC or homogeneous eps_r, mu_r) lit
by a plane wave, for checking dgtd's far-field output (far_field.csv). eps_r may be complex
(a lossy or metallic sphere) and may depend on frequency through the poles of dgtd's case
file (Debye, Drude, Lorentz: docs/CASE_FILE.md "Poles").

Formulation: C. F. Bohren & D. R. Huffman, "Absorption and Scattering of Light by Small
Particles" (Wiley 1983), ch. 4: coefficients a_n, b_n (eq. 4.52; the PEC sphere is the limit
m -> infinity: a_n = psi_n'(x)/xi_n'(x), b_n = psi_n(x)/xi_n(x)), angular functions pi_n,
tau_n (4.47) and amplitudes S1, S2 (4.74). With the incident wave along k^ polarised along
p^, a scattering direction r^ at angle theta from k^ and azimuth phi from p^ (about k^):
    sigma(theta, phi) = (4 pi / k^2) (|S2|^2 cos^2 phi + |S1|^2 sin^2 phi)
(the E-plane, phi = 0, is |S2|^2; the H-plane |S1|^2). Balanis, "Advanced Engineering
Electromagnetics" ch. 11 gives the same series for the PEC sphere. Units: c0 = 1, so
k = 2 pi f and sigma is in the length unit squared.

Complex permittivity: every eps given to this tool is in dgtd's convention, phasors
e^{+i w t} (docs/METHOD.md "Dispersive media"), so a lossy medium has Im eps < 0, e.g.
eps = 2 - 0.5i is "--eps 2,-0.5". Bohren & Huffman use e^{-i w t}, in which the same medium
is conj(eps): the series below takes m = sqrt(conj(eps) mu) (Im m >= 0 for a lossy sphere).
The pole list (--eps-inf, --sigma, --pole, or --case FILE --volume NAME, which reads them
from a case file) is evaluated at each frequency as the case file defines it:
    eps(w) = eps_inf - i sigma / w + sum_p chi_p(w),    w = 2 pi f
    debye   chi = delta_eps / (1 + i w tau)
    drude   chi = -omega_p^2 / (w^2 - i gamma w)
    lorentz chi = delta_eps omega_0^2 / (omega_0^2 + 2 i delta w - w^2)

Usage:
  mie.py selftest
  mie.py rcs --radius A --freq F MATERIAL [--mu M] [--k 1,0,0] [--pol 0,0,1]
             [--plane xz --step 5]           -> CSV: plane,cut_deg,theta_deg,phi_deg,rcs,rcs_dbsm
  mie.py eps --freq F[,F...] MATERIAL        -> CSV: freq,omega,eps_re,eps_im (dgtd's sign)
  mie.py compare FAR_FIELD_CSV --radius A MATERIAL [--mu M] [--k ..] [--pol ..]
             [--tol-db T] [--floor-db D] [--out CSV]  -> table angle, dgtd, Mie, error dB; exit 1 if the
             largest |error| over directions where Mie is within D dB of its maximum exceeds T
  MATERIAL: --pec | --eps RE[,IM] | [--eps-inf E] [--sigma S] --pole TYPE:P1,P2[,P3] ...
            | --case CASE.json --volume NAME
            (--pole debye:delta_eps,tau  drude:omega_p,gamma  lorentz:delta_eps,omega_0,delta)
"""
import argparse
import math
import sys

import numpy as np
from scipy.special import spherical_jn, spherical_yn


def nmax_for(x):
    """Terms needed for size parameter x (Wiscombe 1980), with a margin."""
    return int(x + 4.05 * x ** (1.0 / 3.0) + 10)


def coefficients(x, eps=None, mu=1.0, pec=False):
    """a_n, b_n for n = 1..nmax (B&H 4.52, time convention e^{-i w t}); eps (complex allowed)
    in dgtd's convention e^{+i w t}, conjugated here."""
    n = np.arange(1, nmax_for(x) + 1)
    jx, djx = spherical_jn(n, x), spherical_jn(n, x, derivative=True)
    yx, dyx = spherical_yn(n, x), spherical_yn(n, x, derivative=True)
    hx, dhx = jx + 1j * yx, djx + 1j * dyx
    psi, dpsi = x * jx, jx + x * djx          # [x j_n(x)]'
    xi, dxi = x * hx, hx + x * dhx            # [x h_n(x)]'
    if pec:
        return dpsi / dxi, psi / xi
    m2 = np.conj(complex(eps)) * mu          # B&H's m^2 (e^{-i w t}: Im m^2 >= 0 if lossy)
    m = np.sqrt(m2)                           # principal branch: Re m >= 0, Im m >= 0
    if m.imag == 0 and m2.imag == 0 and m2.real > 0:
        m = m.real                            # a lossless dielectric stays real
    mx = m * x
    jm, djm = spherical_jn(n, mx), spherical_jn(n, mx, derivative=True)
    dpsim = jm + mx * djm                     # [mx j_n(mx)]'
    # B&H's mu1 (the sphere's permeability) is mu here, their mu (the medium's) is 1.
    a = (m2 * jm * dpsi - mu * jx * dpsim) / (m2 * jm * dxi - mu * hx * dpsim)
    b = (mu * jm * dpsi - jx * dpsim) / (mu * jm * dxi - hx * dpsim)
    return a, b


def eps_of_omega(w, eps_inf=1.0, sigma=0.0, poles=()):
    """dgtd's eps(w) (docs/CASE_FILE.md "Poles"; phasors e^{+i w t}) at angular frequency w."""
    e = complex(eps_inf) - 1j * sigma / w
    for p in poles:
        t = p["type"]
        if t == "debye":
            e += p["delta_eps"] / (1 + 1j * w * p["tau"])
        elif t == "drude":
            e += -p["omega_p"] ** 2 / (w * w - 1j * p["gamma"] * w)
        elif t == "lorentz":
            e += p["delta_eps"] * p["omega_0"] ** 2 / (p["omega_0"] ** 2 + 2j * p["delta"] * w - w * w)
        else:
            raise ValueError(f"unknown pole type {t!r}")
    return e


POLE_PARAMS = {"debye": ("delta_eps", "tau"), "drude": ("omega_p", "gamma"),
               "lorentz": ("delta_eps", "omega_0", "delta")}


def parse_pole(s):
    """TYPE:P1,P2[,P3] as in --pole drude:9.4,1.0 -> the case file's pole object."""
    t, _, vals = s.partition(":")
    t = t.strip().lower()
    if t not in POLE_PARAMS:
        raise argparse.ArgumentTypeError(f"pole type {t!r}: expected debye, drude or lorentz")
    v = [float(x) for x in vals.split(",")] if vals else []
    if len(v) != len(POLE_PARAMS[t]):
        raise argparse.ArgumentTypeError(f"{t} pole takes {','.join(POLE_PARAMS[t])}, got {s!r}")
    return dict(type=t, **dict(zip(POLE_PARAMS[t], v)))


def material_from_case(path, volume):
    """eps_inf, sigma, mu and poles of the material of volume NAME in a dgtd case file."""
    import json
    with open(path) as fh:
        case = json.load(fh)
    for m in case.get("materials", []):
        if str(m.get("volume")) == volume:
            poles = [dict(p) for p in m.get("poles", [])]
            for p in poles:
                if p.get("type") not in POLE_PARAMS:
                    sys.exit(f"mie.py: {path}: volume {volume}: pole type {p.get('type')!r}")
            eps_inf = m.get("eps_inf", 1.0) if poles else m.get("eps", 1.0)
            return dict(eps_inf=eps_inf, sigma=m.get("sigma", 0.0), poles=poles), m.get("mu", 1.0)
    sys.exit(f"mie.py: {path}: no material for volume {volume!r}")


def amplitudes(a, b, cos_theta):
    """S1, S2 at the scattering angles with cosines cos_theta (array)."""
    mu = np.atleast_1d(np.asarray(cos_theta, dtype=float))
    S1 = np.zeros(mu.shape, complex)
    S2 = np.zeros(mu.shape, complex)
    pi_prev, pi_n = np.zeros_like(mu), np.ones_like(mu)   # pi_0, pi_1
    for n in range(1, len(a) + 1):
        tau_n = n * mu * pi_n - (n + 1) * pi_prev
        f = (2 * n + 1) / (n * (n + 1))
        S1 += f * (a[n - 1] * pi_n + b[n - 1] * tau_n)
        S2 += f * (a[n - 1] * tau_n + b[n - 1] * pi_n)
        pi_prev, pi_n = pi_n, ((2 * n + 1) * mu * pi_n - (n + 1) * pi_prev) / n
    return S1, S2


def efficiencies(x, a, b):
    """Q_sca, Q_ext (B&H 4.61, 4.62): cross sections over pi a^2."""
    n = np.arange(1, len(a) + 1)
    qsca = 2 / x**2 * np.sum((2 * n + 1) * (abs(a) ** 2 + abs(b) ** 2))
    qext = 2 / x**2 * np.sum((2 * n + 1) * (a + b).real)
    return qsca, qext


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def rcs(radius, freq, dirs, khat=(1, 0, 0), pol=(0, 0, 1), eps=None, mu=1.0, pec=False):
    """sigma for unit direction vectors dirs (N x 3): length unit squared."""
    k = 2 * math.pi * freq
    x = k * radius
    khat, pol = unit(khat), unit(pol)
    if abs(khat @ pol) > 1e-9:
        raise ValueError("polarisation not orthogonal to the direction of incidence")
    third = np.cross(khat, pol)
    d = np.atleast_2d(np.asarray(dirs, dtype=float))
    d = d / np.linalg.norm(d, axis=1)[:, None]
    ct = np.clip(d @ khat, -1, 1)
    a, b = coefficients(x, eps, mu, pec)
    S1, S2 = amplitudes(a, b, ct)
    # azimuth about k^ measured from p^ (undefined on the axis, where |S1| = |S2|)
    cp, sp = d @ pol, d @ third
    rho = np.hypot(cp, sp)
    c2 = np.where(rho > 1e-12, (cp / np.where(rho > 0, rho, 1)) ** 2, 1.0)
    return 4 * math.pi / k**2 * (abs(S2) ** 2 * c2 + abs(S1) ** 2 * (1 - c2))


def plane_dirs(plane, step):
    """The cut directions of dgtd's far_field "planes" (src/dg/ntff.c)."""
    ang = np.arange(0, 360 - 1e-9 * step, step)
    r = np.radians(ang)
    z, s, c = np.zeros_like(r), np.sin(r), np.cos(r)
    v = {"xy": (c, s, z), "xz": (s, z, c), "yz": (z, s, c)}[plane]
    return ang, np.stack(v, axis=1)


def dirs_from_angles(theta_deg, phi_deg):
    t, p = np.radians(theta_deg), np.radians(phi_deg)
    return np.stack([np.sin(t) * np.cos(p), np.sin(t) * np.sin(p), np.cos(t)], axis=1)


def selftest():
    """Known limits; prints each check and returns the number of failures."""
    fails = 0

    def check(name, got, want, rtol):
        nonlocal fails
        ok = abs(got - want) <= rtol * abs(want)
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {got:.6g} vs {want:.6g} (rtol {rtol:g})")

    a0 = 1.0
    # 1. Rayleigh dielectric sphere (eps = 4, ka = 0.01): sigma_back = 4 pi k^4 a^6 |(e-1)/(e+2)|^2,
    #    H-plane constant, E-plane ~ cos^2(theta) (relative corrections O((ka)^2)).
    x = 0.01
    f = x / (2 * math.pi * a0)
    k = 2 * math.pi * f
    ray = 4 * math.pi * k**4 * a0**6 * (3 / 6) ** 2
    _, dxz = plane_dirs("xz", 15)   # E-plane for k = x, p = z
    _, dxy = plane_dirs("xy", 15)   # H-plane
    sE = rcs(a0, f, dxz, eps=4)
    sH = rcs(a0, f, dxy, eps=4)
    check("Rayleigh eps=4 backscatter", rcs(a0, f, [[-1, 0, 0]], eps=4)[0], ray, 1e-3)
    check("Rayleigh eps=4 H-plane max/min", sH.max() / sH.min(), 1.0, 1e-3)
    # E-plane at 45 deg scattering angle: cos^2 = 1/2
    check("Rayleigh eps=4 E-plane 45 deg", rcs(a0, f, [[1, 0, 1]], eps=4)[0], ray / 2, 1e-3)
    # 2. Rayleigh PEC sphere: sigma = pi a^2 (ka)^4 (1 - 2 cos t)^2 in the E-plane and
    #    (2 - cos t)^2 in the H-plane (Bowman, Senior & Uslenghi, Electromagnetic and
    #    Acoustic Scattering by Simple Shapes, ch. 10); backscatter 9 pi a^2 (ka)^4.
    ct = np.array([1.0, 0.5, 0.0, -0.7, -1.0])
    dE = np.stack([ct, 0 * ct, np.sqrt(1 - ct**2)], axis=1)
    dH = np.stack([ct, np.sqrt(1 - ct**2), 0 * ct], axis=1)
    sE = rcs(a0, f, dE, pec=True)
    sH = rcs(a0, f, dH, pec=True)
    base = math.pi * a0**2 * x**4
    check("Rayleigh PEC backscatter / (9 pi a^2 (ka)^4)", sE[-1] / (9 * base), 1.0, 1e-3)
    for i in (0, 1, 3):
        if i != 1:  # the E-plane's null at cos t = 1/2 has no relative tolerance
            check(f"Rayleigh PEC E-plane cos t = {ct[i]}", sE[i], base * (1 - 2 * ct[i]) ** 2,
                  1e-3)
        check(f"Rayleigh PEC H-plane cos t = {ct[i]}", sH[i], base * (2 - ct[i]) ** 2, 1e-3)
    nullE = rcs(a0, f, dE[1:2], pec=True)[0] / base
    fails += not nullE < 1e-5
    print(f"{'ok  ' if nullE < 1e-5 else 'FAIL'} Rayleigh PEC E-plane null at cos t = 1/2: "
          f"{nullE:.3g} (< 1e-5 of pi a^2 (ka)^4)")
    # 3. PEC optical limit: the backscatter tends to pi a^2 (mean over ka in [60, 80], where
    #    the creeping-wave ripple is a few per cent and averages out).
    xs = np.linspace(60, 80, 201)
    back = [rcs(a0, xx / (2 * math.pi), [[-1, 0, 0]], pec=True)[0] for xx in xs]
    check("PEC backscatter / (pi a^2), ka in [60, 80]", np.mean(back) / math.pi, 1.0, 1e-2)
    # 4. The resonance peak of the PEC sphere's backscatter: 3.65 pi a^2 near ka = 1 (Knott,
    #    Shaeffer & Tuley, Radar Cross Section, fig. 5.13; Balanis fig. 11-27).
    xs = np.linspace(0.8, 1.2, 81)
    back = np.array([rcs(a0, xx / (2 * math.pi), [[-1, 0, 0]], pec=True)[0] for xx in xs])
    check("PEC backscatter peak / (pi a^2) near ka = 1", back.max() / math.pi, 3.65, 1e-2)
    # 5. Optical theorem (lossless sphere: extinction = scattering) and the scattering cross
    #    section from integrating the bistatic sigma over all directions: sigma_sca =
    #    (1/4 pi) int sigma dOmega. The second uses S1, S2 at every angle, so it checks the
    #    angular functions, the first only the coefficients.
    for label, kw, xx in (("PEC ka=1", dict(pec=True), 1.0), ("PEC ka=3", dict(pec=True), 3.0),
                          ("eps=4 ka=1", dict(eps=4), 1.0), ("eps=4 ka=3", dict(eps=4), 3.0),
                          ("eps=2 mu=3 ka=2", dict(eps=2, mu=3), 2.0)):
        a, b = coefficients(xx, kw.get("eps"), kw.get("mu", 1.0), kw.get("pec", False))
        qsca, qext = efficiencies(xx, a, b)
        check(f"{label}: Q_ext (optical theorem) = Q_sca", qext, qsca, 1e-10)
        S1, _ = amplitudes(a, b, [1.0])
        check(f"{label}: Q_ext from S(0)", 4 / xx**2 * S1[0].real, qsca, 1e-10)
        ff = xx / (2 * math.pi)
        g, w = np.polynomial.legendre.leggauss(80)
        nphi = 32
        ph = 2 * math.pi * (np.arange(nphi) + 0.5) / nphi
        T, P = np.meshgrid(g, ph, indexing="ij")
        st = np.sqrt(1 - T**2)
        d = np.stack([T.ravel(), (st * np.cos(P)).ravel(), (st * np.sin(P)).ravel()], axis=1)
        # k along x here, p along y: the test frame differs from the default
        s = rcs(a0, ff, d, khat=(1, 0, 0), pol=(0, 1, 0), **kw).reshape(T.shape)
        total = np.sum(w[:, None] * s) * (2 * math.pi / nphi) / (4 * math.pi)
        check(f"{label}: (1/4pi) int sigma dOmega / (pi a^2) = Q_sca", total / math.pi, qsca, 1e-8)
    # 6. eps_r = mu_r (impedance matched to the medium): a_n = b_n, no backscatter (Weston's
    #    theorem), a check on where mu enters the coefficients.
    sb = rcs(a0, 2 / (2 * math.pi), [[-1, 0, 0], [1, 0, 0]], eps=3, mu=3)
    fails += not sb[0] < 1e-12 * sb[1]
    print(f"{'ok  ' if sb[0] < 1e-12 * sb[1] else 'FAIL'} eps = mu = 3: backscatter / forward "
          f"= {sb[0] / sb[1]:.3g} (< 1e-12)")
    # 7. Lossy and metallic spheres (complex eps, dgtd's sign: Im eps < 0 absorbs). Rayleigh
    #    limit (ka = 0.01; B&H 5.8, 5.11): sigma_back = 4 pi k^4 a^6 |(eps-1)/(eps+2)|^2 and
    #    Q_abs = -4 x Im[(eps-1)/(eps+2)] > 0, which catches a sign slip in the convention
    #    (the conjugate medium would have Q_abs < 0, a gain).
    x = 0.01
    f = x / (2 * math.pi * a0)
    k = 2 * math.pi * f
    for e in (3 - 2j, -5 - 1j, -1.2 - 0.3j):
        al = (e - 1) / (e + 2)
        check(f"Rayleigh eps={e} backscatter", rcs(a0, f, [[-1, 0, 0]], eps=e)[0],
              4 * math.pi * k**4 * a0**6 * abs(al) ** 2, 1e-3)
        a, b = coefficients(x, e)
        qsca, qext = efficiencies(x, a, b)
        check(f"Rayleigh eps={e} Q_abs = Q_ext - Q_sca", qext - qsca, -4 * x * al.imag, 1e-3)
    # the lossy sphere's extinction (from S(0) and from the coefficients) and the integral
    # of its bistatic sigma over all directions (Q_sca), at ka = 1, 2
    for e, xx in ((-3 - 1j, 1.0), (2 - 0.5j, 2.0)):
        a, b = coefficients(xx, e)
        qsca, qext = efficiencies(xx, a, b)
        fails += not qext > qsca
        print(f"{'ok  ' if qext > qsca else 'FAIL'} eps={e} ka={xx}: Q_ext {qext:.6g} > "
              f"Q_sca {qsca:.6g} (absorbs)")
        S1, _ = amplitudes(a, b, [1.0])
        check(f"eps={e} ka={xx}: Q_ext from S(0)", 4 / xx**2 * S1[0].real, qext, 1e-10)
        ff = xx / (2 * math.pi)
        g, w = np.polynomial.legendre.leggauss(80)
        nphi = 32
        ph = 2 * math.pi * (np.arange(nphi) + 0.5) / nphi
        T, P = np.meshgrid(g, ph, indexing="ij")
        st = np.sqrt(1 - T**2)
        d = np.stack([T.ravel(), (st * np.cos(P)).ravel(), (st * np.sin(P)).ravel()], axis=1)
        s = rcs(a0, ff, d, khat=(1, 0, 0), pol=(0, 1, 0), eps=e).reshape(T.shape)
        total = np.sum(w[:, None] * s) * (2 * math.pi / nphi) / (4 * math.pi)
        check(f"eps={e} ka={xx}: (1/4pi) int sigma dOmega / (pi a^2) = Q_sca", total / math.pi,
              qsca, 1e-8)
    # a real eps given as complex (imaginary part 0) is the lossless sphere
    check("eps=4+0i same as eps=4", rcs(a0, 0.3, [[-1, 0, 0]], eps=4 + 0j)[0],
          rcs(a0, 0.3, [[-1, 0, 0]], eps=4.0)[0], 1e-12)
    # 8. The pole list: limits of each pole type's eps(w) (docs/CASE_FILE.md): Debye
    #    eps_inf + delta_eps at w -> 0, eps_inf at w -> infinity, eps_inf + delta_eps/2
    #    - i delta_eps/2 at w tau = 1; Drude 1 - (w_p/w)^2 without collisions; Lorentz
    #    eps_inf + delta_eps at w -> 0, eps_inf - i delta_eps w0 / (2 delta) at resonance;
    #    sigma alone: eps - i sigma / w.
    deb = [dict(type="debye", delta_eps=3.0, tau=0.2)]
    check("debye eps(w -> 0)", eps_of_omega(1e-9, 2.0, 0, deb).real, 5.0, 1e-12)
    check("debye eps(w -> inf)", eps_of_omega(1e9, 2.0, 0, deb).real, 2.0, 1e-6)
    ed = eps_of_omega(1 / 0.2, 2.0, 0, deb)
    check("debye Re eps(w tau = 1)", ed.real, 3.5, 1e-12)
    check("debye Im eps(w tau = 1)", ed.imag, -1.5, 1e-12)
    check("drude gamma=0 eps(w)", eps_of_omega(2.0, 1.0, 0, [dict(type="drude", omega_p=4.0,
          gamma=0.0)]).real, 1 - 4.0, 1e-12)
    lor = [dict(type="lorentz", delta_eps=2.0, omega_0=5.0, delta=0.5)]
    check("lorentz eps(w -> 0)", eps_of_omega(1e-9, 1.5, 0, lor).real, 3.5, 1e-12)
    check("lorentz Im eps(w0)", eps_of_omega(5.0, 1.5, 0, lor).imag, -2.0 * 5.0 / (2 * 0.5), 1e-12)
    check("sigma Im eps", eps_of_omega(2.0, 4.0, 0.6).imag, -0.3, 1e-12)
    # 9. Symmetry: for k = x, p = z the E-plane is xz, the H-plane xy, and
    #    +/- y and +/- z mirror images give equal sigma.
    s = rcs(a0, 0.5, [[0.3, 0.4, 0.5], [0.3, -0.4, 0.5], [0.3, 0.4, -0.5]], eps=4)
    check("mirror symmetry y", s[1], s[0], 1e-12)
    check("mirror symmetry z", s[2], s[0], 1e-12)
    print(f"{fails} failed")
    return fails


def parse_eps(s):
    """RE or RE,IM (dgtd's sign: Im <= 0 for a lossy medium)."""
    v = [float(t) for t in s.split(",")]
    if len(v) not in (1, 2):
        raise argparse.ArgumentTypeError(f"expected RE or RE,IM, got {s}")
    return v[0] if len(v) == 1 else complex(v[0], v[1])


def material_fn(args):
    """A function freq -> keyword arguments of rcs() (eps evaluated at that frequency)."""
    given = [n for n, v in (("--pec", args.pec), ("--eps", args.eps is not None),
                            ("--pole/--eps-inf/--sigma", args.pole or args.eps_inf is not None
                             or args.sigma is not None), ("--case", args.case is not None)) if v]
    if len(given) != 1:
        sys.exit("mie.py: give one of --pec, --eps, --pole (with --eps-inf, --sigma) or --case"
                 + (f" (got {', '.join(given)})" if given else ""))
    if args.case is not None and not args.volume:
        sys.exit("mie.py: --case needs --volume NAME (the sphere's material)")
    if args.pec:
        return lambda f: dict(pec=True)
    if args.eps is not None:
        model, mu = None, args.mu
    elif args.case is not None:
        model, mu = material_from_case(args.case, args.volume)
    else:
        model = dict(eps_inf=1.0 if args.eps_inf is None else args.eps_inf,
                     sigma=args.sigma or 0.0, poles=args.pole or [])
        mu = args.mu

    def kw(f):
        e = args.eps if model is None else eps_of_omega(2 * math.pi * f, **model)
        if isinstance(e, complex) and e.imag > 0:
            sys.exit(f"mie.py: eps = {e} at f = {f:g} has Im > 0: a medium with gain in dgtd's "
                     "convention (e^{+iwt}, lossy Im eps < 0); flip the sign of IM")
        return dict(eps=e, mu=mu)
    return kw


def fmt_eps(kw):
    e = kw.get("eps")
    if e is None:
        return "PEC"
    e = complex(e)
    return f"eps = {e.real:.6g} {'-' if e.imag < 0 else '+'} {abs(e.imag):.6g}i"


def parse_vec(s):
    v = [float(t) for t in s.split(",")]
    if len(v) != 3:
        raise argparse.ArgumentTypeError(f"expected x,y,z, got {s}")
    return v


def db(v):
    return 10 * math.log10(max(v, 1e-300))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("selftest")
    for name in ("rcs", "compare", "eps"):
        q = sub.add_parser(name)
        if name == "compare":
            q.add_argument("csv")
            q.add_argument("--tol-db", type=float, default=None)
            q.add_argument("--floor-db", type=float, default=20.0)
            q.add_argument("--out", help="also write freq,plane,cut_deg,dgtd,mie (for plots)")
        elif name == "rcs":
            q.add_argument("--freq", type=float, required=True)
            q.add_argument("--plane", default="xz", choices=["xy", "xz", "yz"])
            q.add_argument("--step", type=float, default=5.0)
        else:
            q.add_argument("--freq", required=True, help="F[,F...]")
        if name != "eps":
            q.add_argument("--radius", type=float, required=True)
        q.add_argument("--pec", action="store_true")
        q.add_argument("--eps", type=parse_eps, help="RE or RE,IM (lossy: IM < 0)")
        q.add_argument("--eps-inf", type=float)
        q.add_argument("--sigma", type=float)
        q.add_argument("--pole", type=parse_pole, action="append",
                       help="debye:delta_eps,tau | drude:omega_p,gamma | "
                            "lorentz:delta_eps,omega_0,delta (repeatable)")
        q.add_argument("--case", help="a dgtd case file: the material of --volume")
        q.add_argument("--volume", help="with --case: the sphere's volume name")
        q.add_argument("--mu", type=float, default=1.0)
        q.add_argument("--k", type=parse_vec, default=[1, 0, 0])
        q.add_argument("--pol", type=parse_vec, default=[0, 0, 1])
    args = p.parse_args(argv)
    if args.cmd == "selftest":
        return 1 if selftest() else 0
    kwf = material_fn(args)
    if args.cmd == "eps":
        print("freq,omega,eps_re,eps_im")
        for f in (float(t) for t in args.freq.split(",")):
            e = complex(kwf(f).get("eps", complex("nan")))
            print(f"{f:.17g},{2 * math.pi * f:.17g},{e.real:.17g},{e.imag:.17g}")
        return 0
    if args.cmd == "rcs":
        ang, d = plane_dirs(args.plane, args.step)
        s = rcs(args.radius, args.freq, d, args.k, args.pol, **kwf(args.freq))
        t = np.degrees(np.arccos(np.clip(d[:, 2], -1, 1)))
        ph = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 360
        print("plane,cut_deg,theta_deg,phi_deg,rcs,rcs_dbsm")
        for i in range(len(ang)):
            print(f"{args.plane},{ang[i]:g},{t[i]:.6g},{ph[i]:.6g},{s[i]:.9e},{db(s[i]):.4f}")
        return 0
    # compare: dgtd's far_field.csv against the series
    import csv
    with open(args.csv) as fh:
        rows = list(csv.DictReader(fh))
    if not rows or "rcs" not in rows[0]:
        sys.exit(f"mie.py: {args.csv}: no rcs column (was the case run with far_field.rcs?)")
    worst = 0.0
    out = open(args.out, "w") if args.out else None
    if out:
        out.write("freq,plane,cut_deg,dgtd,mie,dgtd_dbsm,mie_dbsm\n")
    for freq in sorted({float(r["freq"]) for r in rows}):
        for plane in dict.fromkeys(r["plane"] for r in rows):
            sel = [r for r in rows if float(r["freq"]) == freq and r["plane"] == plane]
            if not sel:
                continue
            d = dirs_from_angles(np.array([float(r["theta_deg"]) for r in sel]),
                                 np.array([float(r["phi_deg"]) for r in sel]))
            kw = kwf(freq)
            mie = rcs(args.radius, freq, d, args.k, args.pol, **kw)
            peak = mie.max()
            k = 2 * math.pi * freq
            print(f"# f = {freq:g}, ka = {k * args.radius:.4f}, plane {plane}: sigma in length^2; "
                  f"error dB = 10 log10(dgtd / Mie); {fmt_eps(kw)}")
            print(f"{'angle':>7} {'dgtd':>12} {'Mie':>12} {'dgtd dBsm':>10} {'Mie dBsm':>10} "
                  f"{'error dB':>9}")
            errs = []
            for r, m in zip(sel, mie):
                s = float(r["rcs"])
                e = db(s) - db(m)
                counted = db(m) >= db(peak) - args.floor_db
                if counted:
                    errs.append(e)
                if out:
                    out.write(f"{freq:.17g},{plane},{r['cut_deg']},{s:.10e},{m:.10e},"
                              f"{db(s):.6f},{db(m):.6f}\n")
                print(f"{float(r['cut_deg']):7.1f} {s:12.5e} {m:12.5e} {db(s):10.3f} {db(m):10.3f} "
                      f"{e:9.3f}{'' if counted else '  (below floor)'}")
            if errs:
                ea = np.abs(errs)
                print(f"# max |error| {ea.max():.3f} dB, rms {math.sqrt(np.mean(ea**2)):.3f} dB "
                      f"over {len(errs)} directions within {args.floor_db:g} dB of the peak")
                worst = max(worst, ea.max())
    if out:
        out.close()
    if args.tol_db is not None and worst > args.tol_db:
        print(f"FAIL: max |error| {worst:.3f} dB > {args.tol_db:g} dB")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
