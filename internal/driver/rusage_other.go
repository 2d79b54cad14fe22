//go:build !unix

package driver

// childrenPeakRSSMB is 0 where getrusage does not exist.
func childrenPeakRSSMB() int64 { return 0 }
