//go:build !unix

package main

import (
	"os"
	"os/exec"
)

func ownGroup(cmd *exec.Cmd) {}

func interrupt(cmd *exec.Cmd) { _ = cmd.Process.Signal(os.Interrupt) }

func kill(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
