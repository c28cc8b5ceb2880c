#!/usr/bin/env bash
# Offline checks of deploy/ and k8s/ (no Docker engine or cluster needed). Each check runs when its
# tool is installed and is reported as skipped otherwise:
#
#   python3 + PyYAML      every YAML file parses; deploy/checks/*.py (always):
#                           manifests.py  probes, ports, pod hardening, PodMonitor, NetworkPolicies
#                                         (a connectivity matrix evaluated as a network plugin would);
#                                         compose health checks, limits, start order
#                           alerts.py     alert labels and annotations, runbook anchors, metric names,
#                                         the PrometheusRule in step with alerts.yml
#                           dashboard.py  the Grafana dashboard's structure, data source, variables and
#                                         metric names
#   nats-server           deploy/nats/*.conf and the rendered k8s nats.conf pass `nats-server -t`
#   kubectl (kustomize)   k8s/base and every overlay render (without it: manifests.py on k8s/base's files)
#   kubernetes-validate   every rendered object matches the Kubernetes schemas (--strict)
#   check-jsonschema      docker-compose.yml matches the compose specification
#   promtool              prometheus.yml (`check config`), alerts.yml (`check rules`, `test rules`), and
#                         every dashboard query parses as PromQL
#   node + deploy/checks/grafana-schema/node_modules (`npm ci` there)
#                         the dashboard type-checks against Grafana's own types (@grafana/schema)
#   hadolint              deploy/Dockerfile lint
#
# Usage: deploy/check.sh        (from anywhere; exits non-zero on the first failing check)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

have() { command -v "$1" >/dev/null 2>&1; }
skip() { echo "skip: $1 (not installed)"; }
checks=deploy/checks

echo "== tools"
python3 --version
have nats-server && echo "nats-server $(nats-server --version 2>&1 | head -1)"
have kubectl && kubectl version --client 2>/dev/null | head -2 | tr '\n' ' ' && echo
have kubernetes-validate && echo "kubernetes-validate $(kubernetes-validate --version 2>&1 | head -1)"
have check-jsonschema && check-jsonschema --version | head -1
have promtool && promtool --version 2>&1 | head -1
have node && echo "node $(node --version)"
have hadolint && hadolint --version | head -1

echo "== YAML"
python3 - <<'EOF'
import glob, yaml
files = ["deploy/docker-compose.yml", "deploy/otel-collector.yaml", "deploy/prometheus.yml"]
files += sorted(glob.glob("deploy/prometheus/*.yml"))
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

echo "== Kubernetes manifests"
if have kubectl; then
    rendered=()
    for target in base overlays/dev overlays/production overlays/production-monitoring; do
        out="$tmp/$(echo "$target" | tr / -).yaml"
        kubectl kustomize "k8s/$target" >"$out"
        rendered+=("$out")
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
            # The Prometheus Operator's kinds have no schema there: manifests.py and alerts.py check them.
            python3 - "$out" "$tmp/core.yaml" <<'EOF'
import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and not d["apiVersion"].startswith("monitoring.coreos.com/")]
yaml.safe_dump_all(docs, open(sys.argv[2], "w"))
EOF
            kubernetes-validate --strict --quiet "$tmp/core.yaml"
            echo "ok k8s/$target: schemas"
        fi
    done
    have kubernetes-validate || skip kubernetes-validate
    python3 "$checks/manifests.py" k8s "${rendered[@]}"
else
    echo "skip: kubectl (not installed); checking k8s/base's files as they are"
    python3 "$checks/manifests.py" k8s --base
fi

echo "== compose"
if have check-jsonschema; then
    check-jsonschema --builtin-schema vendor.compose-spec deploy/docker-compose.yml
else
    skip check-jsonschema
fi
python3 "$checks/manifests.py" compose deploy/docker-compose.yml

echo "== Prometheus: configuration and alerting rules"
if have promtool; then
    # prometheus.yml names its rule file relative to itself (prometheus/alerts.yml), as it is mounted in
    # the container: checking the file where it is checks that path too.
    promtool check config deploy/prometheus.yml
    promtool check rules deploy/prometheus/alerts.yml
    promtool test rules deploy/prometheus/alerts.test.yml
else
    skip promtool
fi
python3 "$checks/alerts.py"

echo "== Grafana dashboard"
python3 "$checks/dashboard.py"

echo "== Dockerfile"
if have hadolint; then
    hadolint deploy/Dockerfile && echo "ok deploy/Dockerfile"
else
    skip hadolint
fi

echo "all checks passed"
