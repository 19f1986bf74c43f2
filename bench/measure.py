#!/usr/bin/env python3
"""measure.py GAME CORPUS HERALD: time cat and herald check over one corpus.

Wall-clock seconds and the peak resident size of the child (ru_maxrss) are
taken with the standard library only; each figure is the best of three runs.
"""
import json
import os
import resource
import subprocess
import sys
import time


def run(argv):
    """Best wall time of three runs, and the peak RSS (KiB) of the last."""
    best = None
    for _ in range(3):
        start = time.perf_counter()
        pid = os.fork()
        if pid == 0:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, 1)
            os.execvp(argv[0], argv)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
        if os.WEXITSTATUS(status) > 1:
            sys.exit(f"measure: {' '.join(argv)} failed with {status}")
        best = elapsed if best is None else min(best, elapsed)
    return best, usage.ru_maxrss


def main():
    game, corpus, herald = sys.argv[1:4]
    size_mb = os.path.getsize(corpus) / 1e6
    summary = subprocess.run([herald, "check", "--format=json", corpus],
                             capture_output=True, text=True)
    report = json.loads(summary.stdout)
    totals = report.get("summary", report)
    games = totals.get("games", 0)
    actions = totals.get("actions", 0)
    cat_s, _ = run(["cat", corpus])
    print(f"{game}: {games} games, {actions} actions, {size_mb:.1f} MB")
    print(f"  cat            {cat_s:8.3f} s  {size_mb / cat_s:9.1f} MB/s")
    one = None
    for jobs in ("1", "2"):
        secs, rss = run([herald, "check", "-q", "-j", jobs, corpus])
        one = one or secs
        print(f"  check -j {jobs}     {secs:8.3f} s  {size_mb / secs:9.1f} MB/s"
              f"  {games / secs:10.0f} games/s  {actions / secs:12.0f} actions/s"
              f"  peak RSS {rss / 1024:6.1f} MiB  speed-up {one / secs:4.2f}")


if __name__ == "__main__":
    main()
