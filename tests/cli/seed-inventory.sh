#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The seed inventory, doc/seed-inventory.tsv (issue 27, "Done when"): every
# row well formed; no row "missing" (an item Linux has an interface for
# that mlxcli lacks); every "works"/"partly" row's command, and a
# "no-linux" row's where it names one, run on both sample hosts exits with
# the status the row documents (4 with an error saying what Linux has);
# and every Windows spelling of mlxcli-shell(8)'s table is an item of the
# inventory; the README's counts are the file's.
. "$(dirname "$0")/lib.sh"
need python3
# dump-me-now rows make incidents: in this test's folder (compat-table.sh)
printf 'dmn_dir = %s/dmn\n' "$tmp" >"$tmp/mlxcli.conf"
MLXCLI_CONFIG=$tmp/mlxcli.conf
export MLXCLI_CONFIG

INV=$TOP_SRCDIR/doc/seed-inventory.tsv MAN=$TOP_SRCDIR/man/mlxcli-shell.8 TMPD=$tmp \
python3 - "$MLXCLI" >"$tmp/report" <<'PY'
import json, os, re, shlex, subprocess, sys

mlxcli = sys.argv[1]
STATUSES = ("works", "partly", "missing", "no-linux")
rows, counts = [], dict((s, 0) for s in STATUSES)
with open(os.environ["INV"], encoding="utf-8") as f:
    header = None
    for n, line in enumerate(f, 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if header is None:
            header = cols
            if cols != ["source", "item", "command", "exit", "status", "note"]:
                print("bad: line %d: the header is %r" % (n, cols))
            continue
        if len(cols) != 6 or not all(c.strip() for c in cols):
            print("bad: line %d: %d columns (6, none empty): %r" % (n, len(cols), line))
            continue
        src, item, cmd, ex, status, note = cols
        if status not in STATUSES:
            print("bad: line %d: status %r (one of %s)" % (n, status, ", ".join(STATUSES)))
            continue
        counts[status] += 1
        if (cmd == "-") != (ex == "-") or (ex != "-" and not re.match(r"^\d+(/\d+)?$", ex)):
            print("bad: line %d: command %r with exit %r" % (n, cmd, ex))
            continue
        if cmd == "-" and status in ("works", "partly"):
            print("bad: line %d: '%s' is %s with no command" % (n, item, status))
            continue
        if status == "missing":
            print("bad: line %d: '%s' is missing: Linux has %s" % (n, item, note))
        rows.append((n, item, cmd, ex, status))

# every spelling of mlxcli-shell(8)'s Windows syntax table is an item
page = open(os.environ["MAN"], encoding="utf-8").read()
sec = page[page.index(".SS Windows syntax"):]
sec = sec[:sec.index("\n.SH ")]
PLACE = {"IF", "DEV", "BUS", "FUNC", "N", "S", "PRIO", "PRIO,PRIO", "TC", "MBPS", "TC:PCT",
         "V", "-P", "...", "-name", "PID"}
def words(t):
    t = t.replace("\\-", "-").replace("\\(dq", "").replace("\u2013", "-").replace('"', "")
    t = re.sub(r"[\[\]()]", " ", t)
    return [w for w in re.split(r"[\s|/]+", t) if w and w not in PLACE and
            w.lower() not in PLACE and not w.isdigit()]
have = [set(w.lower() for w in words(r[1]) + words(r[2])) for r in rows]
spellings = 0
for line in sec.splitlines():
    m = re.match(r'^\.BR "mlxcli (.*)"', line)
    if not m:
        continue
    spellings += 1
    want = set(w.lower() for w in words(m.group(1)))
    if not any(want <= h for h in have):
        print("bad: mlxcli-shell(8)'s 'mlxcli %s' is no item of the inventory"
              % m.group(1).replace("\\-", "-"))

runs = 0
for sample in ("cx5-ofed", "cx6dx-upstream"):
    p = subprocess.run([mlxcli, "--sample=" + sample, "ports", "-j"], capture_output=True,
                       text=True)
    pf = [x for x in json.loads(p.stdout)["ports"] if x["role"] == "pf"][0]
    b, rest = pf["pci_address"].split(":", 1)[1].split(":")
    d, fn = rest.split(".")
    bdf = "%d %d %d" % (int(b, 16), int(d, 16), int(fn, 16))
    for n, item, cmd, exits, status in rows:
        if cmd == "-":
            continue
        # N, or N/M: N on cx5-ofed, M on cx6dx-upstream
        ex = exits.split("/")[min(len(exits.split("/")) - 1, 0 if sample == "cx5-ofed" else 1)]
        t = cmd.replace("BUS DEV FUNC", bdf)
        t = re.sub(r"(?<![\w-])IF(?![\w-])", pf["netdev"], t)
        t = re.sub(r"(?<![\w-])DEV(?![\w-])", pf["pci_address"], t)
        t = t.replace("SNAPDIR", os.path.join(os.environ["TMPD"], "snap-%s-%d" % (sample, n)))
        args = shlex.split(t)
        try:
            p = subprocess.run([mlxcli, "--sample=" + sample] + args, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            print("bad: %s: line %d: mlxcli %s did not end in 60 s" % (sample, n, t))
            continue
        runs += 1
        first = p.stderr.splitlines()[0] if p.stderr.strip() else ""
        label = "%s: line %d (%s): mlxcli %s" % (sample, n, item, t)
        if p.returncode >= 128 or "Sanitizer" in p.stderr:
            print("bad: %s crashed (%d)" % (label, p.returncode))
        elif p.returncode != int(ex):
            print("bad: %s: exit %d, the inventory says %s (%s)" % (label, p.returncode, ex, first))
        elif ex == "4" and not first.startswith("mlxcli: error: "):
            print("bad: %s: exit 4 without saying what Linux has (%r)" % (label, first))
# the README states the counts: the same as the file's
readme = open(os.path.join(os.path.dirname(os.environ["INV"]), "..", "README"),
              encoding="utf-8").read()
said = re.search(r"doc/seed-inventory\.tsv: (\d+) items.*?(\d+) work, (\d+) partly.*?"
                 r"(\d+) have no Linux meaning.*?(none|\d+) (?:is|are) missing", readme, re.S)
want = (len(rows), counts["works"], counts["partly"], counts["no-linux"], counts["missing"])
if not said:
    print("bad: README does not state the inventory's counts (N items ... W work, P partly ... "
          "L have no Linux meaning ... none is missing)")
elif tuple(0 if g == "none" else int(g) for g in said.groups()) != want:
    print("bad: README says %s items, %s work, %s partly, %s no Linux meaning, %s missing; "
          "the file has %d, %d, %d, %d, %d" % (said.groups() + want))
print("rows %d spellings %d runs %d %s" % (len(rows), spellings, runs,
      " ".join("%s=%d" % (s, counts[s]) for s in STATUSES)))
PY
[ $? -eq 0 ] || bad "the inventory walker failed"
grep '^bad: ' "$tmp/report" | while read -r _ line; do echo "FAIL: $line"; done
grep -q '^bad: ' "$tmp/report" && bad "doc/seed-inventory.tsv (above)"
sum=$(sed -n 's/^rows //p' "$tmp/report")
rows=${sum%% *}
[ "${rows:-0}" -ge 150 ] || bad "read only ${rows:-0} rows from doc/seed-inventory.tsv"
ok "doc/seed-inventory.tsv: ${sum:-nothing}"
finish
