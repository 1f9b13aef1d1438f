#!/usr/bin/env python3
"""Writes seed corpora for the fuzz targets from the official JSON Schema
Test Suite.

    python3 fuzz/seed.py [SUITE_DIR]

SUITE_DIR defaults to $JSON_SCHEMA_TEST_SUITE, then
../shared/JSON-Schema-Test-Suite relative to the repository root. Writes
(git-ignored) fuzz/corpus/{schema_instance,differential,compile_bytes,regex}/:

* schema_instance, differential: `SCHEMA \\0 INSTANCE` for every test
  (`$schema` added for the draft of the file when the schema lacks one);
* compile_bytes: every schema alone;
* regex: `PATTERN \\0 HAYSTACK` for every `pattern`/`patternProperties`
  key in the suite, with the string instances of its tests.
"""
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DRAFTS = {
    "draft4": "http://json-schema.org/draft-04/schema#",
    "draft6": "http://json-schema.org/draft-06/schema#",
    "draft7": "http://json-schema.org/draft-07/schema#",
    "draft2019-09": "https://json-schema.org/draft/2019-09/schema",
    "draft2020-12": "https://json-schema.org/draft/2020-12/schema",
}


def suite_dir():
    if len(sys.argv) > 1:
        return sys.argv[1]
    env = os.environ.get("JSON_SCHEMA_TEST_SUITE")
    if env:
        return env
    return os.path.join(ROOT, "..", "shared", "JSON-Schema-Test-Suite")


def dump(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def write(target, data):
    out = os.path.join(HERE, "corpus", target)
    os.makedirs(out, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def patterns(schema, out):
    stack = [schema]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if isinstance(v.get("pattern"), str):
                out.add(v["pattern"])
            if isinstance(v.get("patternProperties"), dict):
                out.update(v["patternProperties"].keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def main():
    tests = os.path.join(suite_dir(), "tests")
    counts = {}
    for draft, uri in DRAFTS.items():
        for dirpath, _, files in os.walk(os.path.join(tests, draft)):
            for name in sorted(files):
                if not name.endswith(".json"):
                    continue
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    groups = json.load(f)
                for group in groups:
                    schema = group["schema"]
                    if isinstance(schema, dict) and "$schema" not in schema:
                        schema = {"$schema": uri, **schema}
                    s = dump(schema)
                    write("compile_bytes", s)
                    found = set()
                    patterns(schema, found)
                    for test in group["tests"]:
                        pair = s + b"\0" + dump(test["data"])
                        write("schema_instance", pair)
                        write("differential", pair)
                        for p in found:
                            hay = test["data"] if isinstance(test["data"], str) else ""
                            write("regex", p.encode() + b"\0" + hay.encode())
                            if isinstance(test["data"], dict):
                                for key in test["data"]:
                                    write("regex", p.encode() + b"\0" + key.encode())
                        counts[draft] = counts.get(draft, 0) + 1
    for target in ("schema_instance", "differential", "compile_bytes", "regex"):
        print(target, len(os.listdir(os.path.join(HERE, "corpus", target))))


if __name__ == "__main__":
    main()
