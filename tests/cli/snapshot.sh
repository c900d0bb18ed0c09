#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `mlxcli snapshot DIR` (mlxcli-snapshot(8)):
#   - a snapshot of each sample host read back with --sysroot answers
#     `devices -j` and `ports -j` exactly as the sample does (jq -S);
#   - DIR/mlxcli-snapshot.json holds the keys the man page lists;
#   - the JSON summary has the keys the man page lists;
#   - a snapshot into an existing directory: exit 2, the directory unchanged;
#   - -d is refused (exit 2);
#   - a failed snapshot (parent not writable: run as nobody through setpriv,
#     root only; a missing parent) leaves neither DIR nor DIR.tmp-* behind;
#   - a snapshot of a snapshot is the same system again.
# Exit 0 pass, 1 fail, 77 skip.

. "$(dirname "$0")/lib.sh"
need jq
# a test leaves read-only directories behind: make them removable
on_exit='chmod -R u+w "$tmp" 2>/dev/null'

# same_json WHAT A B: the two files are the same JSON document (jq -S)
same_json() {
	if jq -S . "$2" >"$tmp/a.s" 2>/dev/null && jq -S . "$3" >"$tmp/b.s" 2>/dev/null &&
	   cmp -s "$tmp/a.s" "$tmp/b.s"; then
		ok "$1"
	else
		bad "$1: the JSON differs"
		diff -u "$tmp/a.s" "$tmp/b.s" | head -20
	fi
}

for host in cx5-ofed cx6dx-upstream; do
	echo "== $host"
	snap=$tmp/$host
	"$MLXCLI" --sample="$host" -j snapshot "$snap" >"$tmp/snap.json" 2>"$tmp/snap.err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ ! -d "$snap" ]; then
		bad "$host: snapshot exited $rc: $(cat "$tmp/snap.err")"
		continue
	fi
	ok "$host: snapshot exit 0"
	# the summary (JSON OUTPUT of mlxcli-snapshot(8))
	got=$(jq -c 'keys_unsorted' "$tmp/snap.json")
	want='["schema_version","path","functions","files","links","bytes","skipped"]'
	[ "$got" = "$want" ] && ok "summary keys $got" || bad "summary keys $got, want $want"
	n=$(jq '.functions' "$tmp/snap.json")
	want_n=6
	[ "$host" = cx6dx-upstream ] && want_n=2
	[ "$n" = "$want_n" ] && ok "functions $n" || bad "functions $n, want $want_n"
	[ "$(jq '.skipped' "$tmp/snap.json")" = 0 ] || bad "$host: entries skipped reading a sample"
	[ "$(jq -r '.path' "$tmp/snap.json")" = "$snap" ] || bad "$host: summary path"
	[ "$(jq '.files > 0 and .links > 0 and .bytes > 0' "$tmp/snap.json")" = true ] ||
		bad "$host: empty snapshot counts"

	# the metadata file: the keys of mlxcli-snapshot(8) FORMAT, in that order
	meta=$snap/mlxcli-snapshot.json
	got=$(jq -c 'keys_unsorted' "$meta" 2>&1)
	want='["schema_version","format","format_version","mlxcli_version","captured_at","hostname","kernel","source"]'
	[ "$got" = "$want" ] && ok "metadata keys $got" || bad "metadata keys $got, want $want"
	[ "$(jq -r '.format' "$meta")" = mlxcli-sysroot ] || bad "metadata format"
	[ "$(jq '.format_version' "$meta")" = 1 ] || bad "metadata format_version"
	[ "$(jq '.schema_version' "$meta")" = 1 ] || bad "metadata schema_version"
	[ "$(jq -r '.mlxcli_version' "$meta")" = "$("$MLXCLI" --version | cut -d' ' -f2)" ] ||
		bad "metadata mlxcli_version is not this mlxcli's"
	jq -r '.captured_at' "$meta" | grep -E -q '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' ||
		bad "metadata captured_at is not ISO 8601 UTC: $(jq -r '.captured_at' "$meta")"
	echo "  metadata: $(jq -c . "$meta")"
	# the captured system's name and kernel, not this machine's (issue 15)
	rec=$MLXCLI_SAMPLES_DIR/$host/mlxcli-snapshot.json
	[ "$(jq -c '[.hostname, .kernel]' "$meta")" = "$(jq -c '[.hostname, .kernel]' "$rec")" ] &&
		ok "$host: hostname and kernel are the sample's ($(jq -c '[.hostname, .kernel]' "$rec"))" ||
		bad "$host: hostname/kernel $(jq -c '[.hostname, .kernel]' "$meta"), the sample's $(jq -c '[.hostname, .kernel]' "$rec")"

	# read back: the same answers as the sample, for every read command
	# whose sources the snapshot carries (sysfs, debugfs, netlink replies)
	for cmd in devices ports "sriov show" fw "pci show" "show qos" "qosconfig dcqcn get" counters; do
		# shellcheck disable=SC2086
		"$MLXCLI" --sample="$host" -j $cmd >"$tmp/want.json" 2>/dev/null
		# shellcheck disable=SC2086
		"$MLXCLI" --sysroot "$snap" -j $cmd >"$tmp/got.json" 2>/dev/null
		rc=$?
		[ "$rc" -eq 0 ] || bad "$host: --sysroot snapshot $cmd exited $rc"
		same_json "$host: --sysroot SNAP -j $cmd = --sample -j $cmd" "$tmp/want.json" "$tmp/got.json"
		# shellcheck disable=SC2086
		"$MLXCLI" --sample="$host" $cmd >"$tmp/want.txt" 2>&1
		# shellcheck disable=SC2086
		"$MLXCLI" --sysroot "$snap" $cmd >"$tmp/got.txt" 2>&1
		cmp -s "$tmp/want.txt" "$tmp/got.txt" && ok "$host: $cmd text (and stderr) equal" ||
			bad "$host: $cmd text differs"
	done

	# a snapshot of the snapshot answers the same again
	"$MLXCLI" --sysroot "$snap" snapshot "$snap.2" >/dev/null 2>"$tmp/snap2.err" ||
		bad "$host: snapshot of a snapshot failed: $(cat "$tmp/snap2.err")"
	"$MLXCLI" --sysroot "$snap.2" -j devices >"$tmp/got2.json" 2>/dev/null
	"$MLXCLI" --sample="$host" -j devices >"$tmp/want.json" 2>/dev/null
	same_json "$host: snapshot of the snapshot, devices" "$tmp/want.json" "$tmp/got2.json"
done

echo "== hostname and kernel of a capture without metadata"
# a captured tree with only proc/sys/kernel (hostname, osrelease): those;
# with neither, unknown (null), never this machine's
cp -r "$MLXCLI_SAMPLES_DIR/cx5-ofed" "$tmp/bare" && rm "$tmp/bare/mlxcli-snapshot.json"
"$MLXCLI" --sysroot "$tmp/bare" snapshot "$tmp/bare-snap1" >/dev/null 2>&1 || bad "snapshot of a bare capture"
[ "$(jq -c '[.hostname, .kernel]' "$tmp/bare-snap1/mlxcli-snapshot.json")" = '[null,null]' ] &&
	ok "no record: hostname and kernel null" ||
	bad "no record: $(jq -c '[.hostname, .kernel]' "$tmp/bare-snap1/mlxcli-snapshot.json")"
mkdir -p "$tmp/bare/proc/sys/kernel"
echo captured-host >"$tmp/bare/proc/sys/kernel/hostname"
echo 6.1.0-captured >"$tmp/bare/proc/sys/kernel/osrelease"
"$MLXCLI" --sysroot "$tmp/bare" snapshot "$tmp/bare-snap2" >/dev/null 2>&1 || bad "snapshot of a bare capture with proc"
[ "$(jq -c '[.hostname, .kernel]' "$tmp/bare-snap2/mlxcli-snapshot.json")" = '["captured-host","6.1.0-captured"]' ] &&
	ok "proc/sys/kernel: its hostname and kernel" ||
	bad "proc/sys/kernel: $(jq -c '[.hostname, .kernel]' "$tmp/bare-snap2/mlxcli-snapshot.json")"

echo "== existing DIR"
snap=$tmp/cx5-ofed
tree_sum "$snap" >"$tmp/before"
"$MLXCLI" --sample snapshot "$snap" >"$tmp/out" 2>"$tmp/err"
rc=$?
tree_sum "$snap" >"$tmp/after"
[ "$rc" -eq 2 ] && ok "snapshot into an existing DIR: exit 2" || bad "existing DIR: exit $rc"
grep -q "already exists" "$tmp/err" && ok "says: $(cat "$tmp/err")" || bad "existing DIR: stderr $(cat "$tmp/err")"
[ -s "$tmp/out" ] && bad "existing DIR: stdout not empty"
cmp -s "$tmp/before" "$tmp/after" && ok "existing DIR unchanged ($(wc -l <"$tmp/after") files)" ||
	bad "existing DIR was changed"
mkdir "$tmp/empty"
"$MLXCLI" --sample snapshot "$tmp/empty" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ -z "$(ls -A "$tmp/empty")" ] && ok "existing empty DIR: exit 2, still empty" ||
	bad "existing empty DIR: exit $rc, $(ls -A "$tmp/empty")"
: >"$tmp/file"
"$MLXCLI" --sample snapshot "$tmp/file" >/dev/null 2>&1
[ $? -eq 2 ] && [ ! -s "$tmp/file" ] && ok "existing file: exit 2, untouched" || bad "existing file"

echo "== -d"
"$MLXCLI" --sample -d 5e:00.0 snapshot "$tmp/with-d" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$tmp/with-d" ] && ok "-d: exit 2, nothing written" || bad "-d: exit $rc"

# left_behind PARENT NAME: anything named NAME or NAME.tmp-* in PARENT
left_behind() {
	ls -A "$1" 2>/dev/null | grep -E "^$2(\.tmp-.*)?\$"
}

echo "== failed snapshot"
# a missing parent directory
"$MLXCLI" --sample snapshot "$tmp/no/such/dir" >/dev/null 2>"$tmp/err"
rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] && [ ! -e "$tmp/no" ]; then
	ok "missing parent: exit $rc, nothing created ($(cat "$tmp/err"))"
else
	bad "missing parent: exit $rc, $(ls -A "$tmp")"
fi
# the parent is not writable by the user running it
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	priv_setup
	ro=$tmp/readonly
	mkdir -p "$ro" && chmod 0755 "$tmp" "$ro"
	# nobody must be able to read the system it captures
	chmod -R a+rX "$tmp/cx5-ofed"
	as_nobody env MLXCLI_STATE_DIR=/nonexistent "$NOBODY_MLXCLI" --sysroot "$tmp/cx5-ofed" snapshot "$ro/snap" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo "  as nobody: exit $rc: $(cat "$tmp/err")"
	if [ "$rc" -eq 1 ] || [ "$rc" -eq 5 ]; then
		ok "unwritable parent: exit $rc (1 failed or 5 permission denied)"
	else
		bad "unwritable parent: exit $rc, want 1 or 5"
	fi
	left=$(left_behind "$ro" snap)
	[ -z "$left" ] && ok "unwritable parent: no snap, no snap.tmp-* left" || bad "left behind: $left"
	[ -s "$tmp/out" ] && bad "unwritable parent: stdout not empty: $(cat "$tmp/out")"
	# the same user can snapshot where it may write: the failure was the parent
	wr=$tmp/writable
	mkdir -p "$wr" && chown 65534:65534 "$wr"
	as_nobody env MLXCLI_STATE_DIR=/nonexistent "$NOBODY_MLXCLI" --sysroot "$tmp/cx5-ofed" snapshot "$wr/snap" \
		>/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ -f "$wr/snap/mlxcli-snapshot.json" ] && [ -z "$(ls -A "$wr" | grep tmp-)" ] &&
		ok "as nobody into a writable parent: exit 0, no temporary left" ||
		bad "as nobody into a writable parent: exit $rc $(cat "$tmp/err")"
else
	echo "  skipped: the unwritable-parent case needs root (setpriv to nobody)"
fi

finish
