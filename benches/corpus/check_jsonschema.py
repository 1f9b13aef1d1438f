#!/usr/bin/env python3
"""Builds a benchmark data directory from schemas and documents that
schemavm was not tuned on: the schemas `check-jsonschema` ships
(schemastore's GitHub workflows, Renovate, Read the Docs, Citation File
Format, ...) with the example documents of its test suite, the OpenAPI
2.0, 3.0, 3.1 and 3.2 schemas `openapi-spec-validator` ships with the
API descriptions of its integration tests, and the Swagger 2.0 schema
with the Petstore examples of python-jsonschema's `issue232` benchmark.

    python3 benches/corpus/check_jsonschema.py DIR
    SCHEMAVM_BENCH_DATA=DIR cargo run --release -p schemavm-benches --bin report

DIR gets `cases.json` (one case per schema, its documents as instances),
an empty `errors.json`, and the files they name. The packages come from
PyPI (`pip download`, pinned versions); the YAML documents are read with
PyYAML (`pip install pyyaml`). Nothing is copied into the repository.
"""

import datetime
import glob
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile

CHECK_JSONSCHEMA = "check-jsonschema==0.39.0"
OPENAPI_SPEC_VALIDATOR = "openapi-spec-validator==0.9.0"
JSONSCHEMA = "jsonschema==4.26.0"


def download(spec, directory, source):
    """Downloads one package from PyPI into `directory`: its sdist when
    `source`, else its wheel."""
    kind = ["--no-binary", ":all:"] if source else ["--only-binary", ":all:"]
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", directory, *kind, spec],
        check=True,
    )


def plain(value):
    """A YAML document as JSON: dates as ISO strings, keys as strings."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    return value


def load(path):
    import yaml

    with open(path, encoding="utf-8") as f:
        if path.endswith(".json"):
            return json.load(f)
        return plain(yaml.safe_load(f))


def write(directory, name, value):
    with open(os.path.join(directory, name), "w", encoding="utf-8") as f:
        json.dump(value, f)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    cases = []
    with tempfile.TemporaryDirectory() as work:
        download(CHECK_JSONSCHEMA, work, source=True)
        download(OPENAPI_SPEC_VALIDATOR, work, source=True)
        download(JSONSCHEMA, work, source=False)
        for sdist in glob.glob(os.path.join(work, "*.tar.gz")):
            with tarfile.open(sdist) as tar:
                tar.extractall(work, filter="data")
        (root,) = glob.glob(os.path.join(work, "check_jsonschema-*/"))
        vendor = os.path.join(root, "src", "check_jsonschema", "builtin_schemas", "vendor")
        examples = os.path.join(root, "tests", "example-files", "hooks", "positive")
        for name in sorted(os.listdir(examples)):
            schema = os.path.join(vendor, name + ".json")
            if not os.path.exists(schema):
                continue
            instances = []
            for i, path in enumerate(sorted(glob.glob(os.path.join(examples, name, "*")))):
                if os.path.basename(path).startswith("_") or path.endswith(".json5"):
                    continue
                try:
                    document = load(path)
                except Exception as e:  # YAML with custom tags (GitLab's !reference)
                    print(f"skipped {path}: {e}", file=sys.stderr)
                    continue
                write(out, f"{name}-{i}.json", document)
                instances.append(f"{name}-{i}.json")
            if instances:
                write(out, f"{name}.schema.json", load(schema))
                cases.append({"name": name, "schema": f"{name}.schema.json", "instances": instances})
        (oas,) = glob.glob(os.path.join(work, "openapi_spec_validator-*/"))
        for version in ["v2.0", "v3.0", "v3.1", "v3.2"]:
            name = "openapi-" + version
            schema = os.path.join(oas, "openapi_spec_validator", "resources", "schemas", version, "schema.json")
            instances = []
            documents = sorted(glob.glob(os.path.join(oas, "tests", "integration", "data", version, "*.yaml")))
            for i, path in enumerate(documents):
                document = load(path)
                if document is None:  # an empty file
                    continue
                write(out, f"{name}-{i}.json", document)
                instances.append(f"{name}-{i}.json")
            write(out, f"{name}.schema.json", load(schema))
            cases.append({"name": name, "schema": f"{name}.schema.json", "instances": instances})
        (wheel,) = glob.glob(os.path.join(work, "jsonschema-*.whl"))
        with zipfile.ZipFile(wheel) as z:
            (issue,) = json.loads(z.read("jsonschema/benchmarks/issue232/issue.json"))
        write(out, "issue232.schema.json", issue["schema"])
        instances = []
        for i, test in enumerate(issue["tests"]):
            write(out, f"issue232-{i}.json", test["data"])
            instances.append(f"issue232-{i}.json")
        cases.append({"name": "issue232", "schema": "issue232.schema.json", "instances": instances})
    write(out, "cases.json", cases)
    write(out, "errors.json", [])
    print(f"{out}: {len(cases)} cases, {sum(len(c['instances']) for c in cases)} documents")


if __name__ == "__main__":
    main()
