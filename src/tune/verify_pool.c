/* Verification of tuning candidates: the worker processes and what each runs. */
#include "tune/verify_pool.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/verify.h"
#include "core/alloc.h"

#define END_MARK "verify end\n"
#define MAX_WORKERS 8

typedef struct {
  pid_t pid; /* -1: not running */
  int fd;    /* our end of the socket: the worker's stdin, stdout and stderr */
  int served;
} worker;

struct dg_verify_pool {
  char exe[4096];
  char device[32], timeout[32];
  int pml, jobs;
  worker w[MAX_WORKERS];
};

dg_status dg_verify_pool_create(dg_verify_pool **out, const char *exe, const dg_device_info *info,
                                int pml, double timeout_s, int jobs) {
  dg_verify_pool *p = NULL;
  DG_CALL(dg_calloc(&p, 1, sizeof *p));
  snprintf(p->exe, sizeof p->exe, "%s", exe);
  snprintf(p->device, sizeof p->device, "%d:%d", info->P, info->D);
  snprintf(p->timeout, sizeof p->timeout, "%.0f", timeout_s > 0 ? timeout_s : 600);
  p->pml = pml;
  const long want = jobs > 0 ? jobs : sysconf(_SC_NPROCESSORS_ONLN); /* -1: unknown */
  p->jobs = want < 1 ? 1 : want > MAX_WORKERS ? MAX_WORKERS : (int)want;
  for (int i = 0; i < MAX_WORKERS; ++i) p->w[i].pid = -1, p->w[i].fd = -1;
  *out = p;
  return DG_OK;
}

/* A socket, not pipes: one descriptor each way, and send() with MSG_NOSIGNAL reports a dead
 * worker as EPIPE instead of killing the tuner with SIGPIPE. */
static int start(dg_verify_pool *p, worker *w, char *why, size_t cap) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    snprintf(why, cap, "socketpair: %s", strerror(errno));
    return 0;
  }
  fflush(NULL);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(sv[1], 0); /* dup2 clears close-on-exec on the copies */
    dup2(sv[1], 1);
    dup2(sv[1], 2);
    if (p->pml)
      execl(p->exe, p->exe, "tune", "--verify-worker", "--device", p->device, "--job-timeout",
            p->timeout, "--pml", "1", (char *)NULL);
    else
      execl(p->exe, p->exe, "tune", "--verify-worker", "--device", p->device, "--job-timeout",
            p->timeout, (char *)NULL);
    _exit(127);
  }
  close(sv[1]);
  if (pid < 0) {
    close(sv[0]);
    snprintf(why, cap, "fork: %s", strerror(errno));
    return 0;
  }
  w->pid = pid;
  w->fd = sv[0];
  w->served = 0;
  return 1;
}

/* Close our end and reap the worker; *status its wait status (0 if it was not running). */
static void stop(worker *w, int *status) {
  int s = 0;
  if (w->fd >= 0) close(w->fd);
  if (w->pid > 0)
    while (waitpid(w->pid, &s, 0) < 0 && errno == EINTR) {
    }
  w->fd = -1;
  w->pid = -1;
  if (status) *status = s;
}

static int send_job(worker *w, int N, const char *spec) {
  char line[DG_VARIANT_SPEC_MAX + 16];
  const int n = snprintf(line, sizeof line, "%d %s\n", N, spec);
  for (int off = 0; off < n;) {
    const ssize_t put = send(w->fd, line + off, (size_t)(n - off), MSG_NOSIGNAL);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return 0;
    off += (int)put;
  }
  return 1;
}

/* Start a worker if w has none and hand it spec; on failure the reason is in k. */
static int dispatch(dg_verify_pool *p, worker *w, int N, dg_tune_candidate *k) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (w->pid < 0 && !start(p, w, k->reason, sizeof k->reason)) return 0;
    if (send_job(w, N, k->spec)) return 1;
    stop(w, NULL); /* it had died since its last job: once more in a fresh one */
  }
  snprintf(k->reason, sizeof k->reason, "cannot reach a verification worker: %s",
           strerror(errno));
  return 0;
}

/* Read one job's answer. Returns 1 when the end marker came (the worker lives on), 0 when
 * the worker died (*status its wait status). out keeps the head of the answer. */
static int receive(worker *w, char *out, size_t cap, int *status) {
  size_t len = 0;
  char tail[sizeof END_MARK] = "";
  out[0] = '\0';
  for (;;) {
    char tmp[1024];
    const ssize_t got = read(w->fd, tmp, sizeof tmp);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    const size_t take = (size_t)got < cap - 1 - len ? (size_t)got : cap - 1 - len;
    memcpy(out + len, tmp, take);
    len += take;
    out[len] = '\0';
    /* The marker is the last thing a job writes: compare the stream's last bytes. */
    const size_t m = sizeof END_MARK - 1, g = (size_t)got;
    if (g >= m) {
      memcpy(tail, tmp + g - m, m);
    } else {
      memmove(tail, tail + g, m - g);
      memcpy(tail + m - g, tmp, g);
    }
    tail[m] = '\0';
    if (!strcmp(tail, END_MARK)) return 1;
  }
  stop(w, status);
  return 0;
}

/* The verdict from a job's answer (alive) or from how its worker died. */
static int verdict_of(dg_tune_candidate *k, const char *out, int alive, int status,
                      const char *timeout) {
  if (!alive && WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    if (sig == SIGALRM)
      snprintf(k->reason, sizeof k->reason, "build/verification timed out after %s s", timeout);
    else
      snprintf(k->reason, sizeof k->reason, "build/verification crashed (signal %d, %s)", sig,
               strsignal(sig));
    return -1;
  }
  const char *line = strstr(out, "verify rel_diff=");
  double diff = NAN;
  int pass = 0;
  if (line && sscanf(line, "verify rel_diff=%lf pass=%d", &diff, &pass) == 2) {
    k->rel_diff = diff;
    if (pass) return 1;
    snprintf(k->reason, sizeof k->reason, "wrong result: relative L2 difference %.3e > %.0e",
             diff, dg_verify_tolerance(k->v.precision));
    return 0;
  }
  /* An error: the worker's marked line, else the start of what it printed. */
  const char *msg = strstr(out, "verify error: ");
  msg = msg ? msg + strlen("verify error: ") : out;
  while (*msg == '\n' || *msg == ' ') ++msg;
  const char *nl = strchr(msg, '\n');
  const int n = nl ? (int)(nl - msg) : (int)strlen(msg);
  if (alive)
    snprintf(k->reason, sizeof k->reason, "%.*s", n, msg);
  else
    snprintf(k->reason, sizeof k->reason, "%.*s (verification worker exited %d)", n, msg,
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return -1;
}

void dg_verify_pool_run(dg_verify_pool *p, int N, dg_tune_candidate **ks, int n, int *verdicts) {
  int slot[MAX_WORKERS]; /* job each worker is on, -1 idle */
  for (int i = 0; i < MAX_WORKERS; ++i) slot[i] = -1;
  char out[8192];
  int next = 0, done = 0;
  while (done < n) {
    /* Hand out jobs to idle workers, in order. */
    for (int i = 0; i < p->jobs && next < n; ++i) {
      if (slot[i] >= 0) continue;
      if (dispatch(p, &p->w[i], N, ks[next]))
        slot[i] = next;
      else
        verdicts[next] = -1, ++done;
      ++next;
    }
    /* Collect the oldest job in flight (jobs finish in about the order they started). */
    int wi = -1;
    for (int i = 0; i < p->jobs; ++i)
      if (slot[i] >= 0 && (wi < 0 || slot[i] < slot[wi])) wi = i;
    if (wi < 0) continue;
    worker *w = &p->w[wi];
    dg_tune_candidate *k = ks[slot[wi]];
    int status = 0;
    const int served = w->served;
    int alive = receive(w, out, sizeof out, &status);
    if (!alive && served > 0 && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) &&
        dispatch(p, w, N, k)) /* died after other jobs: once more on its own */
      alive = receive(w, out, sizeof out, &status);
    if (alive) w->served++;
    verdicts[slot[wi]] = verdict_of(k, out, alive, status, p->timeout);
    slot[wi] = -1;
    ++done;
  }
}

void dg_verify_pool_destroy(dg_verify_pool **pp) {
  dg_verify_pool *p = *pp;
  if (!p) return;
  for (int i = 0; i < MAX_WORKERS; ++i) stop(&p->w[i], NULL); /* end of input: they exit */
  dg_free(pp);
}

/* ---- one candidate's verification ------------------------------------------------------- */

uint64_t dg_tune_verify_seed(int N) { return 0x7d9a5eedull + (uint64_t)N; }

dg_status dg_tune_verify_case(dg_verify_case **out, int N, int pml) {
  DG_CALL(dg_verify_case_create_pml(out, N, 2, pml ? 1 : 0));
  return DG_OK;
}

dg_status dg_tune_verify_one(dg_device *dev, const dg_variant *v, int N, int pml, FILE *out) {
  double diff = NAN;
  int pass = 0;
  dg_status st = DG_OK;
  if (pml) {
    dg_verify_case *c = NULL;
    DG_CALL(dg_tune_verify_case(&c, N, 1));
    st = dg_cl_verify_problem(dev, v, c->phys, dg_tune_verify_seed(N), &diff, &pass);
    dg_verify_case_destroy(&c);
  } else {
    st = dg_cl_verify(dev, v, N, dg_tune_verify_seed(N), &diff, &pass);
  }
  if (st == DG_OK || st == DG_ERR_NUMERIC) {
    fprintf(out, "verify rel_diff=%.6e pass=%d\n", diff, pass);
    fflush(out);
  }
  if (st == DG_ERR_NUMERIC) dg_error_clear();
  if (st == DG_ERR_NUMERIC) return DG_OK; /* a verdict, not an error of the check */
  return st;
}

/* ---- the worker -------------------------------------------------------------------------- */

/* One marked line the tuner quotes as the reason (compilers also print on stderr). */
static void error_line(FILE *out) {
  const char *m = dg_error_message();
  const char *nl = strchr(m, '\n');
  fprintf(out, "verify error: %.*s\n", nl ? (int)(nl - m) : (int)strlen(m), m);
  fflush(out);
}

dg_status dg_verify_worker_serve(const char *device, int pml, double timeout_s, FILE *in,
                                 FILE *out) {
  char line[DG_VARIANT_SPEC_MAX + 16];
  const unsigned lim = (unsigned)(timeout_s > 0 ? timeout_s : 600);
  dg_device *dev = NULL;
  const dg_status opened = dg_device_create(&dev, device);
  if (opened != DG_OK) { /* the tuner reads this line when the worker exits */
    error_line(out);
    return opened;
  }
  while (fgets(line, sizeof line, in)) {
    line[strcspn(line, "\r\n")] = '\0';
    alarm(lim); /* a hung compiler ends this worker by SIGALRM: the tuner reports the timeout */
    dg_variant v;
    int N = 0, at = 0;
    dg_status st = sscanf(line, "%d %n", &N, &at) == 1 && N >= 1 && N <= DG_MAX_ORDER
                       ? dg_variant_parse(line + at, &v)
                       : DG_ERROR(DG_ERR_INPUT, "verification worker: expected 'N SPEC', got '%.60s'",
                                  line);
    if (st == DG_OK && v.test == DG_VTEST_CRASH) abort(); /* tests the isolation */
    if (st == DG_OK) st = dg_tune_verify_one(dev, &v, N, pml, out);
    alarm(0);
    if (st != DG_OK) {
      error_line(out);
      dg_error_clear();
    }
    fflush(stderr);
    fputs(END_MARK, out);
    fflush(out);
  }
  dg_device_destroy(&dev);
  return DG_OK;
}
