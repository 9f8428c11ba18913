"""What one purchase of the real binary costs on a data folder with N past transactions: bytes
written into the data folder and fsyncs (counted from strace, so nothing in the program is
instrumented), and the wall time of the whole `monkeyshop buy` process (median of several runs,
without strace). Usage: purchase_cost.py MONKEYSHOP DATA_FOLDER PAST"""
import os, re, shutil, statistics, subprocess, sys, tempfile, time

binary, folder, past = sys.argv[1], os.path.realpath(sys.argv[2]), int(sys.argv[3])
environment = dict(os.environ, MONKEYSHOP_DATA_DIR=folder)
buy = [binary, "buy", "com.monkeyshop.credits.5"]
label = f"purchase, {past:,} past transactions"

counts = ""
strace = shutil.which("strace")
if strace:
    with tempfile.TemporaryDirectory() as scratch:
        trace = os.path.join(scratch, "trace")
        subprocess.run(
            [strace, "-f", "-qq", "-y", "-o", trace, "-e", "trace=write,pwrite64,writev,fsync,fdatasync", *buy],
            env=environment, stdout=subprocess.DEVNULL, check=True)
        written = fsyncs = 0
        call = re.compile(r"^\d+\s+(\w+)\((\d+)<([^>]*)>.*\)\s+=\s+(-?\d+)")
        for line in open(trace):
            match = call.match(line)
            if not match or not (match[3] == folder or match[3].startswith(folder + "/")):
                continue
            if match[1] in ("fsync", "fdatasync"):
                fsyncs += 1
            elif int(match[4]) > 0:
                written += int(match[4])
        counts = f"{written:,} B written, {fsyncs} fsyncs  "
else:
    counts = "(strace not installed: bytes and fsyncs not counted)  "

times = []
for _ in range(7):
    started = time.monotonic()
    subprocess.run(buy, env=environment, stdout=subprocess.DEVNULL, check=True)
    times.append((time.monotonic() - started) * 1000)
record = os.path.join(folder, "record.sqlite")
size = os.path.getsize(record) // 1024 if os.path.exists(record) else 0
print(f"{label:<52}{counts}median {statistics.median(times):.1f} ms (whole process)  "
      f"store {os.path.getsize(os.path.join(folder, 'store.json'))} B, record {size:,} KB")
