#include "textflag.h"

// func Caller() uintptr
//
// Caller has no frame of its own, so BP still holds the frame pointer of
// its caller F: 0(BP) is F's caller's saved BP and 8(BP) F's return
// address.
TEXT ·Caller(SB), NOSPLIT, $0-8
	MOVQ 8(BP), AX
	MOVQ AX, ret+0(FP)
	RET
