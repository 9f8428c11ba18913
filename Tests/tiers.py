"""Sorts the tests into the tiers Tests/run runs, by their Swift Testing tags.

Reads the test list that `swift test list --experimental-event-stream-output FILE` writes with
SWT_EXPERIMENTAL_EVENT_STREAM_FIELDS_ENABLED=1 (one JSON record per test and suite, each with its
own `_tags`), gives every test function the tags of its suites too, and writes, for each tier, one
`--filter` regular expression per test into FOLDER/TIER.filters. A test goes to the last of its
tags in TIERS; a test with none of them goes to `untagged`, which Tests/run names and runs last.

Usage: python3 Tests/tiers.py LIST.jsonl FOLDER
"""

import json
import os
import re
import sys

TIERS = ["pure", "screen", "walkthroughs", "endToEnd", "needsPython", "crashSweep"]


def main(listing, folder):
    tags = {}
    functions = []
    with open(listing, encoding="utf-8") as records:
        for line in records:
            record = json.loads(line)
            if record.get("kind") != "test":
                continue
            test = record["payload"]
            own = {tag.lstrip(".") for tag in test.get("_tags", [])}
            if test["kind"] == "suite":
                tags[test["id"]] = own
            else:
                # `Module.Suite/function()/File.swift:line:column`: the name is all but the place.
                name = test["id"].rsplit("/", 1)[0]
                functions.append((name, own))
    if not functions:
        sys.exit("Tests/tiers.py: the test list names no test (" + listing + ")")
    if not any(tags.values()) and not any(own for _, own in functions):
        sys.exit(
            "Tests/tiers.py: the test list carries no tags: this toolchain's swift test does not report "
            "them (Swift 6.1 or later does, with SWT_EXPERIMENTAL_EVENT_STREAM_FIELDS_ENABLED=1)"
        )
    tiers = {tier: [] for tier in TIERS + ["untagged"]}
    for name, own in functions:
        parts = name.split("/")
        effective = set(own)
        for depth in range(1, len(parts)):
            effective |= tags.get("/".join(parts[:depth]), set())
        tier = next((t for t in reversed(TIERS) if t in effective), "untagged")
        tiers[tier].append(name)
    os.makedirs(folder, exist_ok=True)
    for tier, names in tiers.items():
        with open(os.path.join(folder, tier + ".filters"), "w", encoding="utf-8") as out:
            for name in sorted(set(names)):
                out.write("^" + re.escape(name) + "/\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
