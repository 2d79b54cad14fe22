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

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv0() uint32
TEXT ·xgetbv0(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET
