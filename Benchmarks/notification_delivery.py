"""N refunds' App Store Server Notifications delivered to a receiver, with `monkeyshop server` killed
with SIGKILL and started again midway: none may be lost, and every notification received twice must
carry a notificationUUID already received (the sender resends what it cannot know was answered;
it never makes a second notification of one refund).

The folder is `monkeyshop-benchmarks --write-data-folder FOLDER N --stored-jws`; its notification
URL is the receiver (Tests/Receiver/notification_receiver.py, which verifies each with Apple's
App Store Server Library); each refund is `monkeyshop store refund ID`, a process of its own, while
the server sends. Prints the time to deliver them all and the counts; exits 1 when one was lost.

Runs under the Python of Apple's library: .build/test-python/bin/python (`Tests/run needsPython`).

Usage: notification_delivery.py MONKEYSHOP MONKEYSHOP_BENCHMARKS SCRATCH N"""
import base64, json, os, re, signal, subprocess, sys, time

binary, benchmarks, scratch, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
receiver_script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Receiver",
                               "notification_receiver.py")
folder = os.path.join(scratch, f"delivery-{count}")
subprocess.run([benchmarks, "--write-data-folder", folder, str(count), "--stored-jws"], check=True)
environment = dict(os.environ, MONKEYSHOP_DATA_DIR=folder)


def shop(*arguments):
    return subprocess.run([binary, *arguments], env=environment, check=True, capture_output=True, text=True).stdout


root = os.path.join(scratch, "root.der")
shop("store", "certificate", "--out", root)
bundle = json.loads(shop("server", "key", "--json"))["bundleID"]
port_file, log = os.path.join(scratch, "receiver-port"), os.path.join(scratch, "received.jsonl")
for path in (port_file, log):
    if os.path.exists(path):
        os.remove(path)
receiver = subprocess.Popen([sys.executable, receiver_script, port_file, log, root, "Sandbox", bundle])
while not os.path.exists(port_file) or not open(port_file).read().strip():
    time.sleep(0.05)
shop("store", "set", "notificationURL", f"http://127.0.0.1:{open(port_file).read().strip()}/")


def server():
    child = subprocess.Popen([binary, "server", "--port", "0"], env=environment, stdout=subprocess.PIPE, text=True)
    line = child.stdout.readline()
    if not re.search(r"listening on http://", line):
        sys.exit(f"the server did not start: {line!r}")
    return child


def transaction_id(notification):
    """The transaction ID of the notification's signedTransactionInfo (its payload, read)."""
    payload = notification["data"]["signedTransactionInfo"].split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["transactionId"]


def received():
    if not os.path.exists(log):
        return []
    return [json.loads(line) for line in open(log) if line.endswith("\n")]


started = time.monotonic()
running = server()
for number in range(1, count + 1):
    shop("store", "refund", str(number))
    if number == count // 2:
        running.send_signal(signal.SIGKILL)
        running.wait()
        running = server()
deadline = time.monotonic() + max(120, count * 0.2)
uuids = []
while time.monotonic() < deadline:
    uuids = [entry["notification"]["notificationUUID"] for entry in received()
             if entry.get("verified") and entry["notification"].get("notificationType") == "REFUND"]
    if len(set(uuids)) >= count:
        break
    time.sleep(0.5)
elapsed = time.monotonic() - started
running.terminate()
running.wait()
receiver.terminate()
receiver.wait()

seen, duplicates = set(), 0
for uuid in uuids:
    if uuid in seen:
        duplicates += 1
    seen.add(uuid)
# One notification per refund: a resend is the same notification (its UUID), never a second one.
per_transaction = {}
for entry in received():
    if entry.get("verified") and entry["notification"].get("notificationType") == "REFUND":
        per_transaction.setdefault(transaction_id(entry["notification"]), set()).add(
            entry["notification"]["notificationUUID"])
doubled = sum(1 for found in per_transaction.values() if len(found) > 1)
lost = count - len(seen)
print(f"{count:,} refunds, server killed (SIGKILL) after {count // 2:,}: {len(seen):,} notifications received "
      f"in {elapsed:.1f} s (refunds included), {lost:,} lost, {duplicates:,} received again "
      f"(each with a notificationUUID received before), {doubled:,} refunds notified twice under two UUIDs")
sys.exit(1 if lost or doubled else 0)
