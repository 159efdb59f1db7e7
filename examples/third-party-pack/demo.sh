#!/bin/sh
# A short game of 举手 played with modtool and this pack installed beside it.
#   MODTOOL: the modtool executable (default: modtool on PATH)
#   WORK:    the game folder to create (it must not exist yet)
# Every command is printed before it runs; the script stops at the first failure.
set -eu
MODTOOL=${MODTOOL:-modtool}
WORK=${WORK:?set WORK to a game folder to create, e.g. WORK=/tmp/jushou-demo}
HERE=$(cd "$(dirname "$0")" && pwd)

run() {
    echo "\$ modtool $*"
    "$MODTOOL" "$@"
    echo
}

run new "$WORK" --game jushou --roster "$HERE/roster.yaml"
run import "$WORK" "$HERE/dumps/day1-vote.txt" --thread vote --day 1
run tally "$WORK" --day 1
run tally "$WORK" --day 1 --json
run announce "$WORK" result --day 1
run check "$WORK"
# The director records a deadline before 甲's hand (the game's own command; mafia has a
# deadline too, and this folder reaches 举手's): that hand no longer counts, nobody is chosen ...
run deadline "$WORK" --day 1 --at "2026-11-03 10:15"
run tally "$WORK" --day 1
# ... a typo: undo takes the deadline back (a revert is appended; nothing is rewritten).
run undo "$WORK"
run tally "$WORK" --day 1
