#!/usr/bin/env python3
"""A developer's server receiving monkeyshop's App Store Server Notifications V2.

    notification_receiver.py PORT_FILE LOG_FILE ROOT_DER ENVIRONMENT BUNDLE_ID [ANSWER,...]

Listens on 127.0.0.1 (a free port, written to PORT_FILE once ready) for POSTs of
{"signedPayload": ...}, verifies each with Apple's App Store Server Library as a server does
(SignedDataVerifier.verify_and_decode_notification with the root `monkeyshop store certificate`
exported, online checks off), and its signedTransactionInfo with verify_and_decode_signed_transaction.
Appends one JSON line per request to LOG_FILE: {"request", "answer", "contentType", "verified",
"status", "notification" (the decoded payload), "transactionVerified", "transaction"}.

ANSWERS: the HTTP status of the 1st, 2nd, ... request (then 200); `hang` never answers (the sender
times out); `drip` answers 200 with `Content-Length: 100000` and then sends one byte of body every
0.5 s until the sender hangs up, then logs {"request", "hungUpAfter" (seconds since the status
line), "bytes"}. Each request is served on its own thread, so one that hangs holds up no other.
Exit 3 when the library is missing.
"""

import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

try:
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError as error:
    print(f"Apple's App Store Server Library is not installed ({error})", file=sys.stderr)
    sys.exit(3)


def claims(jws):
    part = jws.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def main(port_file, log_file, root_path, environment, bundle_id, answers):
    with open(root_path, "rb") as file:
        root = file.read()
    verifier = SignedDataVerifier([root], False, Environment(environment), bundle_id)
    lock = threading.Lock()
    count = [0]

    class Receiver(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            with lock:
                index = count[0]
                count[0] += 1
            answer = answers[index] if index < len(answers) else "200"
            entry = {"request": index + 1, "answer": answer, "contentType": self.headers.get("Content-Type")}
            try:
                signed = json.loads(body)["signedPayload"]
                entry["notification"] = claims(signed)
                verifier.verify_and_decode_notification(signed)
                entry["verified"] = True
            except VerificationException as error:
                entry["verified"] = False
                entry["status"] = error.status.name
            except Exception as error:  # not JSON, no signedPayload: what a server would refuse
                entry["verified"] = False
                entry["status"] = repr(error)
            info = entry.get("notification", {}).get("data", {}).get("signedTransactionInfo")
            if info:
                entry["transaction"] = claims(info)
                try:
                    verifier.verify_and_decode_signed_transaction(info)
                    entry["transactionVerified"] = True
                except VerificationException as error:
                    entry["transactionVerified"] = False
                    entry["transactionStatus"] = error.status.name
            with lock:
                with open(log_file, "a") as log:
                    log.write(json.dumps(entry) + "\n")
            if answer == "hang":
                time.sleep(600)
                return
            if answer == "drip":
                self.send_response(200)
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.flush()
                answered = time.monotonic()
                sent = 0
                try:
                    while sent < 100000:
                        time.sleep(0.5)
                        self.wfile.write(b"x")
                        sent += 1
                except OSError:
                    pass
                with lock:
                    with open(log_file, "a") as log:
                        hung_up = {"request": index + 1, "hungUpAfter": time.monotonic() - answered, "bytes": sent}
                        log.write(json.dumps(hung_up) + "\n")
                self.close_connection = True
                return
            self.send_response(int(answer))
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    server.daemon_threads = True
    with open(port_file + ".tmp", "w") as file:
        file.write(str(server.server_address[1]))
    import os

    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    main(*sys.argv[1:6], answers=sys.argv[6].split(",") if len(sys.argv) > 6 and sys.argv[6] else [])
