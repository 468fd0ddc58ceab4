#!/usr/bin/python3
"""Validates JSON files against one of clcapture's schemas (Debian's python3-jsonschema).

usage: validate.py --schema SCHEMA [--expect-invalid] FILE...

Prints one line per file. With --expect-invalid every file must be rejected (this keeps the schema honest:
a schema that accepts everything would pass the positive checks too). Exit status 0 when every file met
the expectation, 1 otherwise, 2 on a usage or I/O problem.
"""
import argparse
import json
import sys

import jsonschema


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schema", required=True)
    parser.add_argument("--expect-invalid", action="store_true")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    try:
        with open(args.schema, encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.SchemaError) as e:
        print(f"{args.schema}: cannot use schema: {e}", file=sys.stderr)
        return 2
    validator = jsonschema.Draft202012Validator(schema)
    failures = 0
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as f:
                document = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{path}: cannot read: {e}", file=sys.stderr)
            return 2
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
        if args.expect_invalid:
            if errors:
                where = "/".join(str(p) for p in errors[0].absolute_path) or "(root)"
                print(f"{path}: rejected as expected at {where}: {errors[0].message[:160]}")
            else:
                print(f"{path}: error: accepted, but it is invalid")
                failures += 1
        else:
            for e in errors:
                where = "/".join(str(p) for p in e.absolute_path) or "(root)"
                print(f"{path}: error: at {where}: {e.message[:300]}")
            if errors:
                failures += 1
            else:
                print(f"{path}: valid")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
