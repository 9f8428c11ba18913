#!/usr/bin/env python3
"""Validates a monkeyshop command's JSON output against its published schema (docs/json/).

    validate_json.py SCHEMA_FILE OUTPUT_FILE [--lines]

SCHEMA_FILE names one of docs/json/*.schema.json; the schemas beside it are loaded too, so the
references between them resolve. OUTPUT_FILE holds one JSON document, or with --lines one per line
(JSON Lines). Prints "valid" and exits 0, or prints each violation (its place in the document and
what was expected) and exits 1. Needs jsonschema (python3 -m pip install jsonschema==4.26.0).
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def main() -> int:
    schema_path = pathlib.Path(sys.argv[1])
    output = pathlib.Path(sys.argv[2]).read_text(encoding="utf-8")
    lines = "--lines" in sys.argv[3:]
    resources = []
    for path in sorted(schema_path.parent.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(contents)
        resources.append((contents["$id"], Resource.from_contents(contents)))
    registry = Registry().with_resources(resources)
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema, registry=registry)
    documents = [json.loads(line) for line in output.splitlines() if line.strip()] if lines else [json.loads(output)]
    problems = []
    for index, document in enumerate(documents):
        for error in validator.iter_errors(document):
            place = "/".join(str(part) for part in error.absolute_path) or "(the document)"
            prefix = f"line {index + 1}: " if lines else ""
            problems.append(f"{prefix}{place}: {error.message}")
    if problems:
        print("\n".join(problems))
        return 1
    print("valid")
    return 0


if __name__ == "__main__":
    sys.exit(main())
