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

# what the module is for: the applications it advertises, read from the
# raw pages independently (lower 85-117, page 01h 223-250: 4 bytes each,
# host code 0xff ends the list), and the transmitter technology (page 00h
# byte 212); the text names them
if python3 - "$tmp/c6.out" "$tmp/c6raw.out" <<'PY'
import json, sys
dec = json.load(open(sys.argv[1]))["modules"][0]
pg = {(p["page"], p["offset_bytes"]): bytes.fromhex(p["data_hex"])
      for p in json.load(open(sys.argv[2]))["modules"][0]["pages"]}
lo, up, p1 = pg[(0, 0)], pg[(0, 128)], pg[(1, 128)]
desc = [lo[86 + 4 * i:90 + 4 * i] for i in range(8)] + [p1[223 - 128 + 4 * i:227 - 128 + 4 * i] for i in range(7)]
want = []
for d in desc:
    if d[0] == 0xff:
        break
    if d[0]:
        want.append([d[0], d[1], d[2] >> 4, d[2] & 15])
got = [[a["host_interface_code"], a["media_interface_code"], a["host_lanes"], a["media_lanes"]] for a in dec["applications"]]
ok = got == want and len(got) > 8 and [a["application_number"] for a in dec["applications"]] == list(range(1, len(got) + 1))
ok &= dec["transmitter_technology_code"] == up[212 - 128] and dec["media_type"] == "smf" and dec["banks"] == 1
ok &= dec["extended_compliance"] is None and dec["extended_compliance_code"] is None
sys.exit(0 if ok else 1)
PY
then ok "cx6dx CMIS: applications and technology = the raw pages read independently"
else bad "cx6dx CMIS applications: $(jq -c '.modules[0] | [.applications, .transmitter_technology_code]' "$tmp/c6.out")"; fi
[ "$(jq -r '.modules[0].applications[0] | [.host_interface, .media_interface, .speed_mbps] | @csv' "$tmp/c6.out")" = \
	'"400GAUI-4-S C2M","400G-LR4-10",400000' ] && ok "cx6dx: application 1 named (SFF-8024)" ||
	bad "cx6dx application 1: $(jq -c '.modules[0].applications[0]' "$tmp/c6.out")"
run t6 --sample=cx6dx-upstream module -d enp59s0f0np0
grep -q '^  application 5: 200GAUI-4 C2M (0x0f), 4 lanes -> 200GBASE-LR4 (0x19), 4 lanes$' "$tmp/t6.out" &&
	grep -q '^  transmitter technology: 0x06 (1310 nm EML)$' "$tmp/t6.out" && ok "cx6dx text: applications, technology" ||
	bad "cx6dx text: $(grep -E 'application|technology' "$tmp/t6.out")"
run x5 --sample -j module -d enp94s0f0np0
[ "$(jq -c '.modules[0] | [.transmitter_technology, .extended_compliance, .extended_compliance_code, .media_type, .banks, .applications]' "$tmp/x5.out")" = \
	'["1310 nm DFB","100G Base-ER4",4,null,null,[]]' ] && ok "cx5 SFF-8636: technology, extended compliance" ||
	bad "cx5 SFF-8636: $(jq -c '.modules[0] | [.transmitter_technology, .extended_compliance, .media_type, .banks, .applications]' "$tmp/x5.out")"

# a snapshot of a sample replays the same module
run snap --sample snapshot "$tmp/snap"
run s5 --sysroot "$tmp/snap" -j module -d enp94s0f0np0
cmp -s "$tmp/s5.out" "$tmp/q5.out" && ok "snapshot: module pages recorded and replayed" || bad "snapshot replay differs"
finish
