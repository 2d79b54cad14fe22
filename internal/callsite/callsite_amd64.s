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

// func Walk(skip int, pcs []uintptr) int
//
// Walk has no frame either: BP is its caller's frame pointer. Each frame
// pointer p holds the next one at 0(p) and the frame's return address at
// 8(p); the chain ends with a zero frame pointer. Nothing here can move
// the stack (no call, no stack check), so the pointers stay valid.
TEXT ·Walk(SB), NOSPLIT, $0-40
	MOVQ skip+0(FP), CX
	MOVQ pcs_base+8(FP), DI
	MOVQ pcs_len+16(FP), SI
	MOVQ BP, DX
	XORQ AX, AX
skip:
	TESTQ CX, CX
	JLE fill
	TESTQ DX, DX
	JZ done
	MOVQ 0(DX), DX
	DECQ CX
	JMP skip
fill:
	CMPQ AX, SI
	JGE done
	TESTQ DX, DX
	JZ done
	MOVQ 8(DX), R8
	TESTQ R8, R8
	JZ done
	MOVQ R8, (DI)(AX*8)
	INCQ AX
	MOVQ 0(DX), DX
	JMP fill
done:
	MOVQ AX, ret+32(FP)
	RET
