// dgtd's timing driver for libparanumal's maxwell solver (not part of dgtd's build).
// bench/libparanumal/build.sh puts it in place of maxwellMain.cpp in a scratch copy of
// libparanumal. It sets the solver up from a .rc file exactly as maxwellMain does, then
// times LSERK4 stepping only (no set-up, no kernel JIT): two warm-up runs of 3 steps (the
// first absorbs what a first launch costs: PoCL, for one, compiles kernels then), then runs
// of S and 2S steps, S chosen from the second warm-up so that the first takes about SECONDS, and
// reports the rate from their difference, so the one-off work of each run (its initial
// Report, the memory pool) cancels. Counted as dgtd counts: DOFs (6 fields x Np x K) x RHS
// evaluations (5 per LSERK4 step) per second. The state is read back to the host before and
// after the timed runs: a rate is reported as valid only if its root-mean-square is finite
// and nonzero at both ends (the solver's own norm goes through device reductions).
//   usage: libp_bench SETUP.rc [SECONDS]      (default 1)
#include "maxwell.hpp"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

// root mean square of the state, summed on the host from a plain device-to-host copy
static double state_rms(maxwell_t &m, platform_t &platform) {
  platform.finish();
  m.o_q.copyTo(m.q);
  const size_t n = (size_t)m.mesh.Nelements * m.mesh.Np * m.Nfields;
  double s = 0;
  for (size_t i = 0; i < n; ++i) s += (double)m.q[i] * (double)m.q[i];
  return std::sqrt(s / (double)n);
}

static double steps_seconds(maxwell_t &m, platform_t &platform, dfloat dt, int steps) {
  // end = (steps - 1/2) dt: exactly `steps` steps however the time sum rounds (the last
  // one shortened by half; every step costs the same)
  const dfloat end = (dfloat)((steps - 0.5) * dt);
  platform.finish();
  const auto t0 = std::chrono::steady_clock::now();
  m.timeStepper.Run(m, m.o_q, 0, end);
  platform.finish();
  const auto t1 = std::chrono::steady_clock::now();
  return std::chrono::duration<double>(t1 - t0).count();
}

int main(int argc, char **argv) {
  Comm::Init(argc, argv);
  LIBP_ABORT("usage: libp_bench SETUP.rc [SECONDS]", argc != 2 && argc != 3);
  const double seconds = argc == 3 ? std::atof(argv[2]) : 1.0;
  LIBP_ABORT("SECONDS must be positive", !(seconds > 0));
  {
    comm_t comm(Comm::World().Dup());
    platformSettings_t platformSettings(comm);
    meshSettings_t meshSettings(comm);
    maxwellSettings_t maxwellSettings(comm);
    maxwellSettings.parseFromFile(platformSettings, meshSettings, argv[1]);
    platform_t platform(platformSettings);
    mesh_t mesh(platform, meshSettings, comm);
    maxwell_t maxwell(platform, mesh, maxwellSettings);

    maxwell.initialConditionKernel(mesh.Nelements, (dfloat)0, mesh.o_x, mesh.o_y, mesh.o_z,
                                   maxwell.o_q);
    // the time step maxwell_t::Run takes (CFL 1)
    const dfloat dt = mesh.MinCharacteristicLength() /
                      (maxwell.MaxWaveSpeed() * (mesh.N + 1.) * (mesh.N + 1.));
    maxwell.timeStepper.SetTimeStep(dt);
    const double rms0 = state_rms(maxwell, platform);

    steps_seconds(maxwell, platform, dt, 3);
    const double warm = steps_seconds(maxwell, platform, dt, 3);
    const int steps = std::max(3, (int)std::lround(seconds / (warm / 3)));
    const double t1 = steps_seconds(maxwell, platform, dt, steps);
    const double t2 = steps_seconds(maxwell, platform, dt, 2 * steps);
    const double rms1 = state_rms(maxwell, platform);
    const bool valid = std::isfinite(rms0) && std::isfinite(rms1) && rms0 > 0 && rms1 > 0;
    const double dofs = 6.0 * mesh.Np * (double)mesh.Nelements;
    const double step_s = (t2 - t1) / steps;
    if (mesh.rank == 0)
      std::printf("libp_bench: N=%d K=%lld Np=%d dofs=%.6g precision=%s steps=%d+%d "
                  "warmup_s=%.6f run1_s=%.6f run2_s=%.6f step_ms=%.6f dof_rhs_per_s=%.6g "
                  "rms_start=%.6g rms_end=%.6g valid=%d\n",
                  mesh.N, (long long)mesh.Nelements, mesh.Np, dofs, dfloatString, steps,
                  2 * steps, warm, t1, t2, 1e3 * step_s, dofs * 5.0 / step_s, rms0, rms1, (int)valid);
  }
  Comm::Finalize();
  return 0;
}
