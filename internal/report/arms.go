package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gfz-dev/gfz/internal/workdir"
)

// The adaptive engine's arms (engine auto: internal/engine/auto.go): the
// stats file lists them ("arms", "arms_parents") with each one's decisions,
// executions and finds ("arm_<name>_chosen", "_execs", "_finds"), and the
// random arm's children of the generation share, made outside the
// decisions ("arm_random_share"), the first of which, while generation
// first lasted, were all the children ("arm_random_first"; the worker
// slots where it ended: "arm_random_first_ended"); the report shows them
// as a table, arms never used left out.

// armRow is one arm of the table.
type armRow struct {
	Kind, Name           string
	Chosen, Execs, Finds string
	Share, PerThousand   string
}

// readArms returns the table's rows from the stats (none without arms),
// whether an arm made children outside the decisions (auto's generation
// share), how many of them generation first made, and whether it had
// ended (in some worker).
func readArms(st *workdir.Stats) (rows []armRow, share bool, first int64, ended bool) {
	first, _ = strconv.ParseInt(statValue(st, "arm_random_first"), 10, 64)
	ended = statValue(st, "arm_random_first_ended") != "0" // a stats file without the key: an older run
	for _, kind := range []struct{ key, label string }{{"arms", "operator"}, {"arms_parents", "parent schedule"}} {
		list := statValue(st, kind.key)
		if list == "" {
			continue
		}
		num := func(k string) int64 {
			v, _ := strconv.ParseInt(statValue(st, k), 10, 64)
			return v
		}
		names := strings.Split(list, ",")
		var total int64
		for _, n := range names {
			total += num("arm_" + n + "_execs")
		}
		for _, n := range names {
			e, f, c := num("arm_"+n+"_execs"), num("arm_"+n+"_finds"), num("arm_"+n+"_chosen")
			if e == 0 && c == 0 {
				continue
			}
			r := armRow{Kind: kind.label, Name: n, Chosen: groupDigits(fmt.Sprint(c)), Execs: groupDigits(fmt.Sprint(e)),
				Finds: groupDigits(fmt.Sprint(f)), Share: "-", PerThousand: "-"}
			if g := num("arm_" + n + "_share"); g > 0 {
				// auto's generation share: executions of the arm no decision made.
				r.Chosen += " + " + groupDigits(fmt.Sprint(g)) + " of the generation share"
				share = true
			}
			if total > 0 {
				r.Share = fmt.Sprintf("%.1f%%", 100*float64(e)/float64(total))
			}
			if e > 0 {
				r.PerThousand = fmt.Sprintf("%.3f", 1000*float64(f)/float64(e))
			}
			rows = append(rows, r)
		}
	}
	return rows, share, first, ended
}
