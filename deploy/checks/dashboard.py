#!/usr/bin/env python3
"""Checks deploy/grafana/weiqi-dashboard.json, offline.

Always (Python only):
  - the dashboard's shape: title, uid, schemaVersion, time, templating; unique panel ids; every
    panel inside the 24-column grid and no two overlapping; rows ordered;
  - the data source: a `datasource` template variable of type prometheus, and every panel, target
    and query variable uses it (`${datasource}`); `job` and `instance` query variables exist, every
    query filters by both, and every `$variable` a query uses is defined (or one of Grafana's);
  - the metrics: every weiqi_* series a query reads is a standard metric
    (shared/telemetry/src/names.rs), histograms read through _bucket with `le` kept by the sum, and
    every standard metric is on the dashboard (but those listed in NOT_SHOWN).

With promtool: every query (and every variable's label_values selector) parses as PromQL, after
Grafana's variables are replaced by values (`promtool check rules` on a rule file made of them).

With deploy/checks/grafana-schema/node_modules (`npm ci` there): the dashboard type-checks against
Grafana's own generated types in @grafana/schema (the Dashboard, Panel, RowPanel and VariableModel
of the dashboard schema, and each panel type's Options and FieldConfig), as an object literal, so
TypeScript also refuses properties those types do not have. Enums become unions of their values
first, as JSON holds values, not enum members.

Usage: dashboard.py [FILE]     exit 1 on a failure; prints "skip: ..." for a missing tool
"""

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, Failures, metric_names, series_names

DASHBOARD = ROOT / "deploy/grafana/weiqi-dashboard.json"
SCHEMA_DIR = ROOT / "deploy/checks/grafana-schema"
DS = {"type": "prometheus", "uid": "${datasource}"}
# Standard metrics the dashboard leaves out, and why.
NOT_SHOWN = {
    # Duplicates are also counted as outcome="duplicate" in weiqi_commands_total, which is shown.
    "weiqi_duplicate_commands_total",
}
GRAFANA_VARIABLES = {"__rate_interval", "__interval", "__range", "__interval_ms", "__range_s"}
# Values that stand in for Grafana's variables when promtool parses a query.
SUBSTITUTES = {
    "$__rate_interval": "1m",
    "$__interval": "15s",
    "$__range": "6h",
    "${datasource}": "prometheus",
    "$job": ".*",
    "$instance": ".*",
}
# Panel types and the @grafana/schema module with their Options and FieldConfig.
PANEL_TYPES = {
    "timeseries": "timeseries",
    "state-timeline": "statetimeline",
    "stat": "stat",
    "bargauge": "bargauge",
    "gauge": "gauge",
    "table": "table",
    "heatmap": "heatmap",
}


def structural(d, f):
    for key in ("title", "uid", "schemaVersion", "panels", "templating", "time"):
        f.check(key in d, f"no top-level {key!r}")
    f.check(isinstance(d.get("schemaVersion"), int), "schemaVersion is not an integer")
    variables = {v.get("name"): v for v in d.get("templating", {}).get("list", [])}
    ds = variables.get("datasource", {})
    f.check(ds.get("type") == "datasource" and ds.get("query") == "prometheus",
            "no `datasource` template variable of type datasource for prometheus")
    for name in ("job", "instance"):
        v = variables.get(name)
        if f.check(v and v.get("type") == "query", f"no `{name}` query variable"):
            f.check(v.get("datasource") == DS, f"variable {name}: datasource is not {DS}")

    panels = d.get("panels", [])
    ids, boxes, queries = set(), [], []
    last_row_y = -1
    for p in panels:
        pid, title = p.get("id"), p.get("title", "?")
        f.check(isinstance(pid, int) and pid not in ids, f"panel {title!r}: id {pid!r} missing or repeated")
        ids.add(pid)
        g = p.get("gridPos", {})
        if f.check(all(isinstance(g.get(k), int) for k in "xywh"), f"panel {title!r}: gridPos incomplete"):
            f.check(g["x"] >= 0 and g["w"] > 0 and g["x"] + g["w"] <= 24 and g["h"] > 0 and g["y"] >= 0,
                    f"panel {title!r}: gridPos {g} outside the 24-column grid")
            for other, og in boxes:
                overlap = (g["x"] < og["x"] + og["w"] and og["x"] < g["x"] + g["w"]
                           and g["y"] < og["y"] + og["h"] and og["y"] < g["y"] + g["h"])
                f.check(not overlap, f"panels {title!r} and {other!r} overlap")
            boxes.append((title, g))
        if p.get("type") == "row":
            f.check(g.get("y", 0) > last_row_y, f"row {title!r} is out of order")
            last_row_y = g.get("y", 0)
            f.check(not p.get("panels"), f"row {title!r}: collapsed panels are not checked; keep rows open")
            continue
        f.check(p.get("type") in PANEL_TYPES, f"panel {title!r}: type {p.get('type')!r} is not one this check knows")
        f.check(p.get("datasource") == DS, f"panel {title!r}: datasource is not {DS}")
        f.check(p.get("description"), f"panel {title!r}: no description")
        targets = p.get("targets", [])
        f.check(targets, f"panel {title!r}: no queries")
        refs = [t.get("refId") for t in targets]
        f.check(len(refs) == len(set(refs)) and all(refs), f"panel {title!r}: refIds missing or repeated")
        for t in targets:
            f.check(t.get("datasource") == DS, f"panel {title!r} query {t.get('refId')}: datasource is not {DS}")
            expr = t.get("expr", "")
            if f.check(expr.strip(), f"panel {title!r} query {t.get('refId')}: empty expr"):
                queries.append((f"{title} {t.get('refId')}", expr))
    return variables, queries


def metrics(queries, variables, f):
    names = metric_names()
    series = series_names(names) | {"up"}
    shown = set()
    for where, expr in queries:
        for v in re.findall(r"\$\{?(\w+)", expr):
            f.check(v in variables or v in GRAFANA_VARIABLES, f"{where}: unknown variable ${v}")
        f.check('job=~"$job"' in expr and 'instance=~"$instance"' in expr,
                f"{where}: does not filter by job=~\"$job\" and instance=~\"$instance\"")
        for used in set(re.findall(r"\bweiqi_[a-z_]+", expr)):
            if f.check(used in series, f"{where}: {used} is not a standard metric series (names.rs)"):
                shown.add(re.sub(r"_(bucket|sum|count)$", "", used) if used not in names else used)
        for m in re.finditer(r"histogram_quantile\(", expr):
            inner = expr[m.end():]
            f.check(re.search(r"sum by \([^)]*\ble\b[^)]*\) \(rate\(weiqi_\w+_bucket", inner),
                    f"{where}: histogram_quantile needs sum by (..., le) (rate(<histogram>_bucket[...]))")
    for name in sorted(set(names) - shown - NOT_SHOWN):
        f.check(False, f"standard metric {name} is on no panel (show it, or list it in NOT_SHOWN)")


def promql(queries, variables, f, tmp):
    if not shutil.which("promtool"):
        print("skip: dashboard PromQL parse (promtool not installed)")
        return None
    rules = []
    for i, (where, expr) in enumerate(queries):
        rules.append((where, expr))
    for name, v in variables.items():
        m = re.fullmatch(r"label_values\((.+),\s*\w+\)", str(v.get("query", "")))
        if v.get("type") == "query" and f.check(m, f"variable {name}: query is not label_values(selector, label)"):
            rules.append((f"variable {name}", m.group(1)))
    doc = {"groups": [{"name": "dashboard", "rules": []}]}
    for i, (where, expr) in enumerate(rules):
        for k, val in SUBSTITUTES.items():
            expr = expr.replace(k, val)
        doc["groups"][0]["rules"].append({"record": f"dashboard:query:{i}", "expr": expr})
    path = Path(tmp) / "dashboard-queries.yml"
    path.write_text(json.dumps(doc))  # JSON is YAML
    r = subprocess.run(["promtool", "check", "rules", str(path)], capture_output=True, text=True)
    if not f.check(r.returncode == 0, "a query does not parse as PromQL:\n" + r.stdout + r.stderr):
        for i, (where, _) in enumerate(rules):
            if f"dashboard:query:{i}" in r.stdout + r.stderr:
                print(f"  query {i} is {where}")
    return len(rules)


ENUM = re.compile(r"(export )?declare (const )?enum (\w+) \{([^}]*)\}")
MEMBER = re.compile(r"(\w+)\s*=\s*(\"[^\"]*\"|'[^']*'|-?\d+(?:\.\d+)?)")


def unenum(text):
    """`enum E { A = "a", B = 1 }` to `type E = "a" | 1` plus a namespace of the members as types,
    so that `E.A` in a type still names "a"."""

    def repl(m):
        export, name, body = m.group(1) or "", m.group(3), m.group(4)
        members = MEMBER.findall(body)
        if not members:
            return m.group(0)
        union = " | ".join(sorted({v for _, v in members}))
        inner = " ".join(f"type {k} = {v};" for k, v in members)
        return f"{export}type {name} = {union};\n{export}declare namespace {name} {{ {inner} }}"

    return ENUM.sub(repl, text)


def schema(d, f, tmp):
    tsc = SCHEMA_DIR / "node_modules/typescript/bin/tsc"
    types = SCHEMA_DIR / "node_modules/@grafana/schema/dist/types"
    if not (tsc.exists() and types.exists()):
        print("skip: dashboard schema (run `npm ci` in deploy/checks/grafana-schema)")
        return None
    if not shutil.which("node"):
        print("skip: dashboard schema (node not installed)")
        return None
    work = Path(tmp) / "schema"
    shutil.copytree(types, work / "types")
    for p in (work / "types").rglob("*.d.ts"):
        p.write_text(unenum(p.read_text()))
    version = json.loads((SCHEMA_DIR / "node_modules/@grafana/schema/package.json").read_text())["version"]
    lines = [
        "import type { Dashboard } from './types/raw/dashboard/x/types.gen';",
    ]
    modules = {}
    for p in d.get("panels", []):
        if p.get("type") in PANEL_TYPES:
            mod = PANEL_TYPES[p["type"]]
            modules[mod] = f"./types/raw/composable/{mod}/panelcfg/x/types.gen"
    for mod, path in sorted(modules.items()):
        lines.append(f"import type * as {mod} from '{path}';")
    lines.append(f"export const dashboard: Dashboard = {json.dumps(d, indent=1)};")
    # Each panel's options and custom field config against its panel type's own types.
    for p in d.get("panels", []):
        if p.get("type") not in PANEL_TYPES:
            continue
        mod = PANEL_TYPES[p["type"]]
        module_text = (work / "types/raw/composable" / mod / "panelcfg/x/types.gen.d.ts").read_text()
        has_fc = re.search(r"export (interface|type) FieldConfig\b", module_text)
        has_options = re.search(r"export (interface|type) Options\b", module_text)
        if has_options:
            lines.append(f"export const options_{p['id']}: {mod}.Options = {json.dumps(p.get('options', {}))};")
        custom = p.get("fieldConfig", {}).get("defaults", {}).get("custom")
        if has_fc and custom is not None:
            lines.append(f"export const custom_{p['id']}: {mod}.FieldConfig = {json.dumps(custom)};")
        elif custom is not None:
            f.check(False, f"panel {p.get('title')!r}: custom field config, but {mod} declares no FieldConfig")
    (work / "check.ts").write_text("\n".join(lines) + "\n")
    (work / "tsconfig.json").write_text(json.dumps({
        "compilerOptions": {
            "strict": True, "noEmit": True, "skipLibCheck": True, "target": "es2022",
            "module": "esnext", "moduleResolution": "bundler", "baseUrl": ".",
            "paths": {"@grafana/schema": ["./types/index.d.ts"]},
        },
        "files": ["check.ts"],
    }))
    r = subprocess.run(["node", str(tsc), "-p", str(work / "tsconfig.json")], capture_output=True, text=True)
    f.check(r.returncode == 0, f"does not type-check against @grafana/schema {version}:\n" + r.stdout + r.stderr)
    return version


def main():
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DASHBOARD
    f = Failures(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    try:
        d = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        f.check(False, f"not JSON: {e}")
        f.finish("")
    variables, queries = structural(d, f)
    metrics(queries, variables, f)
    with tempfile.TemporaryDirectory() as tmp:
        parsed = promql(queries, variables, f, tmp)
        version = schema(d, f, tmp)
    done = [f"{len(d.get('panels', []))} panels, {len(queries)} queries, structure and metric names"]
    if parsed is not None:
        done.append(f"{parsed} PromQL expressions parsed by promtool")
    if version is not None:
        done.append(f"type-checked against @grafana/schema {version}")
    f.finish("; ".join(done))


if __name__ == "__main__":
    main()
