#!/usr/bin/env python3
"""Checks deploy/prometheus/alerts.yml beyond what promtool checks, and keeps the PrometheusRule in
k8s/components/monitoring equal to it.

  - every alert has a severity label (critical or warning) and summary, description and runbook_url
    annotations; runbook_url is deploy/RUNBOOK.md#<anchor> and the runbook has that heading;
  - every weiqi_* series an expression reads is a standard metric (shared/telemetry/src/names.rs),
    histograms read through _bucket/_sum/_count;
  - every link from one section of the runbook to another finds its heading;
  - k8s/components/monitoring/prometheusrule.yaml holds the same groups.

Usage: alerts.py            check
       alerts.py --write    rewrite prometheusrule.yaml from alerts.yml
"""

import re
import sys

import yaml

from common import ROOT, RUNBOOK, Failures, metric_names, runbook_anchors, series_names

ALERTS = ROOT / "deploy/prometheus/alerts.yml"
RULE = ROOT / "k8s/components/monitoring/prometheusrule.yaml"

HEADER = """\
# GENERATED from deploy/prometheus/alerts.yml by `python3 deploy/checks/alerts.py --write`: edit that
# file, not this one (deploy/check.sh fails when the two differ). The alerting rules as a Prometheus
# Operator PrometheusRule. The Prometheus must select it (ruleSelector: kube-prometheus-stack
# selects the label `release: <its release name>` unless told otherwise).
"""


def prometheus_rule(groups):
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {"name": "weiqi", "labels": {"app.kubernetes.io/name": "weiqi"}},
        "spec": {"groups": groups},
    }


def main():
    alerts = yaml.safe_load(ALERTS.read_text())
    groups = alerts["groups"]
    expected = prometheus_rule(groups)
    if sys.argv[1:] == ["--write"]:
        RULE.write_text(HEADER + yaml.safe_dump(expected, sort_keys=False, width=100, allow_unicode=True))
        print(f"wrote {RULE.relative_to(ROOT)}")
        return

    f = Failures("alerts")
    series = series_names(metric_names()) | {"up"}
    anchors = runbook_anchors()
    f.check(anchors, f"{ROOT / 'deploy/RUNBOOK.md'} is missing or has no headings")
    count = 0
    for group in groups:
        for rule in group["rules"]:
            name = rule.get("alert") or rule.get("record")
            count += 1
            if "alert" not in rule:
                continue
            labels, notes = rule.get("labels", {}), rule.get("annotations", {})
            f.check(labels.get("severity") in ("critical", "warning"), f"{name}: severity is {labels.get('severity')!r}")
            for key in ("summary", "description", "runbook_url"):
                f.check(notes.get(key), f"{name}: no {key} annotation")
            url = notes.get("runbook_url", "")
            m = re.fullmatch(r"deploy/RUNBOOK\.md#([\w-]+)", url)
            if f.check(m, f"{name}: runbook_url {url!r} is not deploy/RUNBOOK.md#<anchor>"):
                f.check(m.group(1) in anchors, f"{name}: RUNBOOK.md has no heading with the anchor #{m.group(1)}")
            for used in set(re.findall(r"\bweiqi_[a-z_]+", rule["expr"])):
                f.check(used in series, f"{name}: {used} is not a standard metric series (names.rs)")
    # The runbook's own links between its sections.
    if RUNBOOK.exists():
        for target in re.findall(r"\]\(#([^)]+)\)", RUNBOOK.read_text()):
            f.check(target in anchors, f"RUNBOOK.md links to #{target}, which is no heading")
    try:
        actual = yaml.safe_load(RULE.read_text())
    except FileNotFoundError:
        actual = None
    f.check(
        actual == expected,
        f"{RULE.relative_to(ROOT)} differs from alerts.yml: run `python3 deploy/checks/alerts.py --write`",
    )
    f.finish(f"{count} rules, runbook anchors and links, metric names, PrometheusRule in step")


if __name__ == "__main__":
    main()
