#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli dump-me-now` (mlxcli-dump-me-now(8)) on the sample hosts:
#   - one folder per PF, named dmn-<bdf>-GENERAL-USER-<reason>--<time>-<pid>.<n>,
#     mode 0700, files 0600; manifest items with the documented statuses;
#     every "ok" file's size and sha256 match the file;
#   - the snapshot inside serves `devices`, `qosconfig dcqcn get` and
#     `dbg get-state` (devlink health) with --sysroot exactly as the sample;
#   - devlink-health.json: the recorded reporters with their diagnose; the
#     health dumps unavailable (they need the live device);
#   - retention TotalCount=4, PreservedCountMin=2 over 10 incidents keeps
#     the 1st, 2nd, 9th and 10th; the same from a config file (MLXCLI_CONFIG);
#   - ENOSPC on the k-th write (tests/fault/fault-shim.c, LD_PRELOAD)
#     leaves no new folder, no temporary, older incidents intact;
#     a real ENOSPC on a small tmpfs when root may mount one;
#   - two concurrent runs make two complete folders;
#   - list/show, a VF refused (exit 4), bad counts (exit 2);
#   - the text output names the incidents retention removed; list applies the
#     configured counts; an unknown configuration key is exit 2 with FILE:LINE;
#   - an incident is evidence (its manifest read as JSON, on one line too):
#     writes on its snapshot are refused, nothing in
#     it changes; locks of captured systems are in the runtime directory.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq
MLXCLI_CONFIG=/nonexistent/mlxcli.conf
export MLXCLI_CONFIG
mnt=
on_exit='[ -n "$mnt" ] && umount "$mnt" 2>/dev/null'


for host in cx5-ofed cx6dx-upstream; do
	echo "== $host"
	root=$tmp/$host
	"$MLXCLI" --sample="$host" dump-me-now --dir "$root" --reason "link flap" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && ok "exit 0" || { bad "$host: exit $rc: $(cat "$tmp/err")"; continue; }
	npf=$("$MLXCLI" --sample="$host" -j devices 2>/dev/null | jq '[.devices[] | select(.role == "pf")] | length')
	[ "$(wc -l <"$tmp/out")" -eq "$npf" ] && ok "$npf folder paths printed" || bad "printed $(cat "$tmp/out")"
	while read -r d; do
		name=$(basename "$d")
		echo "$name" | grep -E -q '^dmn-0000_[0-9a-f]{2}_[0-9a-f]{2}\.[0-7]-GENERAL-USER-link_flap--[0-9]{4}\.[0-9]{2}\.[0-9]{2}-[0-9]{2}\.[0-9]{2}\.[0-9]{2}\.[0-9]{3}-[0-9]+\.[0-9]+$' &&
			ok "name $name" || bad "name $name"
		[ "$(stat -c %a "$d")" = 700 ] || bad "$name: mode $(stat -c %a "$d")"
		m=$d/manifest.json
		bdf0=$(jq -r .pci_address "$m")
		got=$(jq -c '[.items[].name]' "$m")
		p0=$(( $(jq -r .pci_address "$m" | sed 's/.*\.//') ))   # vhca 0/1: uplink port 65535/131071
		port=$(( (p0 << 16) | 65535 ))
		want='["crspace.txt","crspace.2.txt","crspace.3.txt","devlink-health.json","devlink-health-dump-fw.json","devlink-health-dump-fw_fatal.json","devlink-health-dump-tx-port'$port'.json","devlink-health-dump-rx-port'$port'.json","dcqcn.json","pci.json","pci-config.bin","aer_dev_correctable.txt","aer_dev_nonfatal.txt","aer_dev_fatal.txt","fw-commands.json","mlx5-resources.json","sriov.json","rdma-qp.json","rdma-cm-id.json","rdma-raw.json","kernel-log.txt","snapshot"]'
		[ "$got" = "$want" ] && ok "items" || bad "$name: items $got"
		st() { jq -r ".items[] | select(.name == \"$1\") | .result" "$m"; }
		# issue 27: the manifest says what each item is; three CR-space
		# dumps in a row (each unavailable here, with the reason)
		[ "$(jq '[.items[] | select(.description == null)] | length' "$m")" = 0 ] &&
			ok "every item has its description" || bad "$name: items without description"
		[ "$(jq -c '[.items[0:3][] | [.result, (.reason == .reason)]] | unique' "$m")" = '[["unavailable",true]]' ] &&
			ok "three CR-space dumps, each unavailable" || bad "$name: crspace items"
		# the debugfs items where the capture has debugfs (the upstream host),
		# the VF table where the PF has VFs (cx5-ofed PF0)
		case $host/$bdf0 in
		cx6dx-upstream/*)
			[ "$(st fw-commands.json)" = ok ] && [ "$(st mlx5-resources.json)" = ok ] &&
			[ "$(jq -c '[(.eqs | length), (.cqs | length), [.qps[].state]]' "$d/mlx5-resources.json")" = '[13,4,["RTS","RTS","ERR"]]' ] &&
				ok "fw-commands.json and mlx5-resources.json (13 EQs, 4 CQs, 3 QPs)" ||
				bad "$name: debugfs items $(st fw-commands.json) $(st mlx5-resources.json)"
			[ "$(st sriov.json)" = unavailable ] || bad "$name: sriov.json $(st sriov.json)" ;;
		cx5-ofed/0000:5e:00.0)
			[ "$(st sriov.json)" = ok ] && [ "$(jq '.pfs[0].vfs | length' "$d/sriov.json")" = 4 ] &&
				ok "sriov.json: the 4 VFs" || bad "$name: sriov.json $(st sriov.json) $(head -c 200 "$d/sriov.json")"
			jq -r '.items[] | select(.name == "fw-commands.json") | .reason' "$m" | grep -q 'debugfs' &&
				ok "fw-commands.json unavailable: no debugfs in this capture" || bad "$name: fw-commands reason" ;;
		esac
		st() { jq -r ".items[] | select(.name == \"$1\") | .result" "$m"; }
		[ "$(st crspace.txt)" = unavailable ] && jq -r '.items[0].reason' "$m" | grep -E -q 'live device|permission' &&
			ok "crspace unavailable: $(jq -r '.items[0].reason' "$m")" || bad "crspace $(st crspace.txt)"
		# devlink health (recorded replies): the reporters with their diagnose;
		# dumps need the live device
		d_h=$d/devlink-health.json
		[ "$(jq -c '[.reporters[] | .name]' "$d_h")" = '["fw","fw_fatal","tx","rx"]' ] &&
		[ "$(jq -c '[.reporters[] | .diagnose_error == null]' "$d_h")" = '[true,false,true,true]' ] &&
		jq -e '.reporters[0].diagnose.Syndrome == 0 and (.reporters[2].diagnose.SQs | length) == 4' "$d_h" >/dev/null &&
			ok "devlink-health.json: 4 reporters, diagnose of fw/tx/rx" || bad "$name: devlink-health.json $(head -c 300 "$d_h")"
		[ "$(jq '[.items[] | select(.name | startswith("devlink-health-dump-")) | select(.result == "unavailable" and (.reason | test("live device")))] | length' "$m")" = 4 ] &&
			ok "4 dumps unavailable (live device)" || bad "$name: dump items"
		"$MLXCLI" --sysroot "$d/snapshot" -j -d "$bdf0" dbg get-state 2>/dev/null | jq -S '.devices[0].devlink_health' >"$tmp/a"
		"$MLXCLI" --sample="$host" -j -d "$bdf0" dbg get-state 2>/dev/null | jq -S '.devices[0].devlink_health' >"$tmp/b"
		[ "$(jq '.reporters | length' "$tmp/a")" = 4 ] && cmp -s "$tmp/a" "$tmp/b" && ok "snapshot: get-state devlink health" ||
			bad "$name: snapshot get-state health differs"
		for i in dcqcn.json pci.json pci-config.bin snapshot devlink-health.json rdma-qp.json rdma-cm-id.json; do
			[ "$(st $i)" = ok ] || bad "$name: $i $(st $i) $(jq -r ".items[] | select(.name == \"$i\") | .reason" "$m")"
		done
		[ "$(st kernel-log.txt)" = unavailable ] || bad "$name: kernel-log $(st kernel-log.txt)"
		# issue 24: the QPs of the function's RDMA device at the incident, as
		# `rdma qp -d` gives them; raw contexts where the capture has them
		# (cx5-ofed mlx5_0), else unavailable with the reason
		"$MLXCLI" --sample="$host" -j -d "$bdf0" rdma qp 2>/dev/null | jq -S . >"$tmp/a"
		jq -S . "$d/rdma-qp.json" >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" && ok "rdma-qp.json: rdma qp at the incident" || bad "$name: rdma-qp.json differs"
		case $host/$bdf0 in
		cx5-ofed/0000:5e:00.0) [ "$(st rdma-raw.json)" = ok ] &&
			[ "$(jq '[.contexts[] | select(.kind == "qp")] | length' "$d/rdma-raw.json")" = 5 ] &&
			ok "rdma-raw.json: the 5 QP contexts" || bad "$name: rdma-raw.json $(st rdma-raw.json)" ;;
		*) [ "$(st rdma-raw.json)" = unavailable ] && ok "rdma-raw.json unavailable: $(jq -r '.items[] | select(.name == "rdma-raw.json") | .reason' "$m")" ||
			bad "$name: rdma-raw.json $(st rdma-raw.json)" ;;
		esac
		[ "$(jq '[.items[] | select(.result != "ok" and .result != "unavailable" and .result != "failed")] | length' "$m")" = 0 ] ||
			bad "$name: a status outside ok|unavailable|failed"
		# every ok file: size and sha256 match, mode 0600 (the snapshot's
		# sha256 is its tree's: dump-me-now verify, tests/cli/evidence.sh)
		jq -r '.items[] | select(.result == "ok" and .sha256 != null and .name != "snapshot") | "\(.name) \(.size) \(.sha256)"' "$m" |
		while read -r f size sha; do
			[ "$(stat -c %s "$d/$f")" = "$size" ] || echo "FAIL: $f size"
			[ "$(sha256sum "$d/$f" | cut -d' ' -f1)" = "$sha" ] || echo "FAIL: $f sha256"
			[ "$(stat -c %a "$d/$f")" = 600 ] || echo "FAIL: $f mode"
		done >"$tmp/chk"
		[ -s "$tmp/chk" ] && bad "$name: $(cat "$tmp/chk")" || ok "sizes, sha256 and modes of the ok files"
		bdf=$(jq -r .pci_address "$m")
		# the snapshot inside serves the read commands
		"$MLXCLI" --sample="$host" -j devices 2>/dev/null | jq -S . >"$tmp/a"
		"$MLXCLI" --sysroot "$d/snapshot" -j devices 2>/dev/null | jq -S . >"$tmp/b"
		cmp -s "$tmp/a" "$tmp/b" && ok "snapshot: devices" || bad "$name: snapshot devices differ"
		"$MLXCLI" --sample="$host" -j -d "$bdf" qosconfig dcqcn get 2>/dev/null | jq -S . >"$tmp/a"
		"$MLXCLI" --sysroot "$d/snapshot" -j -d "$bdf" qosconfig dcqcn get 2>/dev/null | jq -S . >"$tmp/b"
		jq -S . "$d/dcqcn.json" >"$tmp/c"
		cmp -s "$tmp/a" "$tmp/b" && cmp -s "$tmp/a" "$tmp/c" && ok "snapshot and dcqcn.json: dcqcn get" ||
			bad "$name: dcqcn get differs"
	done <"$tmp/out"
	# show and list
	first=$(head -1 "$tmp/out")
	"$MLXCLI" -j dump-me-now show "$first" | jq -e '.items | length == 22' >/dev/null &&
		ok "show -j" || bad "show -j"
	"$MLXCLI" -j dump-me-now list --dir "$root" | jq -e ".incidents | length == $npf" >/dev/null &&
		ok "list -j" || bad "list -j"
done

echo "== retention 4/2 over 10"
r=$tmp/ret
: >"$tmp/order"
for i in 1 2 3 4 5 6 7 8 9 10; do
	"$MLXCLI" --sample -d 5e:00.0 dump-me-now --dir "$r" --total-count 4 --preserved-count 2 \
		--reason "n$i" --no-crdump >>"$tmp/order" 2>"$tmp/err" || bad "incident $i: $(cat "$tmp/err")"
done
got=$(ls "$r" | sed 's/.*-USER-\(n[0-9]*\)--.*/\1/' | sort -V | tr '\n' ' ')
[ "$got" = "n1 n2 n9 n10 " ] && ok "kept: $got" || bad "kept: $got, want n1 n2 n9 n10"
[ -z "$(ls -A "$r" | grep '^\.tmp')" ] || bad "temporary left"
# the text output says which incidents retention removed (issue 15): n3..n8,
# each once, as "removed by retention: PATH"; never a kept one
missing=
for i in 3 4 5 6 7 8; do
	p=$(grep -v '^removed' "$tmp/order" | grep -- "-USER-n$i--")
	[ "$(grep -cxF "removed by retention: $p" "$tmp/order")" = 1 ] || missing="$missing n$i"
done
[ -z "$missing" ] && [ "$(grep -c '^removed by retention: ' "$tmp/order")" = 6 ] &&
	ok "text: each removed incident named once" || bad "text: removals not said:$missing: $(grep '^removed' "$tmp/order")"
# and JSON: the next one removes n9, the oldest not preserved
n9=$(ls "$r" | grep -- '-USER-n9--')
"$MLXCLI" --sample -j -d 5e:00.0 dump-me-now --dir "$r" --total-count 4 --preserved-count 2 --no-crdump >"$tmp/j" 2>&1
[ "$(jq -c '.incidents[0].removed_by_retention' "$tmp/j")" = "[\"$n9\"]" ] && ok "JSON: removed_by_retention [n9]" ||
	bad "JSON removed_by_retention: $(cat "$tmp/j" | head -c 300)"
# the same from the configuration file
printf '# test\ndmn_dir = %s\ndmn_total_count=4\ndmn_preserved_count = 2\n' "$tmp/conf-ret" >"$tmp/mlxcli.conf"
for i in 1 2 3 4 5 6; do
	MLXCLI_CONFIG=$tmp/mlxcli.conf "$MLXCLI" --sample -d 5e:00.0 dump-me-now --reason "c$i" >/dev/null 2>&1
done
got=$(ls "$tmp/conf-ret" | sed 's/.*-USER-\(c[0-9]*\)--.*/\1/' | sort -V | tr '\n' ' ')
[ "$got" = "c1 c2 c5 c6 " ] && ok "config file: kept $got" || bad "config file: kept $got"
# list applies the configured retention values (issue 15), text and JSON:
# the values and their file, the preserved ones, the one the next dump removes
MLXCLI_CONFIG=$tmp/mlxcli.conf "$MLXCLI" -j dump-me-now list >"$tmp/l.json" 2>"$tmp/err" || bad "list: $(cat "$tmp/err")"
[ "$(jq -c '[.dir, .total_count, .preserved_count, .config_file, [.incidents[] | .preserved], [.incidents[] | .removed_by_next_dump]]' "$tmp/l.json")" = \
  "[\"$tmp/conf-ret\",4,2,\"$tmp/mlxcli.conf\",[true,true,false,false],[false,false,true,false]]" ] &&
	ok "list -j: the configured 4/2 applied" || bad "list -j: $(cat "$tmp/l.json")"
MLXCLI_CONFIG=$tmp/mlxcli.conf "$MLXCLI" dump-me-now list >"$tmp/l.txt" 2>&1
grep -qx "total count: 4" "$tmp/l.txt" && grep -qx "preserved count: 2" "$tmp/l.txt" &&
	grep -qxF "configuration file: $tmp/mlxcli.conf" "$tmp/l.txt" && grep -E -q -- '-USER-c5--.* no +yes *$' "$tmp/l.txt" &&
	grep -E -q -- '-USER-c1--.* yes +no *$' "$tmp/l.txt" && ok "list text: the configured 4/2 applied" || bad "list text: $(cat "$tmp/l.txt")"
# an unknown key is an error with the file and line (issue 15: it was ignored)
printf 'dmn_dir = %s\n# a comment\n\n\n\n\nfoo = 1\n' "$tmp/unk" >"$tmp/unk.conf"
for c in "dump-me-now -d 5e:00.0" "dump-me-now list" "dump-me-now show x"; do
	# shellcheck disable=SC2086
	MLXCLI_CONFIG=$tmp/unk.conf "$MLXCLI" --sample $c >"$tmp/o" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && grep -qxF "mlxcli: error: $tmp/unk.conf:7: unknown key 'foo'" "$tmp/err" && [ ! -e "$tmp/unk" ] &&
		[ ! -s "$tmp/o" ] && ok "unknown key, $c: exit 2, $(head -1 "$tmp/err")" || bad "unknown key, $c: exit $rc: $(cat "$tmp/err")"
done
printf 'dmn_total_count=lots\n' >"$tmp/bad.conf"
MLXCLI_CONFIG=$tmp/bad.conf "$MLXCLI" --sample dump-me-now --dir "$tmp/x" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'bad.conf:1' "$tmp/err" && ok "bad config: exit 2, $(cat "$tmp/err")" || bad "bad config"

echo "== ENOSPC on the k-th write of the incident (tests/fault/fault-shim.c)"
# The product has no test hook (DESIGN: test-only hooks never ship): the
# LD_PRELOAD shim fails the k-th write(2) into the incident's temporary
# folder with ENOSPC, as a full disk would.  The first write is
# devlink-health.json's, the last the manifest's (written after the
# snapshot's hundreds of files).
SHIM=${TOP_BUILDDIR:-$(pwd)}/tests/fault/fault-shim.so
if [ -f "$SHIM" ] && [ "$MLXCLI" = "${MLXCLI_REAL:-$MLXCLI}" ]; then
	shim() {        # DIR env...: fault writes under DIR's temporary folders
		d=$1
		shift
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" LD_PRELOAD=$SHIM \
		MLXCLI_FAULT_CALL=write MLXCLI_FAULT_PATH="$d/.tmp-" MLXCLI_FAULT_ERRNO=ENOSPC "$@"
	}
	tree_sum "$r" >"$tmp/before"
	rm -f "$tmp/count"
	shim "$tmp/dry" env MLXCLI_FAULT_NTH=0 MLXCLI_FAULT_COUNT="$tmp/count" "$MLXCLI" --sample -d 5e:00.0 \
		dump-me-now --dir "$tmp/dry" >/dev/null 2>&1
	n=$(cat "$tmp/count" 2>/dev/null || echo 0)
	[ "$n" -gt 8 ] && ok "a dry run counts $n writes in the incident" || bad "dry run counted $n writes"
	for k in 1 2 5 $((n / 2)) "$n"; do
		shim "$r" env MLXCLI_FAULT_NTH="$k" "$MLXCLI" --sample -d 5e:00.0 dump-me-now --dir "$r" \
			--total-count 4 --preserved-count 2 >"$tmp/out" 2>"$tmp/err"
		rc=$?
		tree_sum "$r" >"$tmp/after"
		if [ "$rc" -eq 1 ] && grep -q 'No space left' "$tmp/err" && cmp -s "$tmp/before" "$tmp/after" &&
		   [ "$(ls -A "$r" | wc -l)" -eq 4 ] && [ ! -s "$tmp/out" ]; then
			ok "write $k of $n: exit 1, nothing new, the 4 older intact"
		else
			bad "write $k of $n: exit $rc, $(cat "$tmp/err"), $(ls -A "$r")"
		fi
	done
else
	echo "  skipped: no fault shim, or under a wrapper"
fi

echo "== real ENOSPC on a small tmpfs"
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/mnt" && mount -t tmpfs -o size=96k tmpfs "$tmp/mnt" 2>/dev/null; then
	mnt=$tmp/mnt
	"$MLXCLI" --sample -d 5e:00.0 dump-me-now --dir "$mnt/d" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && [ -z "$(ls -A "$mnt/d")" ] && ok "tmpfs full: exit 1, $(cat "$tmp/err")" ||
		bad "tmpfs: exit $rc, left $(ls -A "$mnt/d")"
	umount "$mnt" && mnt=
else
	echo "  skipped: needs root and tmpfs mounts"
fi

echo "== concurrent"
c=$tmp/conc
"$MLXCLI" --sample -d 5e:00.0 dump-me-now --dir "$c" >"$tmp/c1" 2>&1 &
p1=$!
"$MLXCLI" --sample -d 5e:00.0 dump-me-now --dir "$c" >"$tmp/c2" 2>&1 &
p2=$!
wait $p1; r1=$?
wait $p2; r2=$?
n=$(ls "$c" | wc -l)
nm=$(ls "$c"/*/manifest.json 2>/dev/null | wc -l)
[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] && [ "$n" -eq 2 ] && [ "$nm" -eq 2 ] &&
	ok "two complete folders" || bad "concurrent: exits $r1 $r2, $n folders, $nm manifests: $(cat "$tmp/c1" "$tmp/c2")"

echo "== the kernel log of a captured system (lib/debug/evidence.c)"
# A capture with no /dev/kmsg but a syslog copy: the lines that name the
# function (its address, netdevs, RDMA devices) and no other.
"$MLXCLI" --sample snapshot "$tmp/klog" >/dev/null 2>&1 && mkdir -p "$tmp/klog/var/log" &&
cat >"$tmp/klog/var/log/kern.log" <<'LOG'
Nov 24 10:00:01 host kernel: mlx5_core 0000:5e:00.0: firmware version: 16.35.2000
Nov 24 10:00:02 host kernel: mlx5_core 0000:5e:00.1: port module event
Nov 24 10:00:03 host kernel: enp94s0f0np0: Link up
Nov 24 10:00:04 host kernel: e1000e 0000:00:1f.6 eno1: NIC Link is Up
LOG
"$MLXCLI" --sysroot "$tmp/klog" -d 5e:00.0 dump-me-now --dir "$tmp/kd" >"$tmp/out" 2>"$tmp/err"
d=$(head -1 "$tmp/out")
if [ -f "$d/kernel-log.txt" ]; then
	printf '# source: /var/log/kern.log\n%s\n%s\n' \
		'Nov 24 10:00:01 host kernel: mlx5_core 0000:5e:00.0: firmware version: 16.35.2000' \
		'Nov 24 10:00:03 host kernel: enp94s0f0np0: Link up' | cmp -s - "$d/kernel-log.txt" &&
		[ "$(jq -r '.items[] | select(.name == "kernel-log.txt") | .result' "$d/manifest.json")" = ok ] &&
		ok "kern.log of the capture: the device's 2 lines" || bad "kernel-log.txt: $(cat "$d/kernel-log.txt")"
else
	bad "no kernel-log.txt: $(cat "$tmp/err") $(jq -c '.items[] | select(.name == "kernel-log.txt")' "$d/manifest.json" 2>/dev/null)"
fi

# an incident of an earlier version names each item's outcome "status": still read
if [ -d "$d" ]; then
	cp -a "$d" "$tmp/old-incident" &&
		jq '.items |= map(with_entries(if .key == "result" then .key = "status" else . end))' \
			"$d/manifest.json" >"$tmp/old-incident/manifest.json" &&
		[ "$(jq -c '[.items[].result]' "$d/manifest.json")" = \
		  "$("$MLXCLI" -j dump-me-now show "$tmp/old-incident" 2>"$tmp/err" | jq -c '[.items[].result]')" ] &&
		ok "a manifest with items[].status (earlier versions) shows the same results" ||
		bad "old manifest: $(cat "$tmp/err")"
fi

echo "== refusals"
"$MLXCLI" --sample -d 5e:00.2 dump-me-now --dir "$tmp/vf" >/dev/null 2>"$tmp/err"
[ $? -eq 4 ] && [ ! -e "$tmp/vf" ] && ok "VF: exit 4, $(head -1 "$tmp/err")" || bad "VF"
"$MLXCLI" --sample dump-me-now --dir "$tmp/y" --total-count 70000 >/dev/null 2>&1
[ $? -eq 2 ] && ok "total-count 70000: exit 2" || bad "total-count range"
"$MLXCLI" --sample dump-me-now --dir "$r" --total-count 2 --preserved-count 4 >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && [ "$(ls -A "$r" | wc -l)" -eq 4 ] && ok "all preserved: exit 1, nothing removed" || bad "all preserved"
"$MLXCLI" --sample dbg dump-me-now 94 0 0 --dir "$tmp/triple" >"$tmp/out" 2>&1
[ $? -eq 0 ] && grep -q 'dmn-0000_5e_00.0-' "$tmp/out" && ok "dbg dump-me-now 94 0 0" || bad "dbg triple: $(cat "$tmp/out")"

echo "== an incident is evidence: no write goes into it (issue 15)"
# Locks of captured systems live in this user's runtime directory.
XDG_RUNTIME_DIR=$tmp/run
mkdir -m 0700 "$XDG_RUNTIME_DIR"
export XDG_RUNTIME_DIR
"$MLXCLI" --sample -d 5e:00.0 dump-me-now --dir "$tmp/ev" --no-crdump >"$tmp/out" 2>"$tmp/err" ||
	bad "incident for the evidence case: $(cat "$tmp/err")"
inc=$(head -1 "$tmp/out")
# every entry with its mode, every file's checksum
inc_sum() { (cd "$1" && find . -printf '%p %y %m\n' | sort && find . -type f -exec md5sum {} + | sort -k2) | md5sum; }
before=$(inc_sum "$inc")
for w in "qosconfig pfc none -d enp94s0f0np0" "qosconfig dcqcn set -d enp94s0f0np0 DcqcnRpgAiRate 20" \
	 "sriov vf -d 5e:00.0 1 set vlan 9" "sriov set -d 5e:00.0 numvfs 2 --yes" "sriov eswitch -d 5e:00.0 switchdev"; do
	# shellcheck disable=SC2086
	"$MLXCLI" --sysroot "$inc/snapshot" $w >"$tmp/o" 2>"$tmp/e"
	rc=$?
	[ $rc -eq 1 ] && [ ! -s "$tmp/o" ] && grep -q 'dump-me-now incident' "$tmp/e" && grep -q 'evidence' "$tmp/e" &&
		grep -q 'copy' "$tmp/e" && ok "refused: $w" || bad "$w on an incident: exit $rc: $(cat "$tmp/e")"
done
"$MLXCLI" --sysroot "$inc/snapshot/" -j qosconfig pfc none -d enp94s0f0np0 >/dev/null 2>&1
[ $? -eq 1 ] && ok "refused through a trailing slash" || bad "incident/snapshot/ not recognised"
"$MLXCLI" --sysroot "$inc/snapshot" -j qosconfig pfc none -d enp94s0f0np0 --dry-run >"$tmp/o" 2>"$tmp/e" &&
	jq -e '.dry_run == true' "$tmp/o" >/dev/null && ok "--dry-run (writes nothing) still answers" ||
	bad "dry-run on an incident: $(cat "$tmp/e")"
[ "$(inc_sum "$inc")" = "$before" ] && [ ! -e "$inc/snapshot/run" ] && ok "the incident is byte-identical, no run/lock" ||
	bad "the incident changed: $(cd "$inc" && find . -newer manifest.json | head -5)"
jq -r '.items[] | select(.result == "ok" and .sha256 != null and .name != "snapshot") | "\(.sha256)  \(.name)"' "$inc/manifest.json" >"$tmp/sums"
(cd "$inc" && sha256sum -c --quiet "$tmp/sums") >/dev/null 2>&1 && [ -s "$tmp/sums" ] &&
	ok "the manifest still verifies" || bad "the manifest does not verify"
# The manifest is read as JSON, however it is laid out (issue 26: it was
# found by a search for one spelling of the format key): on one line, as
# jq -c or another tool rewrites it, the incident is evidence still; a
# manifest of another format with that spelling in a nested object is not.
cp -a "$inc" "$tmp/inc-c"
jq -c . "$inc/manifest.json" >"$tmp/inc-c/manifest.json"
"$MLXCLI" --sysroot "$tmp/inc-c/snapshot" qosconfig pfc none -d enp94s0f0np0 >/dev/null 2>"$tmp/e"
rc=$?
[ $rc -eq 1 ] && grep -q 'evidence' "$tmp/e" && ok "a manifest on one line: still evidence, refused" ||
	bad "a manifest on one line: exit $rc: $(cat "$tmp/e")"
cp -a "$inc" "$tmp/inc-o"
jq '{format: "mlxcli-other", imported: .}' "$inc/manifest.json" >"$tmp/inc-o/manifest.json"
"$MLXCLI" --sysroot "$tmp/inc-o/snapshot" qosconfig pfc none -d enp94s0f0np0 >/dev/null 2>"$tmp/e" &&
	ok "a manifest of another format holding one: not an incident, writes go in" ||
	bad "a manifest of another format: exit $?: $(cat "$tmp/e")"
# A copy of the snapshot is not evidence: experiments go there.
cp -a "$inc/snapshot" "$tmp/copy"
"$MLXCLI" --sysroot "$tmp/copy" qosconfig pfc none -d enp94s0f0np0 >/dev/null 2>"$tmp/e" &&
	ok "a copy of the snapshot takes writes" || bad "copy: $(cat "$tmp/e")"
[ ! -e "$tmp/copy/run" ] && ok "no lock inside the copy" || bad "lock inside the copy: $(find "$tmp/copy/run")"
# The sample's working copy: writes work, the lock is in the runtime
# directory, never inside the copy.
"$MLXCLI" --sample qosconfig pfc 3 -d enp94s0f0np0 >/dev/null 2>"$tmp/e" || bad "sample write: $(cat "$tmp/e")"
[ -d "$MLXCLI_STATE_DIR/samples/cx5-ofed/sys" ] && [ ! -e "$MLXCLI_STATE_DIR/samples/cx5-ofed/run" ] &&
	ok "sample working copy: no run/lock inside" || bad "sample working copy: $(ls -A "$MLXCLI_STATE_DIR/samples/cx5-ofed")"
ls "$XDG_RUNTIME_DIR"/mlxcli/*0000:5e:00.0*.lock >/dev/null 2>&1 && [ "$(stat -c %a "$XDG_RUNTIME_DIR/mlxcli")" = 700 ] &&
	ok "locks in \$XDG_RUNTIME_DIR/mlxcli (0700): $(ls "$XDG_RUNTIME_DIR/mlxcli" | tr '\n' ' ')" ||
	bad "no lock in the runtime directory: $(ls -lA "$XDG_RUNTIME_DIR")"
# Without a usable runtime directory: /tmp/mlxcli-UID, mode 0700.
XDG_RUNTIME_DIR=$tmp/no-such-dir "$MLXCLI" --sysroot "$tmp/copy" qosconfig pfc 4 -d enp94s0f0np0 >/dev/null 2>"$tmp/e" ||
	bad "write without a runtime directory: $(cat "$tmp/e")"
[ ! -e "$tmp/no-such-dir" ] && [ ! -e "$tmp/copy/run" ] && ok "a missing \$XDG_RUNTIME_DIR is not created, nor a lock in the copy" ||
	bad "runtime fallback"
unset XDG_RUNTIME_DIR

# A captured system's incident never goes to this host's own dump root (the
# default /var/lib/mlxcli/dmn, or /etc/mlxcli.conf's dmn_dir): a sample's
# "dmn-0000_3b_00.0-..." there would read as this machine's evidence.
# Without --dir (or dmn_dir= in a file named by MLXCLI_CONFIG) it is refused,
# exit 2, before anything is made.  As nobody when root: before the fix, root
# would have written into the host's store (seen there: two sample incidents
# in /var/lib/mlxcli/dmn of a build machine); nobody fails on it instead.
if [ "$(id -u)" = 0 ]; then
	priv_setup cx6dx-upstream
	dmn_user() { as_nobody env MLXCLI_SAMPLES_DIR="$PRIV/samples" MLXCLI_STATE_DIR="$PRIV/state" "$NOBODY_MLXCLI" "$@"; }
else
	dmn_user() { "$MLXCLI" "$@"; }
fi
for how in unset default-file; do
	if [ $how = unset ]; then
		dmn_user --sample=cx6dx-upstream dump-me-now --reason x >"$tmp/o" 2>"$tmp/e"
	else
		MLXCLI_CONFIG=/etc/mlxcli.conf dmn_user --sample=cx6dx-upstream dump-me-now --reason x >"$tmp/o" 2>"$tmp/e"
	fi
	rc=$?
	[ $rc -eq 2 ] && grep -q -- '--dir' "$tmp/e" && grep -q 'captured' "$tmp/e" &&
		ok "a captured system without --dir ($how): refused, exit 2, names --dir" ||
		bad "a captured system without --dir ($how): exit $rc: $(cat "$tmp/e" "$tmp/o")"
done

finish
