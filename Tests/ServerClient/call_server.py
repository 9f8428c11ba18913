#!/usr/bin/env python3
"""Calls a running `monkeyshop server` with Apple's App Store Server Library, as a developer's server would.

    call_server.py BASE_URL KEY_P8 KEY_ID ISSUER_ID BUNDLE_ID ROOT_DER ENVIRONMENT CALLS_JSON

CALLS_JSON is a list of calls, each {"op": NAME, ...arguments}. The client is Apple's
AppStoreServerAPIClient with its base URL set to BASE_URL (`client._base_url`, the attribute its
`_get_full_url` reads in app-store-server-library 3.1.2). Every signed transaction a response holds is
verified with Apple's SignedDataVerifier (the root given, online checks off, ENVIRONMENT, BUNDLE_ID).

Prints one JSON line per call: {"op", "ok": true, "response": {...}} with each signed transaction
replaced by its verified payload, or {"op", "ok": false, "status", "errorCode", "errorMessage"} for an
APIException. Ops "token" send a hand-made token with `requests` and print {"status", "contentType",
"body"}. Exit 3 when the library is missing.
"""

import datetime
import enum
import json
import sys
import uuid
import warnings

# send_consumption_data (Send Consumption Information V1) is deprecated in the library; it is called
# on purpose.
warnings.simplefilter("ignore", DeprecationWarning)

try:
    import attrs
    import jwt
    import requests
    from appstoreserverlibrary.api_client import APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
    from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
    from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
    from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
    from appstoreserverlibrary.models.Environment import Environment
    from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
    from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
    from appstoreserverlibrary.models.InAppOwnershipType import InAppOwnershipType
    from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
    from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
    from appstoreserverlibrary.models.RefundPreference import RefundPreference
    from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
    from appstoreserverlibrary.models.UpdateAppAccountTokenRequest import UpdateAppAccountTokenRequest
    from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives import serialization
except ImportError as error:
    print(f"Apple's App Store Server Library is not installed ({error})", file=sys.stderr)
    sys.exit(3)


def plain(value):
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def fields(model):
    return {key: plain(value) for key, value in attrs.asdict(model, recurse=False).items() if value is not None}


def deep(value):
    """A library model with its nested models, as JSON values."""
    if attrs.has(type(value)):
        return {key: deep(item) for key, item in attrs.asdict(value, recurse=False).items() if item is not None}
    if isinstance(value, list):
        return [deep(item) for item in value]
    return plain(value)


class Caller:
    def __init__(self, base_url, key_path, key_id, issuer_id, bundle_id, root_path, environment):
        with open(key_path, "rb") as file:
            self.key = file.read()
        with open(root_path, "rb") as file:
            root = file.read()
        self.base_url = base_url
        self.key_id, self.issuer_id, self.bundle_id = key_id, issuer_id, bundle_id
        # The client's environment only picks Apple's URL, replaced here.
        self.client = AppStoreServerAPIClient(self.key, key_id, issuer_id, bundle_id, Environment.SANDBOX)
        self.client._base_url = base_url
        self.verifier = SignedDataVerifier([root], False, Environment(environment), bundle_id)

    def verified(self, response):
        result = fields(response)
        for name in ("signedTransactions",):
            if name in result:
                result[name] = [fields(self.verifier.verify_and_decode_signed_transaction(jws)) for jws in result[name]]
        if "signedTransactionInfo" in result:
            result["signedTransactionInfo"] = fields(
                self.verifier.verify_and_decode_signed_transaction(result["signedTransactionInfo"]))
        if "signedAppTransactionInfo" in result:
            result["signedAppTransactionInfo"] = fields(
                self.verifier.verify_and_decode_app_transaction(result["signedAppTransactionInfo"]))
        return result

    def history_request(self, call):
        return TransactionHistoryRequest(
            sort=Order(call["sort"]) if "sort" in call else None,
            productTypes=[ProductType(value) for value in call["productTypes"]] if "productTypes" in call else None,
            productIds=call.get("productIds"),
            startDate=call.get("startDate"),
            endDate=call.get("endDate"),
            revoked=call.get("revoked"),
            inAppOwnershipType=InAppOwnershipType(call["inAppOwnershipType"]) if "inAppOwnershipType" in call else None,
        )

    def run(self, call):
        op = call["op"]
        client = self.client
        if op == "transaction_info":
            return self.verified(client.get_transaction_info(call["id"]))
        if op in ("history_v1", "history_v2"):
            version = GetTransactionHistoryVersion.V1 if op == "history_v1" else GetTransactionHistoryVersion.V2
            pages = []
            revision = call.get("revision")
            while True:
                page = self.verified(client.get_transaction_history(
                    call["id"], revision, self.history_request(call), version))
                pages.append(page)
                revision = page.get("revision")
                if not call.get("allPages") or not page.get("hasMore"):
                    break
            return {"pages": pages}
        if op == "refund_history":
            pages = []
            revision = call.get("revision")
            while True:
                page = self.verified(client.get_refund_history(call["id"], revision))
                pages.append(page)
                revision = page.get("revision")
                if not call.get("allPages") or not page.get("hasMore"):
                    break
            return {"pages": pages}
        if op == "look_up_order":
            return self.verified(client.look_up_order_id(call["orderId"]))
        if op == "consumption":
            request = ConsumptionRequest(
                customerConsented=call.get("customerConsented", True),
                deliveryStatus=DeliveryStatus(call.get("deliveryStatus", "DELIVERED")),
                sampleContentProvided=call.get("sampleContentProvided", False),
                consumptionPercentage=call.get("consumptionPercentage"),
                refundPreference=RefundPreference(call["refundPreference"]) if "refundPreference" in call else None,
            )
            client.send_consumption_information(call["id"], request)
            return {}
        if op == "consumption_v1":
            request = ConsumptionRequestV1(
                customerConsented=True, rawConsumptionStatus=1, rawPlatform=1, sampleContentProvided=False,
                rawDeliveryStatus=call.get("deliveryStatus", 0), appAccountToken="", rawAccountTenure=4,
                rawPlayTime=5, rawLifetimeDollarsRefunded=1, rawLifetimeDollarsPurchased=3, rawUserStatus=1,
                rawRefundPreference=3)
            client.send_consumption_data(call["id"], request)
            return {}
        if op == "set_app_account_token":
            client.set_app_account_token(call["id"], UpdateAppAccountTokenRequest(appAccountToken=call["token"]))
            return {}
        if op == "app_transaction_info":
            return self.verified(client.get_app_transaction_info(call["id"]))
        if op == "subscription_statuses":
            return fields(client.get_all_subscription_statuses(call["id"]))
        if op == "extend":
            request = ExtendRenewalDateRequest(extendByDays=3, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier=str(uuid.uuid4()))
            return fields(client.extend_subscription_renewal_date(call["id"], request))
        if op == "request_test_notification":
            return fields(client.request_test_notification())
        if op == "test_notification_status":
            response = client.get_test_notification_status(call["token"])
            return {"notification": deep(self.verifier.verify_and_decode_notification(response.signedPayload)),
                    "sendAttempts": deep(response.sendAttempts)}
        if op == "notification_history":
            request = NotificationHistoryRequest(
                startDate=call.get("startDate"), endDate=call.get("endDate"),
                notificationType=NotificationTypeV2(call["notificationType"]) if "notificationType" in call else None,
                transactionId=call.get("transactionId"), onlyFailures=call.get("onlyFailures"))
            pages = []
            token = None
            while True:
                page = client.get_notification_history(token, request)
                pages.append({"hasMore": page.hasMore, "items": [
                    {"notification": deep(self.verifier.verify_and_decode_notification(item.signedPayload)),
                     "sendAttempts": deep(item.sendAttempts)} for item in page.notificationHistory]})
                token = page.paginationToken
                if not call.get("allPages") or not page.hasMore:
                    break
            return {"pages": pages}
        if op == "raw":
            return self.raw(call)
        if op == "token":
            return self.token(call)
        raise ValueError(f"unknown op {op}")

    def raw(self, call):
        """A request as the client sends it, with a body or query of the test's own."""
        headers = {"Authorization": f"Bearer {self.make_token({})}"}
        response = requests.request(
            call.get("method", "GET"), self.base_url + call["path"], headers=headers,
            data=call.get("body", "").encode("utf-8") if "body" in call else None, timeout=30)
        return {"status": response.status_code, "contentType": response.headers.get("content-type"),
                "body": response.text}

    def make_token(self, spec):
        now = datetime.datetime.now(datetime.timezone.utc)
        claims = {"bid": self.bundle_id, "iss": self.issuer_id, "aud": "appstoreconnect-v1",
                  "exp": int((now + datetime.timedelta(minutes=5)).timestamp())}
        claims.update(spec.get("claims", {}))
        for name in spec.get("without", []):
            claims.pop(name, None)
        key = serialization.load_pem_private_key(self.key, password=None)
        if spec.get("otherKey"):
            key = ec.generate_private_key(ec.SECP256R1())
        return jwt.encode(claims, key, algorithm="ES256", headers={"kid": spec.get("kid", self.key_id)})

    def token(self, call):
        spec = call.get("spec", {})
        now = int(datetime.datetime.now(datetime.timezone.utc).timestamp())
        # Relative times: "exp": -60 is a minute ago.
        for name in ("exp", "iat"):
            if name in spec.get("relative", {}):
                spec.setdefault("claims", {})[name] = now + spec["relative"][name]
        headers = {}
        if not spec.get("missing"):
            headers["Authorization"] = spec.get("header") or f"Bearer {self.make_token(spec)}"
        response = requests.get(self.base_url + call.get("path", "/inApps/v1/transactions/1"), headers=headers,
                                timeout=30)
        return {"status": response.status_code, "contentType": response.headers.get("content-type"),
                "body": response.text}


def main(base_url, key_path, key_id, issuer_id, bundle_id, root_path, environment, calls_json):
    caller = Caller(base_url, key_path, key_id, issuer_id, bundle_id, root_path, environment)
    for call in json.loads(calls_json):
        try:
            print(json.dumps({"op": call["op"], "ok": True, "response": caller.run(call)}), flush=True)
        except APIException as error:
            print(json.dumps({"op": call["op"], "ok": False, "status": error.http_status_code,
                              "errorCode": error.raw_api_error, "errorMessage": error.error_message}), flush=True)
        except Exception as error:  # What the library raised, for the test to show.
            print(json.dumps({"op": call["op"], "ok": False, "exception": repr(error)}), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 9:
        print(__doc__, file=sys.stderr)
        sys.exit(64)
    main(*sys.argv[1:])
