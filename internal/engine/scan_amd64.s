#include "textflag.h"

// func scanLinesAVX2(m *uint64, n int, out *int32) int
TEXT ·scanLinesAVX2(SB), NOSPLIT, $0-32
	MOVQ m+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ out+16(FP), DI
	XORQ AX, AX
	XORQ DX, DX
	TESTQ CX, CX
	JZ done

loop:
	VMOVDQU (SI), Y0
	VPOR 32(SI), Y0, Y0
	MOVL DX, (DI)(AX*4)
	XORL BX, BX
	VPTEST Y0, Y0
	SETNE BX
	ADDQ BX, AX
	ADDQ $64, SI
	ADDQ $8, DX
	DECQ CX
	JNZ loop

done:
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
