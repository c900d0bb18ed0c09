#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mlxcli module on both sample hosts (issue 18): the recorded
# MODULE_EEPROM_GET replies (real module pages, gen/samples_phy.py) decoded,
# and checked against a second, independent reading of the same bytes
# (`module --raw`, decoded here in Python from SFF-8636 / CMIS offsets);
# an empty cage is "no module" with exit 4; an unknown device exit 3.
. "$(dirname "$0")/lib.sh"
need jq python3

# cx5-ofed PF0: a QSFP28 (SFF-8636), lower page, page 00h, page 03h
run q5 --sample -j module -d enp94s0f0np0
[ "$rc" = 0 ] && ok "cx5 PF0 module exits 0" || bad "cx5 PF0 module: exit $rc: $(cat "$tmp/q5.err")"
run q5raw --sample -j module --raw -d enp94s0f0np0
if python3 - "$tmp/q5.out" "$tmp/q5raw.out" <<'PY'
import json, sys
dec = json.load(open(sys.argv[1]))["modules"][0]
raw = json.load(open(sys.argv[2]))["modules"][0]["pages"]
pg = {(p["page"], p["offset_bytes"]): bytes.fromhex(p["data_hex"]) for p in raw}
lo, up, p3 = pg[(0, 0)], pg[(0, 128)], pg[(3, 128)]
w = lambda b, o: b[o] << 8 | b[o + 1]
s16 = lambda v: v - 65536 if v & 0x8000 else v
# SFF-8636 rev 2.10: temperature lower 22, Vcc 26, Rx power 34, bias 42, Tx power 50
want = {
    "identifier_code": up[0], "vendor_name": up[148 - 128:164 - 128].decode().rstrip(),
    "vendor_serial": up[196 - 128:212 - 128].decode().rstrip(), "standard": "sff-8636",
    "temperature": round(s16(w(lo, 22)) * 1000 / 256), "voltage": w(lo, 26) * 100,
    "temp_high_alarm": s16(w(p3, 0)) * 1000 // 256,
}
got = {
    "identifier_code": dec["identifier_code"], "vendor_name": dec["vendor_name"],
    "vendor_serial": dec["vendor_serial"], "standard": dec["standard"],
    "temperature": dec["temperature"]["value"], "voltage": dec["voltage"]["value"],
    "temp_high_alarm": dec["temperature"]["high_alarm_threshold"],
}
for i in range(4):
    want["rx%d" % i] = w(lo, 34 + 2 * i) * 100
    want["bias%d" % i] = w(lo, 42 + 2 * i) * 2
    want["tx%d" % i] = w(lo, 50 + 2 * i) * 100
    ch = dec["channels"][i]
    got["rx%d" % i], got["bias%d" % i], got["tx%d" % i] = (ch["rx_power"]["value"],
                                                           ch["bias"]["value"], ch["tx_power"]["value"])
bad = {k: (got[k], want[k]) for k in want if got[k] != want[k]}
print(bad or "agree")
sys.exit(1 if bad else 0)
PY
then ok "cx5 QSFP28: decoded values = the raw pages read independently"
else bad "cx5 QSFP28: decode and raw pages disagree"; fi
[ "$(jq -r '.modules[0] | [.level, (.channels | length), .checksum_ok] | @csv' "$tmp/q5.out")" = '"ok",4,true' ] &&
	ok "cx5 QSFP28: 4 channels, all ok, checksums ok" || bad "cx5 QSFP28 summary: $(jq -c '.modules[0].level' "$tmp/q5.out")"
# one request per page needed: lower, 00h, 03h (paged memory, diagnostics)
[ "$(jq -c '[.modules[0].pages[] | [.page, .offset_bytes]]' "$tmp/q5raw.out")" = '[[0,0],[0,128],[3,128]]' ] &&
	ok "cx5 QSFP28: three page reads" || bad "cx5 pages read: $(jq -c '[.modules[0].pages[] | [.page, .offset_bytes]]' "$tmp/q5raw.out")"
[ "$(jq -c '[.modules[0].pages[].length_bytes]' "$tmp/q5raw.out")" = '[128,128,128]' ] && ok "128 bytes a read" || bad "page lengths"

run t5 --sample module -d enp94s0f0np0
grep -q '^  temperature: 35.34 C  ok (warning below 0.00 or above 70.00, alarm below -5.00 or above 75.00)$' "$tmp/t5.out" &&
	ok "text: temperature with thresholds" || bad "text temperature: $(grep temperature "$tmp/t5.out")"
grep -q '^  channel 1 rx power: 0.0099 mW / -20.04 dBm  ok' "$tmp/t5.out" && ok "text: mW and dBm" || bad "text rx power"

# the empty cage of cx5-ofed PF1 (link down, NO_CABLE)
run e5 --sample module -d enp94s0f1np1
[ "$rc" = 4 ] && grep -q "no module on 'enp94s0f1np1'" "$tmp/e5.err" && ok "empty cage: no module, exit 4" ||
	bad "empty cage: exit $rc: $(cat "$tmp/e5.err")"
# every port: the empty one is listed as absent, the command succeeds
run a5 --sample -j module
[ "$rc" = 0 ] && [ "$(jq -c '[.modules[] | .present]' "$tmp/a5.out")" = '[true,false]' ] &&
	ok "all ports: present, absent; exit 0" || bad "all ports: exit $rc $(jq -c '[.modules[] | .present]' "$tmp/a5.out")"
run n5 --sample module -d nosuchdev
[ "$rc" = 3 ] && ok "unknown device: exit 3" || bad "unknown device: exit $rc"

# cx6dx-upstream: a CMIS 5 module as QSFP56, pages 00h, 01h, 02h, 11h
run c6 --sample=cx6dx-upstream -j module -d enp59s0f0np0
[ "$(jq -r '.modules[0] | [.standard, .identifier_code, .cmis_revision, .module_state, (.channels | length), .vendor_name, .level] | @csv' "$tmp/c6.out")" = \
	'"cmis",30,"5.0","ready",8,"Eoptolink","ok"' ] && ok "cx6dx: CMIS module, 8 lanes" ||
	bad "cx6dx CMIS: $(jq -c '.modules[0] | [.standard, .identifier_code, .cmis_revision, .module_state, (.channels | length), .vendor_name, .level]' "$tmp/c6.out")"
run c6raw --sample=cx6dx-upstream -j module --raw -d enp59s0f0np0
if python3 - "$tmp/c6.out" "$tmp/c6raw.out" <<'PY'
import json, sys
dec = json.load(open(sys.argv[1]))["modules"][0]
pg = {(p["page"], p["offset_bytes"]): bytes.fromhex(p["data_hex"])
      for p in json.load(open(sys.argv[2]))["modules"][0]["pages"]}
lo, p11 = pg[(0, 0)], pg[(0x11, 128)]
w = lambda b, o: b[o] << 8 | b[o + 1]
# CMIS 5.2: temperature lower 14, Vcc 16; page 11h Tx power 154, bias 170, Rx power 186
ok = dec["temperature"]["value"] == round(w(lo, 14) * 1000 / 256) and dec["voltage"]["value"] == w(lo, 16) * 100
for i in range(8):
    ch = dec["channels"][i]
    ok &= ch["tx_power"]["value"] == w(p11, 154 - 128 + 2 * i) * 100
    ok &= ch["rx_power"]["value"] == w(p11, 186 - 128 + 2 * i) * 100
sys.exit(0 if ok else 1)
PY
then ok "cx6dx CMIS: decoded values = the raw pages read independently"
else bad "cx6dx CMIS: decode and raw pages disagree"; fi

# a snapshot of a sample replays the same module
run snap --sample snapshot "$tmp/snap"
run s5 --sysroot "$tmp/snap" -j module -d enp94s0f0np0
cmp -s "$tmp/s5.out" "$tmp/q5.out" && ok "snapshot: module pages recorded and replayed" || bad "snapshot replay differs"
finish
