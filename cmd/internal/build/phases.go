package build

import (
	"fmt"
	"strings"
	"time"
)

// phases records how long each step of a build takes, in wall time and in
// CPU time (user + system of gfz-build and of the go commands it waited
// for), for gfz-build -v and the build-cost benchmark: on a loaded machine
// the CPU time is the figure that compares.
type phases struct {
	list      []phase
	lastWall  time.Time
	lastCPU   time.Duration
	startWall time.Time
	startCPU  time.Duration
}

type phase struct {
	name      string
	wall, cpu time.Duration
}

func newPhases() *phases {
	now, cpu := time.Now(), cpuTime()
	return &phases{lastWall: now, lastCPU: cpu, startWall: now, startCPU: cpu}
}

// done ends the phase started by the previous call (or by newPhases).
func (p *phases) done(name string) {
	if p == nil {
		return
	}
	now, cpu := time.Now(), cpuTime()
	p.list = append(p.list, phase{name, now.Sub(p.lastWall), cpu - p.lastCPU})
	p.lastWall, p.lastCPU = now, cpu
}

// String is one line: "load graph 0.41s (cpu 0.52s), ..., total ...".
func (p *phases) String() string {
	if p == nil {
		return ""
	}
	var parts []string
	for _, ph := range p.list {
		parts = append(parts, fmt.Sprintf("%s %.2fs (cpu %.2fs)", ph.name, ph.wall.Seconds(), ph.cpu.Seconds()))
	}
	parts = append(parts, fmt.Sprintf("total %.2fs (cpu %.2fs)", p.lastWall.Sub(p.startWall).Seconds(), (p.lastCPU-p.startCPU).Seconds()))
	return strings.Join(parts, ", ")
}
