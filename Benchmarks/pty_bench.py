#!/usr/bin/env python3
"""Measures terminal programs the way a person meets them: in a pseudo-terminal.

For each program: time from start to its first full frame (every marker text in the output:
MARKER is one text or several separated by |, the frame's first and last rows, as ncurses writes
a frame top to bottom), the time from a key press to the first bytes of the repaint (median and
p99 over many keys), and the CPU it uses while idle. Usage: pty_bench.py NAME MARKER KEYS --
COMMAND...
"""
import fcntl
import os
import pty
import select
import statistics
import struct
import sys
import termios
import time


def spawn(command, env):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvpe(command[0], command, env)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    return pid, fd


def read_until(fd, marker, deadline):
    """Reads until every text of `marker` (bytes, texts separated by |) has been written."""
    texts = marker.split(b"|")
    seen = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
            if all(text in seen for text in texts):
                return True
    return False


def drain(fd, quiet=0.2):
    """Reads until the program has been silent for `quiet` seconds."""
    while True:
        ready, _, _ = select.select([fd], [], [], quiet)
        if not ready:
            return
        try:
            os.read(fd, 65536)
        except OSError:
            return


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def first_frame(command, env, marker, name):
    started = time.monotonic()
    pid, fd = spawn(command, env)
    if not read_until(fd, marker.encode(), started + 20):
        raise SystemExit(f"{name}: no first frame containing {marker!r}")
    elapsed = time.monotonic() - started
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(fd)
    return elapsed


def peak_memory_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def measure(name, marker, keys, command, presses=300, idle_seconds=5.0, launches=21):
    env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8")
    first_frames = sorted(first_frame(command, env, marker, name) for _ in range(launches))
    pid, fd = spawn(command, env)
    if not read_until(fd, marker.encode(), time.monotonic() + 20):
        raise SystemExit(f"{name}: no first frame containing {marker!r}")
    drain(fd, quiet=1.0)  # let launch work (the product request) finish
    latencies = []
    for index in range(presses):
        key = keys[index % len(keys)].encode()
        sent = time.monotonic()
        os.write(fd, key)
        ready, _, _ = select.select([fd], [], [], 2.0)
        if not ready:
            raise SystemExit(f"{name}: no repaint after key {key!r}")
        latencies.append(time.monotonic() - sent)
        drain(fd, quiet=0.01)
    drain(fd, quiet=0.3)
    before = cpu_seconds(pid)
    time.sleep(idle_seconds)
    idle = cpu_seconds(pid) - before
    peak = peak_memory_kb(pid)
    os.write(fd, b"q")
    drain(fd, quiet=0.3)
    os.kill(pid, 9) if os.waitpid(pid, os.WNOHANG) == (0, 0) else None
    latencies.sort()
    return {
        "name": name,
        "first_frame": statistics.median(first_frames),
        "median": statistics.median(latencies),
        "p99": latencies[int(len(latencies) * 0.99) - 1],
        "idle_cpu": idle,
        "idle_seconds": idle_seconds,
        "peak_kb": peak,
    }


def main():
    separator = sys.argv.index("--")
    name, marker, keys = sys.argv[1:4]
    result = measure(name, marker, keys.split(","), sys.argv[separator + 1:])
    print(
        f"{result['name']:<40}first frame (median of 21) {result['first_frame'] * 1000:6.2f} ms   "
        f"key→repaint median {result['median'] * 1000:5.3f} ms  p99 {result['p99'] * 1000:5.3f} ms   "
        f"idle CPU {result['idle_cpu']:.2f} s in {result['idle_seconds']:.0f} s   "
        f"peak RSS {result['peak_kb'] / 1024:.1f} MB"
    )


if __name__ == "__main__":
    main()
