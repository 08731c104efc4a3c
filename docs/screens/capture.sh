#!/usr/bin/env bash
# Captures the TUI's screens as a user sees them, for docs/screens.
#
#   bash docs/screens/capture.sh            # every size: 80x24, 120x40, 200x60, small
#   bash docs/screens/capture.sh 80x24      # one size of the flow
#
# It builds gravf-tui, runs it in tmux (its own server socket, session
# "cap") inside a temporary folder, so that the trace and the exported
# project land there, walks the flow with tmux send-keys and writes each
# screen as plain text to docs/screens/<step>-<cols>x<rows>.txt. The flow:
# open the default notebook (T_sys and what binds in the headline); find
# the board's memory bandwidth with / and lower it (memory.peak_gib_s 21.7
# -> 10), reading the field and the model's answer on one screen (the
# summary under the form, or the dashboard pane from 140 columns); type an
# invalid fpgas and see the model wait for it; scroll the model cell with
# PgDn; the help; run the sweep; run the simulation (running, finished);
# step and play its trace; export a small design (2 FPGAs x 2 PEs, edges in
# BRAM, a 256-vertex graph) with make sim; quit with unsaved changes. The
# last run resizes an 80x24 window to 70x20 (the compact layout), then to
# 36x10 (too small), and quits.
#
# Needs go, tmux, and make and iverilog for the export's make sim. Every
# wait polls the pane for the text that the step must show (no fixed sleeps
# beyond a short settle), and a step that does not show it in time fails
# with the screen it saw. A full run takes well under a minute.
set -euo pipefail
trap 'echo "capture.sh: failed at line $LINENO" >&2' ERR

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=$here

for tool in go tmux make iverilog; do
	command -v "$tool" >/dev/null || { echo "capture.sh: needs $tool" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/gravf-screens.XXXXXX")
sock="gravf-cap-$$"
session=cap
# Our own server (socket), UTF-8, and no user configuration.
tm() { tmux -u -L "$sock" -f /dev/null "$@"; }
cleanup() {
	tm kill-session -t "$session" 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

(cd "$repo" && go build -o "$tmp/gravf-tui" ./cmd/gravf-tui)

# screen prints the pane as text.
screen() { tm capture-pane -p -t "$session"; }

# wait_for TEXT [SECONDS]: poll the pane until it shows TEXT (a fixed
# string); fail with the screen after SECONDS (default 30).
wait_for() {
	local text=$1 limit=${2:-30} start=$SECONDS
	until screen | grep -qF -- "$text"; do
		if ((SECONDS - start > limit)); then
			echo "capture.sh: no \"$text\" after ${limit}s; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.1
	done
}

# wait_re REGEX [SECONDS]: wait_for with an extended regular expression.
wait_re() {
	local re=$1 limit=${2:-30} start=$SECONDS
	until screen | grep -qE -- "$re"; do
		if ((SECONDS - start > limit)); then
			echo "capture.sh: nothing matches /$re/ after ${limit}s; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.1
	done
}

# wait_gone TEXT [SECONDS]: poll until the pane no longer shows TEXT.
wait_gone() {
	local text=$1 limit=${2:-30} start=$SECONDS
	while screen | grep -qF -- "$text"; do
		if ((SECONDS - start > limit)); then
			echo "capture.sh: \"$text\" still there after ${limit}s; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.1
	done
}

# settle: wait until two captures 0.3 s apart are the same (at most 5 s).
settle() {
	local a b i
	a=$(screen)
	for i in $(seq 1 17); do
		sleep 0.3
		b=$(screen)
		[[ $a == "$b" ]] && return 0
		a=$b
	done
}

# idle: no background job in the top bar, and the screen still.
idle() {
	local start=$SECONDS
	while screen | head -1 | grep -qF '⟳'; do
		if ((SECONDS - start > ${1:-120})); then
			echo "capture.sh: a job is still running; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.1
	done
	settle
}

# keys KEY...: send keys (tmux names: Enter, Escape, C-u, Space, ...).
keys() { tm send-keys -t "$session" "$@"; }
# type TEXT: send TEXT literally.
type_text() { tm send-keys -t "$session" -l -- "$1"; }
# esc: Escape alone, then a pause, so that the next key is not read as
# alt+key (a terminal sends ESC at once when the key is pressed).
esc() {
	keys Escape
	sleep 0.3
}

# shot STEP: write the pane to docs/screens/STEP-<cols>x<rows>.txt.
size=""
shot() {
	local f="$out/$1-$size.txt"
	screen >"$f"
	echo "  $(basename "$f")"
}

# cursor_cycle prints the trace cell's "cycle N/M".
cursor_cycle() { screen | grep -o 'cycle [0-9,]*/[0-9,]*' | head -1 || true; }

# focused N KIND: wait until cell N (KIND) has the focus bar.
focused() { wait_re "^▌ $1 $2( |\$)" "${3:-10}"; }

start() {
	local cols=$1 rows=$2
	size="${cols}x${rows}"
	tm kill-session -t "$session" 2>/dev/null || true
	# remain-on-exit keeps the pane after the program quits, so that the
	# quit can be checked.
	tm new-session -d -s "$session" -x "$cols" -y "$rows" -c "$tmp" \
		"cd '$tmp' && exec env -u NO_COLOR ./gravf-tui"
	tm set-option -t "$session" remain-on-exit on >/dev/null
}

# exited: wait until the program has quit.
exited() {
	local start=$SECONDS
	until [[ $(tm display-message -p -t "$session" '#{pane_dead}') == 1 ]]; do
		if ((SECONDS - start > 10)); then
			echo "capture.sh: the program did not quit; the screen:" >&2
			screen >&2
			exit 1
		fi
		sleep 0.1
	done
}

flow() {
	local cols=$1 rows=$2
	echo "flow at ${cols}x${rows}"
	rm -rf "${tmp:?}"/wcc-4xac510*
	start "$cols" "$rows"

	# Open the default notebook; the quick cells evaluate by themselves,
	# and the headline gives T_sys and what binds.
	wait_for "2 platform"
	wait_for "T_sys 6.750 GTEPS"
	idle
	shot open

	# Find memory.peak_gib_s with / and lower it, 21.7 -> 10: the value is
	# selected, so typing replaces it, and the model follows the keys.
	keys /
	wait_for "a field or a cell"
	type_text peak
	wait_for "▸ memory.peak_gib_s · cell 2 platform"
	keys Enter
	wait_re "▸ memory.peak_gib_s +21.7"
	keys Enter
	type_text 10
	wait_for "T_sys 4.387 GTEPS"
	keys Enter
	wait_re "▸ memory.peak_gib_s +10  GiB/s"
	idle
	shot platform-edit

	# An invalid fpgas: the model waits for it, the error is at the field.
	keys g j Enter
	wait_re "▸ fpgas \(nF\)"
	type_text abc
	keys Enter
	wait_for "waiting for a valid fpgas in cell 2"
	settle
	shot invalid
	keys Enter
	type_text 4
	keys Enter
	wait_for "T_sys 4.387 GTEPS"
	esc
	wait_for "into the cell"

	# The model cell, scrolled with PgDn.
	keys 6
	focused 6 model
	wait_for "10.0 GiB/s per FPGA"
	idle
	shot model
	keys PgDn
	wait_gone "▌ 6 model"
	settle
	shot model-pgdn
	keys 6
	focused 6 model

	# The help lists the keys that work here.
	keys '?'
	wait_for "keys (? closes)"
	settle
	shot help
	keys '?'
	wait_gone "keys (? closes)"

	# The sweep, run on r.
	keys j
	focused 7 sweep
	keys r
	wait_for "best:" 120
	idle
	shot sweep

	# The simulation: running, then finished.
	keys j
	focused 8 simulate
	keys r
	wait_re "( [1-9][0-9]? %.*c cancels|throughput per superstep)" 60
	if screen | grep -qF "c cancels"; then
		shot simulate-running
	else
		echo "  (the simulation ended before a running screen; simulate-running-$size.txt kept)" >&2
	fi
	wait_for "throughput per superstep" 600
	idle
	shot simulate

	# The trace of that run: two supersteps on, then playing.
	keys j
	focused 9 trace
	wait_for "⏸ paused" 120
	idle
	keys . .
	wait_for "superstep 2 (of 0.."
	settle
	shot trace
	keys Space
	wait_for "▶ playing"
	# a second of frames, once the cursor moved
	local c0 start=$SECONDS
	c0=$(cursor_cycle)
	while [[ $(cursor_cycle) == "$c0" ]] && ((SECONDS - start < 10)); do sleep 0.1; done
	sleep 1
	shot trace-playing
	keys p
	wait_for "⏸ paused"

	# Export a design small enough for make sim: 2 FPGAs x 2 PEs with the
	# edges in BRAM, on a 256-vertex graph.
	keys g
	focused 1 notes
	keys j
	focused 2 platform
	keys Enter
	wait_for "previous field"
	wait_for "▸ board"
	keys j Enter C-u
	type_text 2
	keys Enter
	wait_re "▸ fpgas \(nF\) +2"
	keys j Enter C-u
	type_text 2
	keys Enter
	wait_re "▸ pes \(nP per FPGA\) +2"
	keys j j
	wait_for "▸ mem (edges)"
	keys l
	wait_re "▸ mem \(edges\) +◂ bram"
	esc
	wait_for "into the cell"
	keys j j
	focused 4 dataset
	keys Enter
	wait_for "▸ graph"
	keys Enter C-u
	type_text "uniform:v=256,d=4,seed=1"
	keys Enter
	wait_re "▸ graph +uniform:v=256,d=4,seed=1"
	esc
	wait_for "into the cell"
	idle
	keys G
	focused 10 export
	keys Enter
	wait_for "▸ directory"
	keys j j
	wait_for "▸ run make sim"
	keys Space
	wait_re "▸ run make sim after writing +\[x\]"
	esc
	wait_for "into the cell"
	keys r
	wait_for "make sim: RESULT" 600
	idle
	shot export

	# Quit with unsaved changes: the program asks, n quits.
	keys q
	wait_for "Unsaved changes"
	settle
	shot quit
	keys n
	exited
}

small() {
	echo "small: 80x24 resized to 70x20 (compact), then 36x10 (too small)"
	start 80 24
	wait_for "2 platform"
	idle
	tm resize-window -t "$session" -x 70 -y 20
	wait_for "T_sys 6.750 GTEPS"
	size=70x20
	settle
	shot compact
	tm resize-window -t "$session" -x 36 -y 10
	wait_for "terminal too small"
	size=36x10
	settle
	shot too-small
	keys q
	exited
}

sizes=("$@")
((${#sizes[@]})) || sizes=(80x24 120x40 200x60 small)
for s in "${sizes[@]}"; do
	case $s in
	small) small ;;
	*x*) flow "${s%x*}" "${s#*x}" ;;
	*) echo "capture.sh: a size is COLSxROWS, not $s" >&2; exit 2 ;;
	esac
done
