#!/usr/bin/env python3
"""Verifies monkeyshop's signed transactions with Apple's App Store Server Library.

    verify_signed_transactions.py ROOT_DER ENVIRONMENT BUNDLE_ID JWS_FILE

ROOT_DER is the root `monkeyshop store certificate --out` exported, ENVIRONMENT one of Apple's
(Sandbox, Xcode, LocalTesting), JWS_FILE one signed transaction per line. Prints JSON lines: first
what checks them ({"library", "openssl", "strict"}), then for each signed transaction either
{"verified": true, "payload": {...}} or {"verified": false, "status": "VERIFICATION_FAILURE"}.

The verifier is built as a server under test builds it: SignedDataVerifier with the exported root,
online checks off, the environment and the bundle ID given
(https://github.com/apple/app-store-server-library-python). Exit 3 when the library is missing.
"""

import enum
import json
import sys

INSTALL = "python3 -m pip install app-store-server-library==3.1.2"

try:
    from importlib.metadata import version

    import attrs
    from OpenSSL import SSL
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationException
except ImportError as error:
    print(f"Apple's App Store Server Library is not installed ({error}); install it with: {INSTALL}", file=sys.stderr)
    sys.exit(3)


def plain(value):
    return value.value if isinstance(value, enum.Enum) else value


def main(root_path, environment, bundle_id, jws_path):
    with open(root_path, "rb") as file:
        root = file.read()
    verifier = SignedDataVerifier([root], False, Environment(environment), bundle_id)
    print(json.dumps({
        "library": version("app-store-server-library"),
        "openssl": SSL.SSLeay_version(SSL.SSLEAY_VERSION).decode(),
        # X509_STRICT is set on the chain's store while this is true (the library's default).
        "strict": verifier._chain_verifier.enable_strict_checks,
    }))
    with open(jws_path) as file:
        signed_transactions = [line.strip() for line in file if line.strip()]
    for jws in signed_transactions:
        try:
            payload = verifier.verify_and_decode_signed_transaction(jws)
        except VerificationException as error:
            print(json.dumps({"verified": False, "status": error.status.name}))
            continue
        fields = {key: plain(value) for key, value in attrs.asdict(payload, recurse=False).items()}
        print(json.dumps({"verified": True, "payload": {k: v for k, v in fields.items() if v is not None}}))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    main(*sys.argv[1:])
