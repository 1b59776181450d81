/* A foreign MPI launcher (Open MPI's mpiexec starting N MPICH singletons) is detected: the
 * launcher's OMPI_COMM_WORLD_SIZE or PMI_SIZE says N > 1 while MPI reports one rank, and
 * dgtd stops with exit status 2 and a message naming mpiexec.mpich instead of running N
 * independent copies. A real MPICH job (sizes agree) and a plain start pass. */
#include "test_util.h"


#include "part/launcher.h"

static void clear_env(void) {
  unsetenv("OMPI_COMM_WORLD_SIZE");
  unsetenv("PMI_SIZE");
}

static void test_sizes_from_the_environment(void **state) {
  (void)state;
  const char *var = "x";
  clear_env();
  assert_int_equal(dg_launcher_size(&var), 0);
  assert_null(var);
  setenv("PMI_SIZE", "3", 1);
  assert_int_equal(dg_launcher_size(&var), 3);
  assert_string_equal(var, "PMI_SIZE");
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  assert_int_equal(dg_launcher_size(&var), 2);
  assert_string_equal(var, "OMPI_COMM_WORLD_SIZE");
  setenv("OMPI_COMM_WORLD_SIZE", "two", 1); /* unreadable: the next variable */
  assert_int_equal(dg_launcher_size(NULL), 3);
  clear_env();
}

static void test_check_refuses_only_a_mismatch(void **state) {
  (void)state;
  clear_env();
  assert_dg_ok(dg_launcher_check(1)); /* no launcher */
  setenv("PMI_SIZE", "1", 1);
  assert_dg_ok(dg_launcher_check(1)); /* mpiexec.mpich -n 1 */
  setenv("PMI_SIZE", "4", 1);
  assert_dg_ok(dg_launcher_check(4)); /* mpiexec.mpich -n 4 */
  assert_dg_error(dg_launcher_check(1), DG_ERR_INPUT, "mpiexec.mpich -n 4");
  clear_env();
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  assert_dg_error(dg_launcher_check(1), DG_ERR_INPUT, "OMPI_COMM_WORLD_SIZE=2");
  clear_env();
}

/* The binary under an Open MPI-like environment: MPICH initialises a singleton. */
static void test_dgtd_exits_2_naming_mpiexec_mpich(void **state) {
  (void)state;
  const char *bin = getenv("BIN") ? getenv("BIN") : "bin";
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=0 %s/dgtd run --backend ref --box 1 "
           "--order 1 --steps 1 --quiet 2>&1", bin);
  char out[8192];
  const int rc = test_capture(cmd, out, sizeof out);
  printf("# %s", out);
  assert_int_equal(rc, 2);
  assert_non_null(strstr(out, "mpiexec.mpich"));
  assert_null(strstr(out, "L2 error")); /* it did not run the case */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sizes_from_the_environment),
      cmocka_unit_test(test_check_refuses_only_a_mismatch),
      cmocka_unit_test(test_dgtd_exits_2_naming_mpiexec_mpich),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
