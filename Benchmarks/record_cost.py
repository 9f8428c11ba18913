"""What a lookup, a refund and a page of history cost on the App Store's record (record.sqlite) of
N past transactions: each operation in a process of its own, its time inside the process (what the
operation costs beyond starting up) and the process's peak memory (maximum resident set size);
then the real binary's `store refund` of the oldest transaction and a `store transactions` listing
to /dev/null, whole processes. Medians of several runs (each refund on a fresh copy of the folder).

Usage: record_cost.py MONKEYSHOP MONKEYSHOP_BENCHMARKS SCRATCH N [N ...]"""
import os, shutil, statistics, subprocess, sys, time

binary, benchmarks, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
sizes = [int(n) for n in sys.argv[4:]]
runs = 5


def measured(command, folder):
    """Wall time (ms), peak memory (MB, from wait4) and, for --record-cost, the time it reports."""
    environment = dict(os.environ, MONKEYSHOP_DATA_DIR=folder)
    started = time.monotonic()
    pid = os.posix_spawn(command[0], command, environment,
                         file_actions=[(os.POSIX_SPAWN_OPEN, 1, "/dev/null" if "--record-cost" not in command
                                        else os.path.join(scratch, "out"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)])
    _, status, usage = os.wait4(pid, 0)
    elapsed = (time.monotonic() - started) * 1000
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(command)} exited {os.waitstatus_to_exitcode(status)}")
    inside = None
    if "--record-cost" in command:
        inside = float(open(os.path.join(scratch, "out")).read().split()[1]) * 1000
    return elapsed, usage.ru_maxrss / 1024, inside


def fresh(folder, n):
    copy = os.path.join(scratch, f"copy-{n}")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy)
    return copy


print(f"{'':<34}{'inside the process':>20}{'whole process':>16}{'peak memory':>14}")
for n in sizes:
    folder = os.path.join(scratch, f"record-{n}")
    if not os.path.exists(folder):
        subprocess.run([benchmarks, "--write-data-folder", folder, str(n)], check=True)
    path = os.path.join(folder, "record.sqlite")
    record = f"record.sqlite {os.path.getsize(path) / (1 << 20):.1f} MB" if os.path.exists(path) else \
        "all in store.json, no record.sqlite yet"
    print(f"-- {n:,} transactions ({record})")
    for operation in ["lookup", "page", "refund"]:
        results = []
        for _ in range(runs):
            target = fresh(folder, n) if operation == "refund" else folder
            results.append(measured([benchmarks, "--record-cost", operation, target], target))
        inside = statistics.median(r[2] for r in results)
        whole = statistics.median(r[0] for r in results)
        memory = max(r[1] for r in results)
        label = {"lookup": "lookup of #1 by ID", "page": "page of 20 from the middle",
                 "refund": "refund of #1"}[operation]
        print(f"  {label:<32}{inside:>17.2f} ms{whole:>13.1f} ms{memory:>11.1f} MB")
    results = []
    for _ in range(runs):
        target = fresh(folder, n)
        results.append(measured([binary, "store", "refund", "1"], target))
    print(f"  {'monkeyshop store refund 1':<32}{'':>20}{statistics.median(r[0] for r in results):>13.1f} ms"
          f"{max(r[1] for r in results):>11.1f} MB")
    listing = measured([binary, "store", "transactions"], folder)
    print(f"  {'monkeyshop store transactions':<32}{'':>20}{listing[0]:>13.1f} ms{listing[1]:>11.1f} MB")
