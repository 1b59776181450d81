/* The kernel table (src/backend/cl_kernels.h) says, for every kernel dgtd builds, its
 * arguments in the order of its template's signature, with their names and how each is
 * passed (a buffer, an int, a real, a vector), and the host sets arguments by the enums made
 * from it. Here every kernel of the table is built with -cl-kernel-arg-info, in float and
 * double: the operator's in programs with every term (point sources, PML, dispersive poles,
 * curved elements, an incident wave) for variants that together make every kernel (each lift
 * mode, each fused kernel with vector lanes and with a work-item per node, the CLBlast path,
 * both energy layouts), and the multirate, halo and DFT programs; for each kernel OpenCL's
 * argument count, names and types must be the table's, every kernel a program holds must be
 * a row of that program, and every row must be met. */
#include "test_device.h"

#include <string.h>

#include "backend/cl_dft.h"
#include "backend/cl_kernels.h"
#include "backend/cl_maxwell.h"
#include "backend/cl_multirate.h"
#include "core/alloc.h"

static const char *const specs[] = {
    "",                                              /* lift=separate, flux, update, energy */
    "lift=fused,kb=2,vplace=matrix",                 /* fluxlift */
    "work=vec,vw=8,lift=fused-update,flux=face",     /* liftupdate, energy_block */
    "work=vec,vw=4,fuse=rhs",                        /* rhs (element.cl) */
    "work=vec,vw=4,fuse=res",                        /* rhsres, qupdate */
    "work=node,kb=2,fuse=step",                      /* rhsstep (element_node.cl), qcopy */
    "path=clblast",                                  /* curl */
};

/* Whether OpenCL's type name of an argument is the table's kind of argument (an
 * implementation may name a typedef, real_t, or what it stands for). */
static int type_matches(dg_clk_type t, const char *name, int dbl) {
  const char *real = dbl ? "double" : "float";
  char real16[16];
  snprintf(real16, sizeof real16, "%s16", real);
  switch (t) {
  case DG_CLK_MEM: return strchr(name, '*') != NULL;
  case DG_CLK_INT: return !strcmp(name, "int");
  case DG_CLK_REAL: return !strcmp(name, real) || !strcmp(name, "real_t");
  case DG_CLK_REAL16: return !strcmp(name, real16) || !strcmp(name, "real16_t");
  case DG_CLK_VEC: return !strcmp(name, "phase_t") || !strncmp(name, real, strlen(real));
  }
  return 0;
}

/* The row of kernel `full` of a program prog (the operator's for v: <name>_<suffix>). */
static int row_of(const char *full, dg_clk_prog prog, const dg_variant *v) {
  char suffix[32], name[64];
  snprintf(name, sizeof name, "%s", full);
  if (prog == DG_CLK_PROG_OP) {
    dg_variant_kernel_suffix(v, suffix, sizeof suffix);
    const size_t n = strlen(full), ns = strlen(suffix);
    assert_true(n > ns + 1 && !strcmp(full + n - ns, suffix) && full[n - ns - 1] == '_');
    snprintf(name, sizeof name, "%.*s", (int)(n - ns - 1), full);
    if (!strcmp(name, "energy")) /* two templates, one name: by the layout */
      return dg_variant_layout_width(v) > 1 ? DG_CLK_ENERGY_BLOCK : DG_CLK_ENERGY;
  }
  const int id = dg_clk_find(name, NULL);
  return id >= 0 && dg_clk_info_of((dg_clk_id)id)->prog == prog ? id : -1;
}

/* Build src with argument info and check each of its kernels against its row. */
static void check_source(dg_device *dev, const char *src, dg_clk_prog prog, const dg_variant *v,
                         int dbl, const char *label, int seen[DG_CLK_COUNT]) {
  cl_program p = NULL;
  assert_dg_ok(dg_program_build(dev, src, "-cl-kernel-arg-info", "kernel_table", NULL, &p));
  cl_kernel ks[64];
  cl_uint nk = 0;
  assert_int_equal(clCreateKernelsInProgram(p, 64, ks, &nk), CL_SUCCESS);
  for (cl_uint i = 0; i < nk; ++i) {
    char full[64] = "", pname[64], tname[64];
    cl_uint nargs = 0;
    assert_int_equal(clGetKernelInfo(ks[i], CL_KERNEL_FUNCTION_NAME, sizeof full, full, NULL),
                     CL_SUCCESS);
    assert_int_equal(clGetKernelInfo(ks[i], CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL),
                     CL_SUCCESS);
    const int id = row_of(full, prog, v);
    if (id < 0) fail_msg("%s: kernel '%s' is not in the table", label, full);
    const dg_clk_info *row = dg_clk_info_of((dg_clk_id)id);
    if ((int)nargs != row->n_args)
      fail_msg("%s: '%s' has %u arguments, the table %d", label, full, nargs, row->n_args);
    for (cl_uint a = 0; a < nargs; ++a) {
      assert_int_equal(clGetKernelArgInfo(ks[i], a, CL_KERNEL_ARG_NAME, sizeof pname, pname, NULL),
                       CL_SUCCESS);
      assert_int_equal(
          clGetKernelArgInfo(ks[i], a, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL),
          CL_SUCCESS);
      if (strcmp(pname, row->args[a].param) || !type_matches(row->args[a].type, tname, dbl))
        fail_msg("%s: '%s' argument %u is %s %s, the table says %s (type %d)", label, full, a,
                 tname, pname, row->args[a].param, (int)row->args[a].type);
    }
    seen[id] = 1;
    clReleaseKernel(ks[i]);
  }
  dg_program_release(&p);
}

static void check_program(dg_device *dev, const dg_variant *v, int seen[DG_CLK_COUNT]) {
  const dg_plane_wave pw = {.k = {1, 0, 0}, .pol = {0, 0, 1},
                            .pulse = {.shape = DG_PULSE_GAUSSIAN, .f0 = 1, .t0 = 1, .amplitude = 1}};
  const dg_cl_terms all = {.sources = 1, .pml = 1, .poles = 1, .curved = 1, .pw = &pw};
  char *src = NULL, label[DG_VARIANT_SPEC_MAX];
  assert_dg_ok(dg_cl_maxwell_source(v, 2, &all, &src));
  dg_variant_print(v, label, sizeof label);
  check_source(dev, src, DG_CLK_PROG_OP, v, v->precision == DG_PREC_DOUBLE, label, seen);
  dg_free(&src);
}

/* The multirate, halo and DFT programs in precision dbl. */
static void check_other_programs(dg_device *dev, int dbl, int seen[DG_CLK_COUNT]) {
  char *src = NULL;
  dg_variant v;
  assert_dg_ok(dg_variant_parse("work=vec,vw=4", &v));
  v.precision = dbl ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
  assert_dg_ok(dg_cl_multirate_source(&v, 3, &src));
  check_source(dev, src, DG_CLK_PROG_MR, &v, dbl, "multirate", seen);
  dg_free(&src);
  assert_dg_ok(dg_cl_halo_source(dbl, &src));
  check_source(dev, src, DG_CLK_PROG_HALO, &v, dbl, "halo", seen);
  dg_free(&src);
  assert_dg_ok(dg_cl_dft_source(dbl, dbl, &src));
  check_source(dev, src, DG_CLK_PROG_DFT, &v, dbl, "dft", seen);
  dg_free(&src);
}

static void test_every_kernel_has_the_tables_arguments(void **state) {
  dg_device *dev = test_device(state, 0);
  int seen[DG_CLK_COUNT] = {0};
  for (int p = 0; p < 2; ++p) {
    if (p && !dev->info.has_fp64) {
      test_skip_part("the double programs: the device has no fp64");
      continue;
    }
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; ++i) {
      dg_variant v;
      assert_dg_ok(dg_variant_parse(specs[i], &v));
      v.precision = p ? DG_PREC_DOUBLE : DG_PREC_FLOAT;
      check_program(dev, &v, seen);
    }
    check_other_programs(dev, p, seen);
  }
  for (int id = 0; id < DG_CLK_COUNT; ++id)
    if (!seen[id]) fail_msg("table row %s (%s) is in no program", dg_clk_info_of(id)->name,
                            dg_clk_info_of(id)->tmpl);
}

/* The lookups the host and bench use. */
static void test_lookups(void **state) {
  (void)state;
  assert_int_equal(dg_clk_find("liftupdate", NULL), DG_CLK_LIFTUPDATE);
  assert_int_equal(dg_clk_find("energy", "energy_block.cl"), DG_CLK_ENERGY_BLOCK);
  assert_int_equal(dg_clk_find("nonesuch", NULL), -1);
  assert_int_equal(dg_clk_arg_index(DG_CLK_FLUX, "t_inc"), FLUX_ARG_T);
  assert_int_equal(dg_clk_arg_index(DG_CLK_CURVED, "xyz"), CURV_ARG_XYZ);
  assert_int_equal(dg_clk_arg_index(DG_CLK_VOLUME, "t_inc"), -1);
  assert_int_equal(dg_clk_info_of(DG_CLK_SOURCE)->n_args, SRC_ARG_COUNT_);
  assert_int_equal(dg_clk_info_of(DG_CLK_ENERGY_BLOCK)->n_args, EN_ARG_COUNT_ + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_kernel_has_the_tables_arguments),
                                     cmocka_unit_test(test_lookups)};
  return cmocka_run_group_tests(tests, test_device_setup, test_device_teardown);
}
