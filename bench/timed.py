"""Run one command and report its whole-process wall time and peak memory as JSON.

``python bench/timed.py OUT -- COMMAND...`` runs COMMAND with stdout to ``OUT`` and
stderr to ``OUT.err``, then prints ``{"wall": s, "cpu": s, "maxrss_kb": k, "returncode": n}`` (``cpu``:
user + system time of the whole tree, which a busy machine disturbs less than wall).
It is started fresh for every sample because ``getrusage(RUSAGE_CHILDREN)`` only ever
grows within one process: here it holds exactly the command's process tree. Its
``ru_maxrss`` is the peak resident set of the largest single process in that tree
(worker processes included once their parent has waited for them), in KiB on Linux.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print("usage: timed.py OUT -- COMMAND...", file=sys.stderr)
        return 2
    out_path, command = argv[0], argv[2:]
    with open(out_path, "wb") as out, open(out_path + ".err", "wb") as err:
        start = time.perf_counter()
        returncode = subprocess.call(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        wall = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime
    print(json.dumps({"wall": wall, "cpu": cpu, "maxrss_kb": usage.ru_maxrss, "returncode": returncode}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
