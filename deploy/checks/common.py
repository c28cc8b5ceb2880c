"""What the checks in this directory share: the repository root, the standard metric names, the
runbook's anchors, and a small failure collector."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NAMES_RS = ROOT / "shared/telemetry/src/names.rs"
RUNBOOK = ROOT / "deploy/RUNBOOK.md"


def metric_names():
    """{name: kind} of every metric in shared/telemetry/src/names.rs: the doc comment above each
    constant starts with its kind (Counter, Gauge, Histogram)."""
    text = NAMES_RS.read_text()
    names = {}
    for m in re.finditer(r'((?:\s*///[^\n]*\n)+)\s*pub const [A-Z_]+: &str = "(weiqi_[a-z_]+)";', text):
        doc, name = m.group(1), m.group(2)
        kind = re.search(r"///\s*(Counter|Gauge|Histogram)", doc)
        names[name] = kind.group(1).lower() if kind else "unknown"
    if not names:
        sys.exit(f"no metric names found in {NAMES_RS}")
    return names


def series_names(names):
    """Every series name a scrape can show: histograms add _bucket, _sum and _count."""
    out = set()
    for name, kind in names.items():
        if kind == "histogram":
            out |= {name + "_bucket", name + "_sum", name + "_count"}
        else:
            out.add(name)
    return out


def github_anchor(heading):
    """The anchor GitHub (and most Markdown renderers) give a heading: lower case, punctuation other
    than '-' and '_' dropped, spaces to '-'."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def runbook_anchors():
    if not RUNBOOK.exists():
        return set()
    anchors = set()
    in_code = False
    for line in RUNBOOK.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            anchors.add(github_anchor(line.lstrip("#")))
    return anchors


class Failures:
    """Collects failures so that one run reports all of them."""

    def __init__(self, what):
        self.what = what
        self.items = []

    def check(self, ok, message):
        if not ok:
            self.items.append(message)
        return ok

    def finish(self, summary):
        if self.items:
            for m in self.items:
                print(f"FAIL {self.what}: {m}")
            sys.exit(1)
        print(f"ok {self.what}: {summary}")
