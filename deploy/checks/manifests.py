#!/usr/bin/env python3
"""Checks of the Kubernetes manifests and the compose file that no schema expresses.

  manifests.py k8s FILE...      rendered manifests (`kubectl kustomize` output), one file per target
  manifests.py k8s --base       k8s/base's files as they are (without kubectl: no generated objects)
  manifests.py compose FILE     deploy/docker-compose.yml

k8s:
  - every weiqi service (game, clock, tournament, ranking, gateway) listens on 0.0.0.0:8080
    (WEIQI_HTTP_ADDR), names that container port `http`, has a readiness probe on /readyz and a
    liveness probe on /healthz at port http, the liveness probe no quicker to act than the readiness
    probe, and carries the prometheus.io annotations;
  - every pod spec has automountServiceAccountToken: false, runs as non-root with a read-only root
    filesystem, no privilege escalation and every capability dropped;
  - NetworkPolicies: a default deny of ingress and egress exists; every workload is selected by a
    policy that allows something; only the gateway admits clients from outside the namespace (the
    `monitoring` namespace may reach the metrics ports only); and the policies, evaluated here as a
    network plugin would, allow exactly the connections the architecture needs and refuse the
    others (CONNECTIONS below);
  - a PodMonitor, where there is one, selects exactly the weiqi services' pods and scrapes a port
    they all have.

compose:
  - every weiqi service listens on 0.0.0.0:8080 and has a health check on /readyz; every service has
    CPU and memory limits; the start order waits for what each service needs.
"""

import ipaddress
import sys
from pathlib import Path

import yaml

from common import ROOT, Failures

NAMESPACE = "weiqi"
SERVICES = ["weiqi-game", "weiqi-clock", "weiqi-tournament", "weiqi-ranking", "weiqi-gateway"]
WEIQI_PODS = SERVICES + ["weiqi-admin"]
REDIS_USERS = ["weiqi-tournament", "weiqi-ranking", "weiqi-gateway"]
WORKLOADS = ("Deployment", "StatefulSet", "DaemonSet")

# Peers outside the namespace, as a network plugin would see them.
OUTSIDE = {
    "internet": {"ip": "203.0.113.7"},
    "ingress-controller": {"namespace": "ingress-nginx", "labels": {"app.kubernetes.io/name": "ingress-nginx"}},
    "prometheus": {"namespace": "monitoring", "labels": {"app.kubernetes.io/name": "prometheus"}},
    "kube-dns": {"namespace": "kube-system", "labels": {"k8s-app": "kube-dns"},
                 "ports": {"dns": (53, "UDP"), "dns-tcp": (53, "TCP")}},
    "stranger": {"namespace": "default", "labels": {"app": "something-else"}},
}


def connections():
    """(from, to, port, protocol, allowed): what the policies must allow, and must refuse."""
    out = []
    for pod in WEIQI_PODS:
        out += [(pod, "nats", 4222, "TCP", True), (pod, "otel-collector", 4317, "TCP", True),
                (pod, "kube-dns", 53, "UDP", True), (pod, "kube-dns", 53, "TCP", True),
                (pod, "redis", 6379, "TCP", pod in REDIS_USERS),
                (pod, "nats", 6222, "TCP", False), (pod, "internet", 443, "TCP", False)]
    for svc in SERVICES:
        out += [("prometheus", svc, 8080, "TCP", True),
                ("internet", svc, 8080, "TCP", svc == "weiqi-gateway"),
                ("stranger", svc, 8080, "TCP", svc == "weiqi-gateway")]
    out += [
        # Clients reach the gateway, from anywhere.
        ("internet", "weiqi-gateway", 50051, "TCP", True),
        ("ingress-controller", "weiqi-gateway", 50051, "TCP", True),
        ("ingress-controller", "weiqi-gateway", 8080, "TCP", True),
        # No service calls another directly: everything goes over NATS.
        ("weiqi-gateway", "weiqi-game", 8080, "TCP", False),
        ("weiqi-game", "weiqi-gateway", 50051, "TCP", False),
        ("weiqi-clock", "weiqi-game", 8080, "TCP", False),
        # NATS: routes between nodes, monitoring, DNS; nothing else in or out.
        ("nats", "nats", 6222, "TCP", True),
        ("nats", "kube-dns", 53, "UDP", True),
        ("prometheus", "nats", 8222, "TCP", True),
        ("nats", "internet", 443, "TCP", False),
        ("internet", "nats", 4222, "TCP", False),
        ("stranger", "nats", 4222, "TCP", False),
        ("ingress-controller", "nats", 4222, "TCP", False),
        ("redis", "nats", 4222, "TCP", False),
        ("otel-collector", "nats", 4222, "TCP", False),
        # Redis and the collector: only from the pods that use them.
        ("internet", "redis", 6379, "TCP", False),
        ("stranger", "redis", 6379, "TCP", False),
        ("prometheus", "redis", 6379, "TCP", False),
        ("internet", "otel-collector", 4317, "TCP", False),
        ("otel-collector", "internet", 443, "TCP", False),
        ("redis", "internet", 443, "TCP", False),
    ]
    return out


# ---------------------------------------------------------------------------------------------------
# Label selectors and NetworkPolicy evaluation.

def selects(selector, labels):
    """Whether a LabelSelector matches labels (None matches nothing; {} matches everything)."""
    if selector is None:
        return False
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for e in selector.get("matchExpressions") or []:
        key, op, values = e["key"], e["operator"], e.get("values") or []
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and labels.get(key) in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


class Peer:
    def __init__(self, name, namespace=None, labels=None, ports=None, ip=None):
        self.name, self.namespace, self.labels = name, namespace, labels or {}
        self.ports, self.ip = ports or {}, ip

    @property
    def namespace_labels(self):
        return {"kubernetes.io/metadata.name": self.namespace} if self.namespace else {}


def peer_matches(rule_peer, peer, policy_namespace):
    if "ipBlock" in rule_peer:
        if peer.ip is None:
            return False  # pods are matched by selectors; ipBlock is for addresses outside the cluster
        block = rule_peer["ipBlock"]
        addr = ipaddress.ip_address(peer.ip)
        if addr not in ipaddress.ip_network(block["cidr"]):
            return False
        return not any(addr in ipaddress.ip_network(c) for c in block.get("except", []))
    if peer.namespace is None:
        return False  # an address outside the cluster matches no selector
    ns_sel, pod_sel = rule_peer.get("namespaceSelector"), rule_peer.get("podSelector")
    if ns_sel is not None:
        if not selects(ns_sel, peer.namespace_labels):
            return False
    elif peer.namespace != policy_namespace:
        return False
    return pod_sel is None or selects(pod_sel, peer.labels)


def port_matches(rule_ports, port, protocol, target):
    if not rule_ports:
        return True
    for p in rule_ports:
        if p.get("protocol", "TCP") != protocol:
            continue
        want = p.get("port")
        if want is None:
            return True
        if isinstance(want, str):
            named = target.ports.get(want)
            if named and named == (port, protocol):
                return True
            continue
        if want <= port <= p.get("endPort", want):
            return True
    return False


def allowed_one_way(policies, subject, other, port, protocol, direction):
    """Whether `subject`'s policies let the connection through on its side (Ingress: `other`
    connects to subject; Egress: subject connects to `other`)."""
    if subject.namespace != NAMESPACE:
        return True  # not ours: the policies here say nothing about it
    mine = [p for p in policies if selects(p["spec"].get("podSelector"), subject.labels)
            and direction in p["spec"].get("policyTypes", ["Ingress"])]
    if not mine:
        return True  # not isolated in this direction
    key, peers_key = ("ingress", "from") if direction == "Ingress" else ("egress", "to")
    target = subject if direction == "Ingress" else other
    for p in mine:
        for rule in p["spec"].get(key) or []:
            peers = rule.get(peers_key)
            if not port_matches(rule.get("ports"), port, protocol, target):
                continue
            if not peers or any(peer_matches(r, other, NAMESPACE) for r in peers):
                return True
    return False


def allowed(policies, src, dst, port, protocol):
    return (allowed_one_way(policies, src, dst, port, protocol, "Egress")
            and allowed_one_way(policies, dst, src, port, protocol, "Ingress"))


# ---------------------------------------------------------------------------------------------------

def pod_of(workload):
    spec = workload["spec"]["template"]
    ports = {}
    for c in spec["spec"].get("containers", []):
        for p in c.get("ports", []):
            if "name" in p:
                ports[p["name"]] = (p["containerPort"], p.get("protocol", "TCP"))
    return Peer(workload["metadata"]["name"], NAMESPACE, spec["metadata"].get("labels", {}), ports)


def env_of(container):
    return {e["name"]: e.get("value") for e in container.get("env", [])}


def check_workloads(docs, f):
    workloads = {d["metadata"]["name"]: d for d in docs if d.get("kind") in WORKLOADS}
    for name in SERVICES:
        if not f.check(name in workloads, f"no workload {name}"):
            continue
        tmpl = workloads[name]["spec"]["template"]
        c = tmpl["spec"]["containers"][0]
        f.check(env_of(c).get("WEIQI_HTTP_ADDR") == "0.0.0.0:8080", f"{name}: WEIQI_HTTP_ADDR is not 0.0.0.0:8080")
        f.check(any(p.get("name") == "http" and p.get("containerPort") == 8080 for p in c.get("ports", [])),
                f"{name}: no container port `http` 8080")
        probes = {k: c.get(k) for k in ("readinessProbe", "livenessProbe", "startupProbe")}
        for kind, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
            get = (probes[kind] or {}).get("httpGet", {})
            f.check(get.get("path") == path and get.get("port") == "http",
                    f"{name}: {kind} is not httpGet {path} on port http")
        if probes["startupProbe"]:
            get = probes["startupProbe"].get("httpGet", {})
            f.check(get.get("path") == "/healthz" and get.get("port") == "http",
                    f"{name}: startupProbe is not httpGet /healthz on port http")
        r, l = probes["readinessProbe"] or {}, probes["livenessProbe"] or {}
        span = lambda p: p.get("periodSeconds", 10) * p.get("failureThreshold", 3)  # noqa: E731
        f.check(r.get("periodSeconds", 10) <= 10, f"{name}: readiness checked less often than every 10 s")
        f.check(span(l) >= span(r), f"{name}: liveness acts faster ({span(l)} s) than readiness ({span(r)} s)")
        notes = tmpl["metadata"].get("annotations", {})
        f.check(notes.get("prometheus.io/scrape") == "true" and notes.get("prometheus.io/port") == "8080",
                f"{name}: no prometheus.io/scrape and port annotations")
    for name, w in workloads.items():
        spec = w["spec"]["template"]["spec"]
        f.check(spec.get("automountServiceAccountToken") is False, f"{name}: automountServiceAccountToken is not false")
        f.check((spec.get("securityContext") or {}).get("runAsNonRoot") is True, f"{name}: runAsNonRoot is not set")
        for c in spec.get("containers", []) + spec.get("initContainers", []):
            sc = c.get("securityContext") or {}
            f.check(sc.get("readOnlyRootFilesystem") is True and sc.get("allowPrivilegeEscalation") is False
                    and (sc.get("capabilities") or {}).get("drop") == ["ALL"],
                    f"{name}/{c['name']}: securityContext lost readOnlyRootFilesystem, allowPrivilegeEscalation or drop ALL")
    return workloads


def check_policies(docs, workloads, f):
    policies = [d for d in docs if d.get("kind") == "NetworkPolicy"]
    if not f.check(policies, "no NetworkPolicy"):
        return 0
    for p in policies:
        f.check(p["metadata"].get("namespace", NAMESPACE) == NAMESPACE,
                f"NetworkPolicy {p['metadata']['name']} is not in namespace {NAMESPACE}")
    deny = [p for p in policies if p["spec"].get("podSelector") == {}
            and set(p["spec"].get("policyTypes", [])) == {"Ingress", "Egress"}
            and not p["spec"].get("ingress") and not p["spec"].get("egress")]
    f.check(deny, "no default-deny policy (podSelector {}, policyTypes Ingress and Egress, no rules)")
    pods = {name: pod_of(w) for name, w in workloads.items()}
    for name, pod in pods.items():
        opening = [p["metadata"]["name"] for p in policies if p not in deny
                   and selects(p["spec"].get("podSelector"), pod.labels)
                   and (p["spec"].get("ingress") or p["spec"].get("egress"))]
        f.check(opening, f"{name}: no policy allows it anything (only the default deny selects it)")
    # Ingress from outside the namespace: only to the gateway, or from `monitoring` to metrics ports.
    for p in policies:
        selected = [n for n, pod in pods.items() if selects(p["spec"].get("podSelector"), pod.labels)]
        for rule in p["spec"].get("ingress") or []:
            peers = rule.get("from")
            outside = not peers or any("ipBlock" in r or "namespaceSelector" in r for r in peers)
            if not outside:
                continue
            monitoring_only = peers and all(
                "ipBlock" not in r and (
                    "namespaceSelector" not in r
                    or r["namespaceSelector"] == {"matchLabels": {"kubernetes.io/metadata.name": "monitoring"}})
                for r in peers)
            metric_ports = {q.get("port") for q in rule.get("ports") or [{}]} <= {8080, "http", 8222, "monitor"}
            if monitoring_only and metric_ports:
                continue
            f.check(selected == ["weiqi-gateway"],
                    f"NetworkPolicy {p['metadata']['name']} admits traffic from outside the namespace to {selected}")
    everyone = dict(pods)
    for name, o in OUTSIDE.items():
        everyone[name] = Peer(name, o.get("namespace"), o.get("labels"), o.get("ports"), o.get("ip"))
    count = 0
    for src, dst, port, proto, want in connections():
        if not f.check(src in everyone and dst in everyone, f"connection {src} -> {dst}: unknown workload"):
            continue
        got = allowed(policies, everyone[src], everyone[dst], port, proto)
        count += 1
        f.check(got == want, f"{src} -> {dst}:{port}/{proto} is {'allowed' if got else 'refused'}, "
                f"should be {'allowed' if want else 'refused'}")
    return count


def check_podmonitors(docs, workloads, f):
    monitors = [d for d in docs if d.get("kind") == "PodMonitor"]
    for m in monitors:
        name = m["metadata"]["name"]
        f.check(m.get("apiVersion") == "monitoring.coreos.com/v1", f"PodMonitor {name}: apiVersion")
        spec = m.get("spec", {})
        selected = sorted(n for n, w in workloads.items()
                          if selects(spec.get("selector"), w["spec"]["template"]["metadata"].get("labels", {})))
        f.check(selected == sorted(SERVICES), f"PodMonitor {name} selects {selected}, not the weiqi services")
        for ep in spec.get("podMetricsEndpoints", []):
            for n in selected:
                f.check(ep.get("port") in pod_of(workloads[n]).ports, f"PodMonitor {name}: {n} has no port {ep.get('port')}")
            f.check(ep.get("path", "/metrics") == "/metrics", f"PodMonitor {name}: path is not /metrics")
        job = spec.get("jobLabel")
        if job:
            for n in selected:
                f.check(job in workloads[n]["spec"]["template"]["metadata"].get("labels", {}),
                        f"PodMonitor {name}: {n}'s pods have no label {job} (jobLabel)")
    return len(monitors)


def load_base():
    kustomization = yaml.safe_load((ROOT / "k8s/base/kustomization.yaml").read_text())
    docs = []
    for r in kustomization["resources"]:
        docs += [d for d in yaml.safe_load_all((ROOT / "k8s/base" / r).read_text()) if d]
    return docs


def k8s(args):
    targets = [("k8s/base (files as they are)", load_base())] if args == ["--base"] else \
        [(a, [d for d in yaml.safe_load_all(Path(a).read_text()) if d]) for a in args]
    for label, docs in targets:
        f = Failures(label)
        workloads = check_workloads(docs, f)
        n = check_policies(docs, workloads, f)
        m = check_podmonitors(docs, workloads, f)
        f.finish(f"probes and pod hardening of {len(workloads)} workloads; "
                 f"{len([d for d in docs if d.get('kind') == 'NetworkPolicy'])} NetworkPolicies, "
                 f"{n} connections evaluated" + (f"; {m} PodMonitor" if m else ""))


def compose(path):
    f = Failures(path)
    d = yaml.safe_load(Path(path).read_text())
    services = d["services"]
    weiqi = {"game", "clock", "tournament", "ranking", "gateway"}
    for name, s in services.items():
        limits = (((s.get("deploy") or {}).get("resources") or {}).get("limits") or {})
        f.check(limits.get("cpus") and limits.get("memory"), f"{name}: no deploy.resources.limits cpus and memory")
        f.check("mem_limit" not in s or s["mem_limit"] == limits.get("memory"),
                f"{name}: mem_limit and deploy.resources.limits.memory differ")
    for name in weiqi:
        s = services.get(name)
        if not f.check(s, f"no service {name}"):
            continue
        f.check((s.get("environment") or {}).get("WEIQI_HTTP_ADDR") == "0.0.0.0:8080",
                f"{name}: WEIQI_HTTP_ADDR is not 0.0.0.0:8080")
        hc = s.get("healthcheck") or {}
        f.check(not hc.get("disable") and "/readyz" in " ".join(hc.get("test", [])),
                f"{name}: no health check on /readyz")
        deps = s.get("depends_on") or {}
        for n in ("nats-1", "nats-2", "nats-3"):
            f.check((deps.get(n) or {}).get("condition") == "service_healthy", f"{name}: does not wait for {n} healthy")
        want = {"redis": "service_healthy"} if name in {"tournament", "ranking", "gateway"} else {}
        if name in {"clock", "tournament", "gateway"}:
            want["game"] = "service_healthy"
        if name in {"ranking", "gateway"}:
            want["keys"] = "service_completed_successfully"
        for n, cond in want.items():
            f.check((deps.get(n) or {}).get("condition") == cond, f"{name}: does not wait for {n} ({cond})")
    f.finish(f"{len(services)} services: limits; {len(weiqi)} weiqi services: HTTP address, /readyz health checks, start order")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "k8s":
        k8s(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "compose":
        compose(sys.argv[2])
    else:
        sys.exit(__doc__)
