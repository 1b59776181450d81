#!/usr/bin/python3
"""Mutation check of the test suite: plant known bugs one at a time in a scratch copy of the
tree, build, run the tests that should catch each, and report which tests do. Every planted
bug must be caught by at least one test; the exit status is 1 if one is not (or if a bug no
longer applies: its code was changed, so the list below must follow).

Each bug is found by content (a unique piece of text in one file, never a line number) and
replaced; the working tree is never touched: the scratch copy is the tracked and untracked
(not ignored) files, with the existing objects (build/src, build/libdgtd.a, bin/) copied
beside them so that only the mutated file recompiles.

Usage:
  scripts/mutate.py                 every bug, each with its tests (about 6 min on 2 cores)
  scripts/mutate.py --list          the bugs and their tests
  scripts/mutate.py --only a,b      those bugs only
  scripts/mutate.py --all-tests     each bug against the whole suite (hours)
  scripts/mutate.py --keep          keep the scratch copy (its path is printed)
Options: --jobs N (make -jN, default 2), --no-baseline (skip checking that the tests pass
unmutated), --timeout S (per test binary, default 600), --logs DIR (each bug's test output
in DIR/NAME.log). Each caught test is shown with its first failure message, so a test that
fails for another reason than the bug (a crash, a timeout) can be seen.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# name, the claim it breaks, file, the text to find (exactly once), its replacement, the
# tests that should catch it.
MUTATIONS = [
    dict(name="skip-verification",
         claim="a run stops when its kernel variant fails verification (README, RUNNING.md)",
         file="src/solver/backend_opencl.c",
         find="dg_status st = dg_cl_verify_op_at(op, p->phys, p->t_verify, 20261121, "
              "&r->verify_rel_diff, &pass);",
         replace="dg_status st = DG_OK; /* MUTATION: no verification */ (void)pass;",
         tests=["test_cli_run_variant_failing_verification_stops",
                "test_cl_cavity_converges_and_matches_reference"]),
    dict(name="ignore-checkpoint",
         claim="a restart continues from the checkpoint (RUNNING.md, Checkpoints and restarts)",
         file="src/app/outputs.c",
         find="""  for (size_t i = 0; i < s->n; ++i) s->q[i] = single ? ((float *)q)[i] : ((double *)q)[i];
  if (want.aux) {
    dg_free(&s->aux_restart);
    DG_CALL_GOTO(done, DG_ALLOC(s->aux_restart, want.aux));
    for (size_t i = 0; i < want.aux; ++i)
      s->aux_restart[i] = single ? ((float *)aux)[i] : ((double *)aux)[i];
  }
  s->first_step = (int)got.step;
  s->t = got.time;
""",
         replace="  /* MUTATION: the checkpoint is checked but not loaded */\n",
         tests=["test_run_restart_reproduces_uninterrupted_run",
                "test_run_keeps_outputs_on_failure", "test_mpi_ranks_match_single_rank"]),
    dict(name="scale-pml-sigma",
         claim="the PML's measured reflection (OPEN_REGIONS.md)",
         file="src/dg/pml.c",
         find="sig[d] = smax * um;",
         replace="sig[d] = 5 * smax * um; /* MUTATION: sigma 5x too large */",
         tests=["test_pml_reflection_falls_and_beats_silver_mueller"]),
    dict(name="flip-flux-sign",
         claim="the upwind flux (METHOD.md): the reference operator's penalty term",
         file="src/dg/maxwell.c",
         find="a[c] = ZP * dH[c] - p->alpha * ndE[c];",
         replace="a[c] = ZP * dH[c] + p->alpha * ndE[c]; /* MUTATION: flux sign */",
         tests=["test_dg_cavity_converges_at_order_n_plus_1",
                "test_dg_energy_central_conserves_upwind_dissipates",
                "test_cl_variants_match_reference"]),
    dict(name="curved-flux-sign",
         claim="curved elements (METHOD.md): their face integrals carry the same upwind flux",
         file="src/dg/maxwell_curved.c",
         find="a[x] = ZP * dH[x] - p->alpha * ndE[x];",
         replace="a[x] = ZP * dH[x] + p->alpha * ndE[x]; /* MUTATION: curved flux sign */",
         tests=["test_dg_curved_elements_geometry_and_operator",
                "test_dg_curved_cylinder_cavity_converges"]),
    dict(name="curved-mass-as-affine",
         claim="curved elements have their own mass matrix (METHOD.md): J at each cubature "
               "point, not one J per element",
         file="src/dg/geom_curved.c",
         find="const double *l = q->Lm + (size_t)p * Np, wJ = q->mw[p] * J;",
         replace="const double *l = q->Lm + (size_t)p * Np, wJ = q->mw[p] * cv->J[(size_t)c * Np]; "
                 "/* MUTATION: J of node 0 */",
         tests=["test_dg_curved_elements_geometry_and_operator",
                "test_dg_curved_cylinder_cavity_converges"]),
    dict(name="curved-cl-flux-sign",
         claim="curved elements on OpenCL (KERNELS.md): curved.cl's face integrals carry the "
               "reference's upwind flux",
         file="cl_templates/curved.cl",
         find="const real_t ax = F[FD_CEH] * dH[0] - F[FD_CEE] * ndEx,",
         replace="const real_t ax = F[FD_CEH] * dH[0] + F[FD_CEE] * ndEx, /* MUTATION */",
         tests=["test_cl_curved_variants_match_reference",
                "test_run_curved_mesh_on_both_backends"]),
    dict(name="curved-cl-q-not-fixed",
         claim="curved elements on OpenCL: curvfix puts their update into q (a right-hand "
               "side alone, what verification checks, does not show it)",
         file="cl_templates/curved.cl",
         find="q_out[f * fs + o] = csave[(CS_Q + f) * ncn + j] + rk_b * rc;",
         replace="q_out[f * fs + o] += (real_t)0 * rc; /* MUTATION: q keeps the stand-in */",
         tests=["test_cl_curved_variants_match_reference",
                "test_run_curved_mesh_on_both_backends"]),
    dict(name="gmsh-face-order",
         claim="Gmsh's node order of the tetrahedra of order 3 and 4 (MESHING.md): faces "
               "(0,2,1) (0,1,3) (0,3,2) (3,1,2), each face's nodes as a sub-triangle",
         file="src/mesh/ho_nodes.c",
         find="static const int gmsh_tet_face[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}};",
         replace="static const int gmsh_tet_face[4][3] = {{0, 1, 2}, {0, 1, 3}, {0, 3, 2}, {3, 1, 2}}; "
                 "/* MUTATION */",
         tests=["test_mesh_high_order_gmsh_node_order"]),
    dict(name="curved-rules-as-order-2",
         claim="curved elements of geometric order k take rules of degree 2N + 2k - 3, "
               "2N + 2k - 2 and 2N + 3k - 3 (METHOD.md)",
         file="src/dg/geom_curved.c",
         find="  dg_geom_curved_degrees(N, cv->order, &dv, &df, &dm);",
         replace="  dg_geom_curved_degrees(N, 2, &dv, &df, &dm); /* MUTATION */",
         tests=["test_dg_curved_orders_3_and_4_exact_and_conservative"]),
    dict(name="gmsh-inner-nodes-kept",
         claim="the nodes inside faces and elements of meshes of order 3 and 4 are re-placed "
               "(MESHING.md, dg_mesh_smooth_ho_nodes)",
         file="src/mesh/ho_smooth.c",
         find="  if (order < 3 || !m->ho_xyz) return DG_OK; /* order 2 has no nodes inside faces */",
         replace="  if (1) return DG_OK; /* MUTATION */",
         tests=["test_mesh_high_order_gmsh_node_order"]),
    dict(name="drop-face",
         claim="every face's flux is lifted (one face of every element dropped, alike on the "
               "host and the device, so verification cannot see it)",
         file="src/dg/geom.c",
         find="g->Fscale[id] = len;",
         replace="g->Fscale[id] = f == 3 ? 0 : len; /* MUTATION: face 3 dropped */",
         tests=["test_dg_cavity_converges_at_order_n_plus_1",
                "test_dg_energy_central_conserves_upwind_dissipates",
                "test_cl_cavity_converges_and_matches_reference"]),
    dict(name="ignore-journal-timed",
         claim="a resumed tune does not time again what its journal says was timed (TUNING.md)",
         file="src/tune/journal.c",
         find='} else if (!strcmp(e, "timed")) {',
         replace='} else if (0 && !strcmp(e, "timed")) { /* MUTATION: timed entries ignored */',
         tests=["test_tune_journal_resumes_killed_tune"]),
    dict(name="ignore-probe-every",
         claim="output.probe_every (CASE_FILE.md)",
         file="src/app/outputs.c",
         find="const int probe_due = want_files && s->probes && step % c->probe_every == 0;",
         replace="const int probe_due = want_files && s->probes; /* MUTATION */",
         tests=["test_cli_run_output_options_do_what_they_say"]),
    dict(name="ignore-checkpoint-seconds",
         claim="--checkpoint-every Ns: by wall time (RUNNING.md)",
         file="src/app/outputs.c",
         find="dg_now_s() - s->last_checkpoint >= c->checkpoint_seconds));",
         replace="0 * dg_now_s() - s->last_checkpoint >= 1e300)); /* MUTATION */",
         tests=["test_cli_run_output_options_do_what_they_say"]),
    dict(name="logs-only-at-the-end",
         claim="probes.csv and energy.csv reach the disk every few seconds (RUNNING.md)",
         file="src/app/outputs.c",
         find="if (dg_now_s() - s->last_commit >= period) DG_CALL(run_commit_logs(s));",
         replace="(void)period; /* MUTATION: no periodic commit */",
         tests=["test_run_keeps_outputs_on_failure"]),
    dict(name="no-periodic-progress",
         claim="a progress line now and then when stderr is no terminal (RUNNING.md)",
         file="src/app/outputs.c",
         find="dg_now_s() - s->last_print < (tty ? 0.25 : 10.0)) return DG_OK;",
         replace="dg_now_s() - s->last_print < (tty ? 0.25 : 1e9)) return DG_OK; /* MUTATION */",
         tests=["test_cli_run_progress_counts_finished_steps"]),
    dict(name="quiet-ignored",
         claim="--quiet: no progress output (RUNNING.md)",
         file="src/app/outputs.c",
         find="if (c->quiet || s->rank != 0) return DG_OK;",
         replace="(void)c; if (s->rank != 0) return DG_OK; /* MUTATION: --quiet ignored */",
         tests=["test_cli_run_output_options_do_what_they_say"]),
    dict(name="no-device-memory-check",
         claim="a run that needs more device memory than there is is refused (RUNNING.md)",
         file="src/solver/backend_opencl.c",
         find="DG_CHECK(need_dev <= (double)cl->dev->info.global_mem_size, DG_ERR_INPUT,",
         replace="DG_CHECK(1 || need_dev <= (double)cl->dev->info.global_mem_size, DG_ERR_INPUT,",
         tests=["test_cli_run_exit_status_names_the_cause"]),
    dict(name="rcs-3db-low",
         claim="the bistatic RCS against the Mie series (RCS_VALIDATION.md)",
         file="src/dg/ntff.c",
         find="return 4 * PI * dg_ntff_abs2(F) / E_inc2;",
         replace="return 2 * PI * dg_ntff_abs2(F) / E_inc2; /* MUTATION: RCS halved */",
         tests=["test_ntff_sphere_rcs_matches_mie",
                "test_ntff_far_field_csv_columns_and_values"]),
    dict(name="vtu-time-zero-dropped",
         claim="output.vtu_times: a snapshot at each time, t = 0 included (CASE_FILE.md)",
         file="src/app/outputs.c",
         find="if (c->vtu_every || at_start) DG_CALL(write_vtu(s, 0, 0));",
         replace="(void)at_start; if (c->vtu_every) DG_CALL(write_vtu(s, 0, 0)); /* MUTATION */",
         tests=["test_cli_run_output_options_do_what_they_say"]),
    dict(name="lorentz-damping-halved",
         claim="a Lorentz pole's damping delta (CASE_FILE.md, Poles; METHOD.md, Dispersive media)",
         file="src/dg/dispersive.c",
         find="rhs_w[s1 + n] = w2 * (pl->delta_eps * E[n] - P) - 2 * pl->delta * J;",
         replace="rhs_w[s1 + n] = w2 * (pl->delta_eps * E[n] - P) - pl->delta * J; /* MUTATION */",
         tests=["test_dispersive_slab_matches_fresnel", "test_dispersive_energy_never_grows"]),
    dict(name="poles-ignored-in-time-step",
         claim="the time step accounts for the poles (TIME_STEPPING.md, The global step)",
         file="src/dg/maxwell.c",
         find="return fmin(cfl * dt, dg_dispersion_dt(p, cfl, NULL));",
         replace="return cfl * dt; /* MUTATION: the poles' rates ignored */",
         tests=["test_dispersive_energy_never_grows"]),
    dict(name="opencl-exit-code",
         claim="exit status 5 for an OpenCL failure (RUNNING.md)",
         file="src/core/status.c",
         find="case DG_ERR_OPENCL: return 5;",
         replace="case DG_ERR_OPENCL: return 1; /* MUTATION */",
         tests=["test_cli_run_exit_status_names_the_cause"]),
]

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def say(*a):
    print(*a, flush=True)


def scratch_copy(dest):
    """The working tree's tracked and untracked (not ignored) files, and the built objects."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True, capture_output=True).stdout.split(b"\0")
    n = 0
    for f in files:
        if not f:
            continue
        rel = f.decode()
        src = os.path.join(ROOT, rel)
        if not os.path.isfile(src):  # deleted but still tracked
            continue
        dst = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)  # mtimes kept: make rebuilds only what changes
        n += 1
    for rel in ["build/src", "build/libdgtd.a", "build/.deps-ok", "build/intel", "bin"]:
        src = os.path.join(ROOT, rel)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(dest, rel), symlinks=True)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))
    return n


def binary(tree, test):
    """The test binary of a test named by its file (tests/DIR/NAME.c -> build/tests/DIR/NAME)."""
    hits = [d for d in sorted(os.listdir(os.path.join(tree, "tests")))
            if os.path.isfile(os.path.join(tree, "tests", d, test + ".c"))]
    if len(hits) != 1:
        sys.exit("mutate: test %s: %d files tests/*/%s.c (want 1)" % (test, len(hits), test))
    return "build/tests/%s/%s" % (hits[0], test)


def build(tree, tests, jobs):
    targets = ["bin/dgtd"] + [binary(tree, t) for t in tests]
    p = subprocess.run(["make", "-j%d" % jobs, "--no-print-directory"] + targets, cwd=tree,
                       capture_output=True, text=True)
    return p.returncode == 0, p.stdout + p.stderr


def run_tests(tree, tests, timeout):
    """{test: (passed, why)} from tests/run_tests.sh (why: the first failure message of a
    failing binary), and the runner's output."""
    env = dict(os.environ, BUILD="build", BIN="bin", DGTD_TEST_TIMEOUT=str(timeout))
    env.pop("DGTD_TEST_NO_SKIP", None)
    p = subprocess.run(["tests/run_tests.sh"] + [binary(tree, t) for t in tests], cwd=tree,
                       env=env, capture_output=True, text=True)
    res, why, other, prev = {}, "", "", ""
    for line in p.stdout.splitlines():
        m = re.match(r"(PASS|FAIL) (\S+) (\(.*\))", line)
        if m:
            res[m.group(2)] = (m.group(1) == "PASS", (why or other or m.group(3))[:240])
            why = other = ""
        elif not why and "ERROR: " in line:  # fail_msg (stdout and stderr may interleave)
            why = line.split("ERROR: ", 1)[1].strip()
        elif not why and "error: Failure!" in line:  # an assert_*: its expression before
            why = "%s (%s)" % (prev.lstrip("# ").strip(), line.split(": error:")[0].lstrip("# "))
        elif not other and "error: " in line:
            other = line.strip()
        prev = line
    for t in tests:
        res.setdefault(t, (False, "(no result: the runner did not report it)"))
    return res, p.stdout


def all_tests(tree):
    top = os.path.join(tree, "tests")
    return sorted(f[:-2] for d in os.listdir(top) if os.path.isdir(os.path.join(top, d))
                  for f in os.listdir(os.path.join(top, d))
                  if f.startswith("test_") and f.endswith(".c"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only")
    ap.add_argument("--all-tests", action="store_true")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--logs", help="write each bug's test output to LOGS/NAME.log")
    a = ap.parse_args()
    muts = MUTATIONS
    if a.only:
        names = a.only.split(",")
        unknown = [n for n in names if n not in [m["name"] for m in MUTATIONS]]
        if unknown:
            sys.exit("mutate: unknown bug(s) %s (--list shows them)" % ", ".join(unknown))
        muts = [m for m in MUTATIONS if m["name"] in names]
    if a.list:
        for m in muts:
            say("%-26s %s\n%26s %s\n%26s tests: %s" % (m["name"], m["file"], "", m["claim"], "",
                                                     ", ".join(m["tests"])))
        return 0
    tree = tempfile.mkdtemp(prefix="dgtd-mutate-")
    t0 = time.time()
    try:
        n = scratch_copy(tree)
        say("mutate: scratch copy %s (%d files)" % (tree, n))
        every = all_tests(tree) if a.all_tests else None
        # Every bug's text must be there exactly once before anything runs.
        for m in muts:
            text = open(os.path.join(tree, m["file"])).read()
            if text.count(m["find"]) != 1:
                say("mutate: %s: the text to mutate occurs %d times in %s (want 1): the code "
                    "changed; update scripts/mutate.py" % (m["name"], text.count(m["find"]),
                                                           m["file"]))
                return 1
        wanted = sorted(set(t for m in muts for t in (every or m["tests"])))
        if not a.no_baseline:
            ok, log = build(tree, wanted, a.jobs)
            if not ok:
                say(log)
                say("mutate: the unmutated tree does not build")
                return 1
            res, out = run_tests(tree, wanted, a.timeout)
            bad = [t for t in wanted if not res[t][0]]
            if bad:
                say(out)
                say("mutate: these tests fail without any bug planted: %s" % ", ".join(bad))
                return 1
            say("mutate: baseline: %d test binaries pass unmutated (%.0f s)" %
                (len(wanted), time.time() - t0))
        rows = []
        for m in muts:
            path = os.path.join(tree, m["file"])
            orig = open(path).read()
            open(path, "w").write(orig.replace(m["find"], m["replace"]))
            tests = every or m["tests"]
            t1 = time.time()
            try:
                ok, log = build(tree, tests, a.jobs)
                if not ok:
                    say(log[-3000:])
                    say("mutate: %s does not build: fix its replacement" % m["name"])
                    return 1
                res, out = run_tests(tree, tests, a.timeout)
            finally:
                open(path, "w").write(orig)
            if a.logs:
                os.makedirs(a.logs, exist_ok=True)
                open(os.path.join(a.logs, m["name"] + ".log"), "w").write(out)
            caught = [t for t in tests if not res[t][0]]
            missed = [t for t in tests if res[t][0]]
            rows.append((m, caught, missed))
            say("mutate: %-26s caught by %d of %d (%s) [%.0f s]" %
                (m["name"], len(caught), len(tests), ", ".join(caught) or "NONE",
                 time.time() - t1))
            for t in caught:
                say("         %-26s %s: %s" % ("", t, res[t][1]))
            for t in missed:
                say("         %-26s not caught by %s" % ("", t))
        say("")
        say("| bug | planted in | caught by | not caught by |")
        say("|---|---|---|---|")
        for m, caught, missed in rows:
            say("| %s | `%s` | %s | %s |" % (m["name"], m["file"],
                                            ", ".join(caught) or "**NONE**",
                                            ", ".join(missed) or "-"))
        uncaught = [m["name"] for m, c, _ in rows if not c]
        say("")
        say("mutate: %d bugs planted, %d caught, %d not caught%s (%.0f s)" %
            (len(rows), len(rows) - len(uncaught), len(uncaught),
             ": " + ", ".join(uncaught) if uncaught else "", time.time() - t0))
        return 1 if uncaught else 0
    finally:
        if a.keep:
            say("mutate: scratch copy kept in %s" % tree)
        else:
            shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
