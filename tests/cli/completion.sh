#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion through real bash: the script in completions/ asks
# `mlxcli __complete`, so this checks the script, the hidden command and the
# tables together.  zsh is checked only when it is installed.
set -u
command -v bash >/dev/null || { echo "SKIP: no bash"; exit 77; }
STATE=$(mktemp -d)
trap 'rm -rf "$STATE"' EXIT
export MLXCLI_STATE_DIR="$STATE"
BIN=$(dirname "$MLXCLI")
fail=0

# complete WORDS... : print COMPREPLY for the line "mlxcli WORDS..." (the last
# word is the one being completed; "" for a fresh word).
complete_line() {
	PATH="$BIN:$PATH" bash -c '
		. "$TOP_SRCDIR/completions/mlxcli"
		COMP_WORDS=(mlxcli "$@"); COMP_CWORD=$#
		_mlxcli
		printf "%s\n" "${COMPREPLY[@]}" | sort' bash "$@"
}

expect() {      # expect "WANTED LINES" words...
	want=$1
	shift
	got=$(complete_line "$@" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then
		echo "ok: mlxcli $* -> $got"
	else
		echo "FAIL: mlxcli $* -> '$got', wanted '$want'"
		fail=1
	fi
}

expect "devices" dev
expect "devices ports" show ""
expect "--json" --js
expect "sample" sam
expect "list reset" sample ""
# A fresh word: exactly the commands `mlxcli help` lists, in any order.
expect "$("$MLXCLI" help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\).*/\1/p' | sort | tr '\n' ' ' | sed 's/ $//')" ""
# After -d: the devices of the system named on the line.
expect "0000:5e:00.0 0000:5e:00.1 0000:5e:00.2 0000:5e:00.3 0000:5e:00.4 0000:5e:00.5" --sample devices -d 0000
expect "enp94s0f0np0" --sample -d enp94s0f0
expect "mlx5_0 mlx5_1" --sample=cx6dx-upstream -d mlx5
# Unknown words complete to nothing rather than to something wrong.
expect "" nosuch ""

if command -v zsh >/dev/null; then
	out=$(PATH="$BIN:$PATH" zsh -c "autoload -U compinit; compinit -u -d $STATE/zcomp; source $TOP_SRCDIR/completions/_mlxcli" 2>&1 </dev/null)
	echo "zsh: script loads${out:+: $out}"
fi
exit $fail
