#!/usr/bin/env python3
"""measure.py GAME CORPUS HERALD: time cat, herald check, herald fmt and
herald select over one corpus.

herald select is timed with a tag criterion (--tag, which reads the games
without replaying them) and with --unique (which canonicalises and hashes
every game's actions), each against check -j 1's MB/s: herald-select(1)
promises at least half of it.

Wall-clock seconds and the peak resident size of the child (ru_maxrss) are
taken with the standard library only; each figure is the best of three runs.
The peak resident size comes from GNU time (see peak_rss).
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def run(argv):
    """Best wall time of three runs, and the peak RSS (KiB) of another;
    run.cpu holds the best processor time (user + system) of the three,
    the figure that other work on a shared machine inflates least."""
    best = best_cpu = None
    devnull = os.open(os.devnull, os.O_WRONLY)
    for _ in range(3):
        start = time.perf_counter()
        pid = os.posix_spawnp(argv[0], argv, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
        if os.WEXITSTATUS(status) > 1 or os.WIFSIGNALED(status):
            sys.exit(f"measure: {' '.join(argv)} failed with {status}")
        best = elapsed if best is None else min(best, elapsed)
        cpu = usage.ru_utime + usage.ru_stime
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    os.close(devnull)
    run.cpu = best_cpu
    return best, peak_rss(argv)


def peak_rss(argv):
    """The peak resident size (KiB) of one run, through GNU time, whose own
    small process is what the command is started from (a child of this
    interpreter would count the interpreter's memory as its own)."""
    if not os.path.exists("/usr/bin/time"):
        return float("nan")
    with tempfile.NamedTemporaryFile("r") as out:
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv,
                       stdout=subprocess.DEVNULL, check=False)
        return int(out.read().split()[-1])


def totals(herald, corpus):
    """The games and actions of the corpus, from check's last JSON line."""
    proc = subprocess.Popen([herald, "check", "--format=jsonl", "-q", corpus],
                            stdout=subprocess.PIPE, text=True)
    last = None
    for line in proc.stdout:
        last = line
    proc.wait()
    return json.loads(last)["summary"]


def main():
    game, corpus, herald = sys.argv[1:4]
    size_mb = os.path.getsize(corpus) / 1e6
    summary = totals(herald, corpus)
    games = summary["games"]
    actions = summary["actions"]
    cat_s, cat_rss = run(["cat", corpus])
    print(f"{game}: {games} games, {actions} actions, {size_mb:.1f} MB")
    print(f"  cat            {cat_s:8.3f} s  {size_mb / cat_s:9.1f} MB/s"
          f"  peak RSS {cat_rss / 1024:6.1f} MiB")
    one = None
    for jobs in ("1", "2"):
        secs, rss = run([herald, "check", "-q", "-j", jobs, corpus])
        one = one or secs
        print(f"  check -j {jobs}     {secs:8.3f} s  {size_mb / secs:9.1f} MB/s"
              f"  {games / secs:10.0f} games/s  {actions / secs:12.0f} actions/s"
              f"  peak RSS {rss / 1024:6.1f} MiB  speed-up {one / secs:4.2f}"
              f"  ({size_mb / run.cpu:.1f} MB per CPU-second)")
    secs, rss = run([herald, "fmt", corpus])
    print(f"  fmt            {secs:8.3f} s  {size_mb / secs:9.1f} MB/s"
          f"  {games / secs:10.0f} games/s  peak RSS {rss / 1024:6.1f} MiB"
          f"  {one / secs:4.2f} x check -j 1  ({size_mb / run.cpu:.1f} MB per CPU-second)")
    for name, opts in (("select --tag", ["--tag=Date=.*20.*", "--invert"]),
                       ("select --unique", ["--unique", "-q"])):
        secs, rss = run([herald, "select", "--count"] + opts + [corpus])
        print(f"  {name:15s}{secs:8.3f} s  {size_mb / secs:9.1f} MB/s"
              f"  {games / secs:10.0f} games/s  peak RSS {rss / 1024:6.1f} MiB"
              f"  {one / secs:4.2f} x check -j 1")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
