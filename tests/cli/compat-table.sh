#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every spelling of mlxcli-shell(8)'s Windows-syntax table, on both sample
# hosts (issue 27): a row ".BR "mlxcli W"" / ".RB "is " "mlxcli N"" prints
# what its native form prints, with the same exit status (dump-me-now: the
# same status, an incident each); a row "is not on Linux (exit status 4)"
# exits 4 saying what Linux has, on stderr, and nothing on stdout.
# Placeholders take the sample's first PF (IF its netdev, DEV its PCI
# address, BUS DEV FUNC mlxtool's decimal numbers); "[...]" is run both
# left out and given; "A|B" runs each; the issue's list of spellings must
# all be rows.
. "$(dirname "$0")/lib.sh"
need python3
# the dump-me-now rows make incidents: in this test's own folder, never in
# the host's /var/lib/mlxcli/dmn (which the Debian package's test then
# finds belonging to no package and skips)
printf 'dmn_dir = %s/dmn\n' "$tmp" >"$tmp/mlxcli.conf"
MLXCLI_CONFIG=$tmp/mlxcli.conf
export MLXCLI_CONFIG

MAN=$TOP_SRCDIR/man/mlxcli-shell.8 python3 - "$MLXCLI" >"$tmp/report" <<'EOF'
import json, os, re, shlex, subprocess, sys, tempfile, time

mlxcli = sys.argv[1]
page = open(os.environ["MAN"]).read()
sec = page[page.index(".SS Windows syntax"):]
sec = sec[:sec.index("\n.SH ")]

def unroff(t):
    return t.replace("\\-", "-").replace("\\(dq", '"')

rows, w = [], None
for line in sec.splitlines():
    m = re.match(r'^\.BR "mlxcli (.*)"$', line)
    if m:
        w = unroff(m.group(1))
        continue
    m = re.match(r'^\.RB "is " "mlxcli (.*)"$', line)
    if m and w:
        rows.append(("is", w, unroff(m.group(1))))
        w = None
        continue
    if line.startswith("is not on Linux (exit status 4)") and w:
        rows.append(("x", w, None))
        w = None

# The issue's list (issue 27, "Every spelling the README advertises").
wanted = ["dbg get-state BUS", "dbg mstdump BUS", "dbg sw-reset BUS", "dbg cmd-stats BUS",
          "dbg pddrinfo BUS", "dbg resources", "show selfhealing port", "show perfstats",
          "show device list", "show port list", "show nd connections", "show vxlan",
          "show packet-filter", "dbg pkeys", "dbg ipoib-ep"]
wanted += ["-" + v + " " for v in ["Stat", "DriverVersion", "Trust", "Pfc", "Ets", "PortStat",
           "Perfstats", "Dump", "DriverParams", "SelfHealing", "MstDump", "Vxlan", "VfMonitor",
           "ResourceDump", "NdStat"]]
for s in wanted:
    if not any((r[1] + " ").find(s) >= 0 for r in rows):
        print("bad: no row for '%s' in mlxcli-shell(8)" % s.strip())

def expand(w, n):
    """(w argv, n argv) pairs: optional parts all out, then all in; A|B each."""
    out = []
    for opt in (False, True):
        def o(t):
            if t is None:
                return None
            return re.sub(r"\[([^\]]*)\]", (lambda m: m.group(1)) if opt else "", t)
        ww, nn = o(w), o(n)
        ww = ww.replace("...", "")
        nn = nn.replace("...", "") if nn else None
        alts = [t for t in ww.split() if "|" in t]
        if not alts:
            out.append((ww, nn))
            continue
        choices = alts[0].split("|")
        nalt = [t for t in (nn or "").split() if t.count("|") == len(choices) - 1 and "|" in t]
        for i, c in enumerate(choices):
            n2 = nn.replace(nalt[0], nalt[0].split("|")[i]) if nn and nalt else nn
            out.append((ww.replace(alts[0], c, 1), n2))
    seen, res = set(), []
    for p in out:
        if p not in seen:
            seen.add(p)
            res.append(p)
    return res

def subst(t, s):
    bdf = s["bdf"]
    t = t.replace('"BUS DEV FUNC"', "'%s'" % bdf).replace("BUS DEV FUNC", bdf)
    for k, v in (("-P V", "-DcqcnRpgAiRate 5"), ("P V", "DcqcnRpgAiRate 5"),
                 ("PRIO,PRIO", "3,4"), ("TC:PCT", "0:100"), ("TC MBPS", "0 1000"),
                 ("PRIO", "3"), ("N", "0x5000"), ("PID", "5926")):
        t = re.sub(r"(?<![\w-])%s(?![\w-])" % re.escape(k), v, t)
    t = re.sub(r"(?<![\w-])IF(?![\w-])", s["netdev"], t)
    t = re.sub(r"(?<![\w-])DEV(?![\w-])", s["pci"], t)
    t = re.sub(r"(?<![\w-])S(?![\w-])", "1", t)
    return shlex.split(t)

# the writes (an incident is no write: the sample stays as it was)
WRITES = re.compile(r"-(Set|Enable|Disable|Defaults|Restore)\b|sw-reset|restart|modify")
NO_DRY_RUN = re.compile(r"-Defaults\b")

def run(sample, args, write):
    # a write runs with --dry-run, or on a fresh copy of the sample where
    # it has none (it changes the copy that MLXCLI_STATE_DIR keeps, and the
    # other form must see the same); a read on the test's copy (a copy of a
    # sample takes a second or two)
    with tempfile.TemporaryDirectory() as state:
        env = dict(os.environ)
        if write:
            env["MLXCLI_STATE_DIR"] = state
        p = subprocess.run([mlxcli, "--sample=" + sample] + args, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60, env=env)
    # counters watch stamps its samples
    o = re.sub(r"at \S+Z, interval [0-9.]+ s", "at T, interval I s", p.stdout)
    return p.returncode, o, p.stderr

runs = 0
for sample in ("cx5-ofed", "cx6dx-upstream"):
    p = subprocess.run([mlxcli, "--sample=" + sample, "ports", "-j"], capture_output=True,
                       text=True)
    pf = [x for x in json.loads(p.stdout)["ports"] if x["role"] == "pf"][0]
    b, rest = pf["pci_address"].split(":", 1)[1].split(":")
    d, f = rest.split(".")
    s = {"netdev": pf["netdev"], "pci": pf["pci_address"],
         "bdf": "%d %d %d" % (int(b, 16), int(d, 16), int(f, 16))}
    for kind, w, n in rows:
        for ww, nn in expand(w, n):
            write = bool(WRITES.search(ww))
            if write and not NO_DRY_RUN.search(ww):
                write, ww, nn = False, ww + " --dry-run", nn and nn + " --dry-run"
            wa = subst(ww, s)
            t0 = time.time()
            wrc, wout, werr = run(sample, wa, write)
            if os.environ.get("SLOW") and time.time() - t0 > 0.5:
                print("slow %.1f %s" % (time.time() - t0, wa))
            runs += 1
            label = "%s: mlxcli %s" % (sample, " ".join(shlex.quote(a) for a in wa))
            if wrc >= 128 or "AddressSanitizer" in werr:
                print("bad: %s crashed (%d)" % (label, wrc))
                continue
            if kind == "x":
                first = werr.splitlines()[0] if werr else ""
                if wrc != 4 or wout or not re.match(r"mlxcli: error: (mlx5cmd|mlxtool)'s '", first):
                    print("bad: %s: exit %d, stdout %r, stderr %r; wanted exit 4 and what Linux "
                          "has on stderr" % (label, wrc, wout[:80], first))
                continue
            na = subst(nn, s)
            nrc, nout, nerr = run(sample, na, write)
            if "dump-me-now" in nn:
                same = wrc == nrc
            else:
                same = wrc == nrc and wout == nout
            if not same:
                print("bad: %s (exit %d) does not print what 'mlxcli %s' prints (exit %d)"
                      % (label, wrc, " ".join(shlex.quote(a) for a in na), nrc))
            elif wrc == 2 and "unknown" in werr:
                print("bad: %s: %s" % (label, werr.splitlines()[0]))
print("rows %d runs %d" % (len(rows), runs))
EOF
[ $? -eq 0 ] || bad "the table walker failed"
grep '^slow ' "$tmp/report"
grep '^bad: ' "$tmp/report" | while read -r _ line; do echo "FAIL: $line"; done
grep -q '^bad: ' "$tmp/report" && bad "mlxcli-shell(8)'s Windows syntax (above)"
rows=$(sed -n 's/^rows \([0-9]*\) runs \([0-9]*\)$/\1/p' "$tmp/report")
runs=$(sed -n 's/^rows \([0-9]*\) runs \([0-9]*\)$/\2/p' "$tmp/report")
[ "${rows:-0}" -ge 50 ] || bad "read only ${rows:-0} rows from mlxcli-shell(8)'s Windows syntax"
ok "mlxcli-shell(8): ${rows:-0} Windows-syntax rows, ${runs:-0} runs on both samples"
finish
