#!/usr/bin/env bash
# Offline checks of deploy/ and k8s/ (no Docker engine or cluster needed). Each check runs when its
# tool is installed and is reported as skipped otherwise:
#
#   python3 + PyYAML      every YAML file parses
#   nats-server           deploy/nats/*.conf and the rendered k8s nats.conf pass `nats-server -t`
#   kubectl (kustomize)   k8s/base and both overlays render
#   kubernetes-validate   every rendered object matches the Kubernetes schemas (--strict)
#   check-jsonschema      docker-compose.yml matches the compose specification
#   hadolint              deploy/Dockerfile lint
#
# Usage: deploy/check.sh        (from anywhere; exits non-zero on the first failure)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have() { command -v "$1" >/dev/null 2>&1; }
skip() { echo "skip: $1 (not installed)"; }

echo "== YAML"
python3 - <<'EOF'
import glob, yaml
files = ["deploy/docker-compose.yml", "deploy/otel-collector.yaml", "deploy/prometheus.yml"]
files += sorted(glob.glob("k8s/**/*.yaml", recursive=True))
for f in files:
    list(yaml.safe_load_all(open(f)))
    print("ok", f)
EOF

echo "== NATS configuration"
if have nats-server; then
    NATS_SERVER_NAME=nats-1 nats-server -c deploy/nats/cluster.conf -t
    nats-server -c deploy/nats/single.conf -t
else
    skip nats-server
fi

echo "== kustomize"
if have kubectl; then
    for target in base overlays/dev overlays/production; do
        out="$tmp/$(echo "$target" | tr / -).yaml"
        kubectl kustomize "k8s/$target" >"$out"
        echo "ok k8s/$target: $(grep -c '^kind:' "$out") objects"
        if have nats-server; then
            python3 - "$out" "$tmp/nats.conf" <<'EOF'
import sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d and d["kind"] == "ConfigMap" and d["metadata"]["name"] == "nats-config":
        open(sys.argv[2], "w").write(d["data"]["nats.conf"])
EOF
            SERVER_NAME=nats-0 JS_MAX_MEMORY_STORE=256MB JS_MAX_FILE_STORE=18GB nats-server -c "$tmp/nats.conf" -t
        fi
        if have kubernetes-validate; then
            kubernetes-validate --strict --quiet "$out"
            echo "ok k8s/$target: schemas"
        fi
    done
    have kubernetes-validate || skip kubernetes-validate
else
    skip kubectl
fi

echo "== compose specification"
if have check-jsonschema; then
    check-jsonschema --builtin-schema vendor.compose-spec deploy/docker-compose.yml
else
    skip check-jsonschema
fi

echo "== Dockerfile"
if have hadolint; then
    hadolint deploy/Dockerfile && echo "ok deploy/Dockerfile"
else
    skip hadolint
fi

echo "all checks passed"
