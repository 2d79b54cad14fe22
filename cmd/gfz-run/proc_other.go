//go:build !unix

package main

import (
	"os"
	"os/exec"
)

func ownGroup(cmd *exec.Cmd) {}

func interrupt(cmd *exec.Cmd) { _ = cmd.Process.Signal(os.Interrupt) }

func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

// diedOfInterrupt: on these systems a process told to stop has no
// signal to have died of.
func diedOfInterrupt(ps *os.ProcessState) bool { return false }
