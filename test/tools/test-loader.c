/// \file
/// bpfprobe-test-loader: the live-test harness. It loads a BPF object with
/// plain libbpf (nothing from bpfprobe's runtime, so a test through it shows
/// that the plugin's output is an ordinary libbpf object), attaches every
/// program by its section name, runs a command, and prints what the probes
/// wrote to the "events" ring buffer, one string record per line.
///
/// Usage:
///   bpfprobe-test-loader --check
///       Exit 0 iff this process can load a BPF program of the type uprobes
///       use, create a ring buffer, and the uprobe PMU exists. lit runs this
///       to decide the `bpf-uprobe` feature.
///   bpfprobe-test-loader [-v] [--out FILE] [--timeout SEC] OBJ.o -- CMD ARGS...
///       1. open and load OBJ.o (on failure the verifier log goes to stderr);
///       2. bpf_program__attach() every auto-loaded program, before CMD runs;
///       3. run CMD with its stdout sent to FILE (default: our stdout, after
///          which the records follow);
///       4. print every record of the BPF_MAP_TYPE_RINGBUF map named "events"
///          as a NUL-terminated string on its own line (one trailing newline
///          inside a record is dropped, so records may or may not end in one).
///          No "events" map: print nothing.
///       If the object has a global variable `events_lost` (in .bss or
///       .data, 1 to 8 bytes) that is non-zero afterwards, that many records
///       could not be reserved: it is reported and the exit status is 5.
///
/// Exit status: 0 success, 1 usage or system error, 2 the object does not
/// open or load, 3 a program does not attach, 4 CMD did not exit with 0 (or
/// did not finish within the timeout), 5 records were lost.
#define _GNU_SOURCE
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum {
  ExitOk = 0,
  ExitUsage = 1,
  ExitLoad = 2,
  ExitAttach = 3,
  ExitCommand = 4,
  ExitLost = 5,
};

static const char *ToolName = "bpfprobe-test-loader";
static bool Verbose;

static int printLibbpf(enum libbpf_print_level Level, const char *Fmt,
                       va_list Args) {
  /* Warnings carry the verifier log; -v adds libbpf's info and debug. */
  if (Level != LIBBPF_WARN && !Verbose)
    return 0;
  return vfprintf(stderr, Fmt, Args);
}

static void usage(void) {
  fprintf(stderr,
          "usage: %s --check\n"
          "       %s [-v] [--out FILE] [--timeout SEC] OBJ.o -- CMD ARGS...\n",
          ToolName, ToolName);
}

/// --check: a 2-instruction kprobe-type program (uprobe programs are
/// BPF_PROG_TYPE_KPROBE), a ring buffer, and the uprobe PMU.
static int checkCapabilities(void) {
  struct bpf_insn Insns[] = {
      {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0},
      {.code = BPF_JMP | BPF_EXIT},
  };
  char Log[4096] = "";
  LIBBPF_OPTS(bpf_prog_load_opts, Opts, .log_buf = Log,
              .log_size = sizeof(Log), .log_level = 0);
  int Fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "bpfprobe_check", "GPL", Insns,
                         sizeof(Insns) / sizeof(Insns[0]), &Opts);
  if (Fd < 0) {
    fprintf(stderr, "%s: cannot load a kprobe-type BPF program: %s\n%s",
            ToolName, strerror(errno), Log);
    return 1;
  }
  close(Fd);

  Fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "bpfprobe_check", 0, 0, 4096,
                      NULL);
  if (Fd < 0) {
    fprintf(stderr, "%s: cannot create a ring buffer map: %s\n", ToolName,
            strerror(errno));
    return 1;
  }
  close(Fd);

  FILE *Pmu = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
  int Type = -1;
  if (!Pmu || fscanf(Pmu, "%d", &Type) != 1 || Type < 0) {
    fprintf(stderr, "%s: no uprobe PMU (/sys/bus/event_source/devices/uprobe/type)\n",
            ToolName);
    if (Pmu)
      fclose(Pmu);
    return 1;
  }
  fclose(Pmu);
  return 0;
}

/// Collects records in memory; they are written after CMD has finished so
/// that, without --out, CMD's own output and ours never interleave.
struct Records {
  FILE *Stream;
  char *Text;
  size_t Size;
  unsigned long Count;
};

static int onRecord(void *Ctx, void *Data, size_t Size) {
  struct Records *R = Ctx;
  size_t Len = strnlen(Data, Size);
  if (Len > 0 && ((const char *)Data)[Len - 1] == '\n')
    --Len;
  fwrite(Data, 1, Len, R->Stream);
  fputc('\n', R->Stream);
  ++R->Count;
  return 0;
}

/// Reads the global `events_lost` from the .bss or .data map, if the object
/// has one. Returns 0 when there is no such variable.
static unsigned long long readLostCounter(struct bpf_object *Obj) {
  static const char *const Sections[] = {".bss", ".data"};
  struct btf *Btf = bpf_object__btf(Obj);
  if (!Btf)
    return 0;
  for (size_t I = 0; I < sizeof(Sections) / sizeof(Sections[0]); ++I) {
    struct bpf_map *Map = bpf_object__find_map_by_name(Obj, Sections[I]);
    int SecId = btf__find_by_name_kind(Btf, Sections[I], BTF_KIND_DATASEC);
    if (!Map || SecId < 0)
      continue;
    const struct btf_type *Sec = btf__type_by_id(Btf, SecId);
    const struct btf_var_secinfo *Var = btf_var_secinfos(Sec);
    for (unsigned J = 0; J < btf_vlen(Sec); ++J, ++Var) {
      const struct btf_type *VarType = btf__type_by_id(Btf, Var->type);
      if (strcmp(btf__name_by_offset(Btf, VarType->name_off), "events_lost"))
        continue;
      size_t ValueSize = bpf_map__value_size(Map);
      if (Var->size > 8 || Var->offset + Var->size > ValueSize)
        return 0;
      unsigned char *Value = calloc(1, ValueSize);
      int Key = 0;
      unsigned long long Lost = 0;
      if (Value && !bpf_map_lookup_elem(bpf_map__fd(Map), &Key, Value))
        memcpy(&Lost, Value + Var->offset, Var->size); /* little-endian */
      free(Value);
      return Lost;
    }
  }
  return 0;
}

static pid_t startCommand(char **Argv, const char *OutPath) {
  fflush(stdout);
  fflush(stderr);
  pid_t Pid = fork();
  if (Pid != 0)
    return Pid;
  if (OutPath) {
    int Fd = open(OutPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (Fd < 0 || dup2(Fd, STDOUT_FILENO) < 0) {
      fprintf(stderr, "%s: cannot open '%s': %s\n", ToolName, OutPath,
              strerror(errno));
      _exit(127);
    }
  }
  execvp(Argv[0], Argv);
  fprintf(stderr, "%s: cannot run '%s': %s\n", ToolName, Argv[0],
          strerror(errno));
  _exit(127);
}

static double now(void) {
  struct timespec T;
  clock_gettime(CLOCK_MONOTONIC, &T);
  return T.tv_sec + T.tv_nsec / 1e9;
}

int main(int Argc, char **Argv) {
  const char *ObjPath = NULL, *OutPath = NULL;
  double Timeout = 60;
  char **Command = NULL;

  if (Argc == 2 && !strcmp(Argv[1], "--check")) {
    libbpf_set_print(printLibbpf);
    return checkCapabilities() ? ExitUsage : ExitOk;
  }
  for (int I = 1; I < Argc; ++I) {
    if (!strcmp(Argv[I], "--")) {
      Command = &Argv[I + 1];
      break;
    }
    if (!strcmp(Argv[I], "-v")) {
      Verbose = true;
    } else if (!strcmp(Argv[I], "--out") && I + 1 < Argc) {
      OutPath = Argv[++I];
    } else if (!strcmp(Argv[I], "--timeout") && I + 1 < Argc) {
      Timeout = atof(Argv[++I]);
    } else if (Argv[I][0] != '-' && !ObjPath) {
      ObjPath = Argv[I];
    } else {
      fprintf(stderr, "%s: unexpected argument '%s'\n", ToolName, Argv[I]);
      usage();
      return ExitUsage;
    }
  }
  if (!ObjPath || !Command || !Command[0]) {
    usage();
    return ExitUsage;
  }
  libbpf_set_print(printLibbpf);

  struct bpf_object *Obj = bpf_object__open_file(ObjPath, NULL);
  if (!Obj) {
    fprintf(stderr, "%s: cannot open '%s': %s\n", ToolName, ObjPath,
            strerror(errno));
    return ExitLoad;
  }
  int Err = bpf_object__load(Obj);
  if (Err) {
    fprintf(stderr, "%s: cannot load '%s': %s\n", ToolName, ObjPath,
            strerror(-Err));
    bpf_object__close(Obj);
    return ExitLoad;
  }

  struct bpf_program *Prog;
  unsigned NumLinks = 0, MaxLinks = 0;
  struct bpf_link **Links = NULL;
  int Status = ExitOk;
  bpf_object__for_each_program(Prog, Obj) {
    if (!bpf_program__autoload(Prog))
      continue;
    struct bpf_link *Link = bpf_program__attach(Prog);
    if (!Link) {
      fprintf(stderr, "%s: cannot attach program '%s' (section '%s'): %s\n",
              ToolName, bpf_program__name(Prog), bpf_program__section_name(Prog),
              strerror(errno));
      Status = ExitAttach;
      goto out;
    }
    if (NumLinks == MaxLinks) {
      MaxLinks = MaxLinks ? 2 * MaxLinks : 16;
      Links = realloc(Links, MaxLinks * sizeof(*Links));
      if (!Links) {
        bpf_link__destroy(Link);
        Status = ExitUsage;
        goto out;
      }
    }
    Links[NumLinks++] = Link;
    if (Verbose)
      fprintf(stderr, "%s: attached '%s' (%s)\n", ToolName,
              bpf_program__name(Prog), bpf_program__section_name(Prog));
  }

  struct Records Rec = {0};
  Rec.Stream = open_memstream(&Rec.Text, &Rec.Size);
  struct ring_buffer *Ring = NULL;
  struct bpf_map *Events = bpf_object__find_map_by_name(Obj, "events");
  if (Events && bpf_map__type(Events) == BPF_MAP_TYPE_RINGBUF) {
    Ring = ring_buffer__new(bpf_map__fd(Events), onRecord, &Rec, NULL);
    if (!Ring) {
      fprintf(stderr, "%s: cannot read ring buffer 'events': %s\n", ToolName,
              strerror(errno));
      Status = ExitUsage;
      goto out_records;
    }
  } else if (Events) {
    fprintf(stderr, "%s: map 'events' is not a BPF_MAP_TYPE_RINGBUF\n",
            ToolName);
  }

  pid_t Child = startCommand(Command, OutPath);
  if (Child < 0) {
    fprintf(stderr, "%s: fork: %s\n", ToolName, strerror(errno));
    Status = ExitUsage;
    goto out_records;
  }
  /* Drain while the command runs, so a long run cannot fill the ring. */
  int WaitStatus = 0;
  double Deadline = now() + Timeout;
  for (;;) {
    pid_t R = waitpid(Child, &WaitStatus, WNOHANG);
    if (R == Child)
      break;
    if (R < 0 && errno != EINTR) {
      fprintf(stderr, "%s: waitpid: %s\n", ToolName, strerror(errno));
      Status = ExitUsage;
      goto out_records;
    }
    if (now() > Deadline) {
      fprintf(stderr, "%s: '%s' did not finish within %g s; killed\n",
              ToolName, Command[0], Timeout);
      kill(Child, SIGKILL);
      waitpid(Child, &WaitStatus, 0);
      Status = ExitCommand;
      break;
    }
    if (Ring)
      ring_buffer__poll(Ring, 10);
    else
      usleep(10000);
  }
  if (Ring)
    ring_buffer__consume(Ring);

  if (Status == ExitOk && !(WIFEXITED(WaitStatus) && WEXITSTATUS(WaitStatus) == 0)) {
    if (WIFEXITED(WaitStatus))
      fprintf(stderr, "%s: '%s' exited with status %d\n", ToolName, Command[0],
              WEXITSTATUS(WaitStatus));
    else if (WIFSIGNALED(WaitStatus))
      fprintf(stderr, "%s: '%s' killed by signal %d\n", ToolName, Command[0],
              WTERMSIG(WaitStatus));
    Status = ExitCommand;
  }
  unsigned long long Lost = readLostCounter(Obj);
  if (Lost) {
    fprintf(stderr, "%s: %llu records lost (events_lost)\n", ToolName, Lost);
    if (Status == ExitOk)
      Status = ExitLost;
  }
  if (Verbose)
    fprintf(stderr, "%s: %lu records\n", ToolName, Rec.Count);

out_records:
  fclose(Rec.Stream);
  fwrite(Rec.Text, 1, Rec.Size, stdout);
  fflush(stdout);
  free(Rec.Text);
  ring_buffer__free(Ring);
out:
  for (unsigned I = 0; I < NumLinks; ++I)
    bpf_link__destroy(Links[I]);
  free(Links);
  bpf_object__close(Obj);
  return Status;
}
