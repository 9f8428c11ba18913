"""What `monkeyshop server` costs per request over data folders of N past transactions, each a
folder `monkeyshop-benchmarks --write-data-folder PATH N --stored-jws` wrote (a signed transaction
kept with each, as this version's purchases keep one):

- a page of Get Transaction History (v2) from the middle of the history, and the first page,
  sequential requests on one kept-alive connection: median and 99th percentile; then the server's
  peak memory (VmHWM) after the pages;
- with `--wrk N`: Get Transaction Info of a transaction in the record under `wrk` (2 threads, 16
  connections, 10 s), beside the floor: `minimal-hummingbird`, one Hummingbird route of the same
  build answering a body of the same size, measured in the same run.

Runs under a Python with PyJWT and cryptography (Apple's library's: .build/test-python/bin/python,
which `Tests/run needsPython` makes), for the bearer token, made once per folder with the folder's
In-App Purchase key (`monkeyshop server key --json`).

Usage: server_cost.py MONKEYSHOP MINIMAL_HUMMINGBIRD FOLDER_FOR_10 [FOLDER ...] [--wrk FOLDER]"""
import base64, datetime, http.client, json, os, re, statistics, subprocess, sys, time

import jwt
from cryptography.hazmat.primitives import serialization

arguments = sys.argv[1:]
binary, minimal = arguments[0], arguments[1]
wrk_folder = None
if "--wrk" in arguments:
    wrk_folder = arguments[arguments.index("--wrk") + 1]
    arguments = arguments[:arguments.index("--wrk")]
folders = arguments[2:]
# The instant `--write-data-folder` dates its first purchase from (transaction N is N seconds later).
START_MS = 1_800_000_000_000


def token(folder):
    made = subprocess.run([binary, "server", "key", "--json"], check=True, capture_output=True, text=True,
                          env=dict(os.environ, MONKEYSHOP_DATA_DIR=folder))
    key = json.loads(made.stdout)
    now = datetime.datetime.now(datetime.timezone.utc)
    claims = {"bid": key["bundleID"], "iss": key["issuerID"], "aud": "appstoreconnect-v1",
              "iat": int(now.timestamp()), "exp": int((now + datetime.timedelta(minutes=50)).timestamp())}
    private = serialization.load_pem_private_key(open(key["keyFile"], "rb").read(), password=None)
    return jwt.encode(claims, private, algorithm="ES256", headers={"kid": key["keyID"]})


def start(command, environment=None):
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environment)
    line = child.stdout.readline()
    match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if not match:
        child.kill()
        sys.exit(f"{command[0]} did not say where it listens: {line!r}")
    return child, int(match.group(1))


def revision(number):
    """The ascending revision after transaction `number` (its purchase date and number)."""
    text = f"monkeyshop-revision:A:{START_MS + number * 1000}:{number}".encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def timed(port, bearer, path, count):
    connection = http.client.HTTPConnection("127.0.0.1", port)
    times = []
    for _ in range(count):
        started = time.perf_counter()
        connection.request("GET", path, headers={"Authorization": f"Bearer {bearer}"})
        response = connection.getresponse()
        body = response.read()
        times.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            sys.exit(f"GET {path}: {response.status} {body[:200]!r}")
    connection.close()
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.99) - 1], body


def peak_memory(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


print(f"{'':<44}{'median':>10}{'p99':>10}{'server peak memory':>21}")
for folder in folders:
    count = json.load(open(os.path.join(folder, "wallet.json")))["lastTransactionNumber"]
    bearer = token(folder)
    server, port = start([binary, "server", "--port", "0"], dict(os.environ, MONKEYSHOP_DATA_DIR=folder))
    try:
        # The first request (the store read, the record opened) is not counted.
        timed(port, bearer, "/inApps/v2/history/1", 1)
        middle = max(1, count // 2)
        page = timed(port, bearer, f"/inApps/v2/history/1?revision={revision(middle)}", 200)
        first = timed(port, bearer, "/inApps/v2/history/1", 200)
        shown = len(json.loads(page[2])["signedTransactions"])
        memory = peak_memory(server.pid)
        print(f"-- {count:,} transactions")
        print(f"  {'history page from the middle (' + str(shown) + ')':<42}{page[0]:>7.2f} ms{page[1]:>7.2f} ms"
              f"{memory:>18.1f} MB")
        print(f"  {'first history page':<42}{first[0]:>7.2f} ms{first[1]:>7.2f} ms")
    finally:
        server.terminate()
        server.wait()


def wrk(url, bearer):
    result = subprocess.run(["wrk", "-t2", "-c16", "-d10s", "--latency", "-H", f"Authorization: Bearer {bearer}", url],
                            check=True, capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", result).group(1))

    def latency(percent):
        value, unit = re.search(rf"\s{percent}%\s+([\d.]+)(us|ms|s)\b", result).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]

    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", result)
    if errors:
        sys.exit(f"{url}: {errors.group(1)} answers were not 200")
    return rate, latency(50), latency(99)


if wrk_folder:
    count = json.load(open(os.path.join(wrk_folder, "wallet.json")))["lastTransactionNumber"]
    bearer = token(wrk_folder)
    server, port = start([binary, "server", "--port", "0"], dict(os.environ, MONKEYSHOP_DATA_DIR=wrk_folder))
    path = f"/inApps/v1/transactions/{max(1, count // 2)}"
    try:
        size = len(timed(port, bearer, path, 1)[2])
        shop = wrk(f"http://127.0.0.1:{port}{path}", bearer)
        memory = peak_memory(server.pid)
    finally:
        server.terminate()
        server.wait()
    floor_server, floor_port = start([minimal, "0", str(size)])
    try:
        floor = wrk(f"http://127.0.0.1:{floor_port}{path}", bearer)
    finally:
        floor_server.terminate()
        floor_server.wait()
    print()
    print(f"Get Transaction Info under wrk (2 threads, 16 connections, 10 s), {count:,} transactions, "
          f"{size}-byte answers")
    print(f"{'':<44}{'requests/s':>12}{'p50':>10}{'p99':>10}")
    print(f"  {'minimal Hummingbird route (the floor)':<42}{floor[0]:>12,.0f}{floor[1]:>7.2f} ms{floor[2]:>7.2f} ms")
    print(f"  {'monkeyshop server':<42}{shop[0]:>12,.0f}{shop[1]:>7.2f} ms{shop[2]:>7.2f} ms"
          f"   ({shop[0] / floor[0] * 100:.0f} % of the floor; server peak memory {memory:.1f} MB)")
