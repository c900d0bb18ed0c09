#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Incident folders are evidence (issue 29 item 4): every route that wrote
# into one is refused, exit 1, the incident byte-identical after:
#   counters --format prometheus --output INCIDENT/pci.json (replacing a
#   file), --output INCIDENT/snapshot/sys/x.prom (deeper), dump-me-now --dir
#   INCIDENT, snapshot INCIDENT/x, --sysroot of a folder inside the
#   snapshot, a bind mount of the snapshot written through (as root);
#   a hard-linked copy (cp -al) of the snapshot may be written, but the
#   write replaces files, so the incident's own stay as they were.
# `dump-me-now verify` checks each item's SHA-256, the snapshot's tree
# included: intact (exit 0), then changed (exit 1) once a byte moves.
. "$(dirname "$0")/lib.sh"
need jq
fresh cap cx5-ofed
"$MLXCLI" --sysroot "$tmp/cap" dump-me-now --dir "$tmp/dmn" -d 5e:00.0 >/dev/null 2>"$tmp/d.err" ||
	{ bad "dump-me-now: $(cat "$tmp/d.err")"; finish; }
inc=$(ls -d "$tmp"/dmn/dmn-* | head -n 1)
sum() { (cd "$1" && find . -print0 | sort -z | xargs -0 ls -ild --time-style=+%s.%N | md5sum) }
before=$(sum "$inc")
refused() { # WHAT CMD...: exit 1, "is inside the dump-me-now incident", nothing changed
	what=$1
	shift
	"$MLXCLI" "$@" >"$tmp/r.out" 2>"$tmp/r.err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "inside the dump-me-now incident" "$tmp/r.err"; then
		ok "$what: refused"
	else
		bad "$what: exit $rc: $(cat "$tmp/r.err")"
	fi
	[ "$(sum "$inc")" = "$before" ] && ok "$what: the incident is unchanged" || bad "$what: the incident changed"
}
P="--sysroot $tmp/cap counters --format prometheus --output"
# shellcheck disable=SC2086
refused "--output INCIDENT/pci.json" $P "$inc/pci.json"
# shellcheck disable=SC2086
refused "--output INCIDENT/x.prom" $P "$inc/x.prom"
# shellcheck disable=SC2086
refused "--output deeper in the snapshot" $P "$inc/snapshot/sys/x.prom"
refused "dump-me-now --dir INCIDENT" --sysroot "$tmp/cap" dump-me-now --dir "$inc" -d 5e:00.0
refused "dump-me-now --dir INCIDENT/sub" --sysroot "$tmp/cap" dump-me-now --dir "$inc/sub" -d 5e:00.0
refused "snapshot INCIDENT/x" --sysroot "$tmp/cap" snapshot "$inc/x"
refused "--sysroot INCIDENT/snapshot, a write" --sysroot "$inc/snapshot" qosconfig dcqcn set -d enp94s0f0np0 rpg_ai_rate 10
"$MLXCLI" dump-me-now verify "$inc" >"$tmp/v.out" 2>"$tmp/v.err"
check "verify of the untouched incident: exit" "$?" 0
"$MLXCLI" -j dump-me-now verify "$inc" >"$tmp/v.json" 2>/dev/null
check "verify: the snapshot's tree was hashed and matches" \
	"$(jq -r '.incidents[0].items[] | select(.name == "snapshot") | .result' "$tmp/v.json")" ok
check "verify: result" "$(jq -r '.incidents[0].result' "$tmp/v.json")" intact

# a hard-linked copy of the snapshot, written: the incident's files stay
cp -al "$inc/snapshot" "$tmp/hl"
"$MLXCLI" --sysroot "$tmp/hl" qosconfig dcqcn set -d enp94s0f0np0 rpg_ai_rate 10 >/dev/null 2>"$tmp/h.err"
check "a hard-linked copy may be written" "$?" 0
"$MLXCLI" -j --sysroot "$tmp/hl" qosconfig dcqcn get -d enp94s0f0np0 | grep -q '"linux_name":"rpg_ai_rate","value":10,' &&
	ok "the copy has the new value" || bad "the copy: no rpg_ai_rate 10"
# (the hard links counted in each file's link count: the sum starts again)
before=$(sum "$inc")
"$MLXCLI" dump-me-now verify "$inc" >/dev/null 2>&1
check "verify after the hard-linked write: intact" "$?" 0

# a bind mount of the snapshot (root only)
if [ "$(id -u)" = 0 ] && mkdir "$tmp/mnt" && mount --bind "$inc/snapshot" "$tmp/mnt" 2>/dev/null; then
	on_exit="umount '$tmp/mnt' 2>/dev/null; $on_exit"
	refused "a bind mount of the snapshot, a write" --sysroot "$tmp/mnt" qosconfig dcqcn set -d enp94s0f0np0 rpg_ai_rate 11
	# shellcheck disable=SC2086
	refused "--output into the bind mount" $P "$tmp/mnt/y.prom"
	umount "$tmp/mnt"
else
	echo "  (no bind mount here: that route is not checked)"
fi

# tampering is found: a byte of the snapshot's tree, then a file
f=$(find "$inc/snapshot/sys" -name sriov_numvfs | head -n 1)
chmod u+w "$f" && echo 7 >"$f"
"$MLXCLI" -j dump-me-now verify "$inc" >"$tmp/v2.json" 2>"$tmp/v2.err"
check "verify after a change in the snapshot: exit" "$?" 1
check "verify names the snapshot" \
	"$(jq -r '[.incidents[0].items[] | select(.result != "ok" and .result != "no_hash") | .name] | join(",")' "$tmp/v2.json")" snapshot
rm "$inc/pci.json"
"$MLXCLI" -j dump-me-now verify "$inc" >"$tmp/v3.json" 2>/dev/null
check "a removed file is missing" "$(jq -r '.incidents[0].items[] | select(.name == "pci.json") | .result' "$tmp/v3.json")" missing
finish
