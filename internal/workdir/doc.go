// Package workdir is a fuzz run's work directory and the formats of its
// files: corpus entries and failure inputs (Go's native fuzz corpus format,
// or a target's own Codec), failure reports (written by Report.Format, read
// by ParseReport), the stats file and plot_data, the unconfirmed timeouts,
// the dictionary copy and the lock that keeps two runs out of one
// directory. Every file that must survive is written atomically (a
// temporary file renamed or linked into place, then the directory synced).
//
// The engine's loop, the supervisor, the fuzz binary's driver, gfz-run, the
// HTML report and the benchmark harness all read and write work directories
// through this package.
package workdir
