# Hand-written DWARF 4 for resolver robustness tests: a function f(n, loop,
# e, bits) whose types are hostile the way malformed or malicious debug info
# can be. Each is reached by one spec in test/Dwarf/hostile-*.test:
#   struct node  an anonymous member of type struct node (a cycle through
#                findMember), a member 'arr' whose array type is its own
#                element type (a cycle through typeSize)
#   loop         a pointer type whose pointee is itself (a cycle through the
#                type printer)
#   e            an enumeration whose underlying type is itself
#   bits         a struct whose member 'zero' is a bit-field of
#                DW_AT_data_bit_offset 0 and DW_AT_bit_size 0
#   hidden       declared in a lexical block whose DW_AT_ranges points past
#                .debug_ranges
	.text
	.globl	f
	.type	f,@function
f:
	nop
	nop
	nop
	retq
.Lf_end:
	.size	f, .Lf_end-f

	.section	.debug_abbrev,"",@progbits
	.uleb128 1	# compile_unit
	.uleb128 0x11
	.byte 1
	.uleb128 0x25, 0x08	# producer, string
	.uleb128 0x13, 0x05	# language, data2
	.uleb128 0x03, 0x08	# name, string
	.uleb128 0x11, 0x01	# low_pc, addr
	.uleb128 0x12, 0x07	# high_pc, data8
	.byte 0, 0
	.uleb128 2	# subprogram
	.uleb128 0x2e
	.byte 1
	.uleb128 0x03, 0x08	# name
	.uleb128 0x11, 0x01	# low_pc
	.uleb128 0x12, 0x07	# high_pc
	.uleb128 0x3f, 0x19	# external, flag_present
	.uleb128 0x40, 0x18	# frame_base, exprloc
	.byte 0, 0
	.uleb128 3	# formal_parameter
	.uleb128 0x05
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x13	# type, ref4
	.uleb128 0x02, 0x18	# location, exprloc
	.byte 0, 0
	.uleb128 4	# base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x3e, 0x0b	# encoding, data1
	.uleb128 0x0b, 0x0b	# byte_size, data1
	.byte 0, 0
	.uleb128 5	# pointer_type
	.uleb128 0x0f
	.byte 0
	.uleb128 0x49, 0x13	# type
	.uleb128 0x0b, 0x0b	# byte_size
	.byte 0, 0
	.uleb128 6	# structure_type
	.uleb128 0x13
	.byte 1
	.uleb128 0x03, 0x08	# name
	.uleb128 0x0b, 0x0b	# byte_size
	.byte 0, 0
	.uleb128 7	# member
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x13	# type
	.uleb128 0x38, 0x0b	# data_member_location, data1
	.byte 0, 0
	.uleb128 8	# member, anonymous
	.uleb128 0x0d
	.byte 0
	.uleb128 0x49, 0x13	# type
	.uleb128 0x38, 0x0b	# data_member_location
	.byte 0, 0
	.uleb128 9	# member, bit-field
	.uleb128 0x0d
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x13	# type
	.uleb128 0x0d, 0x0b	# bit_size, data1
	.uleb128 0x6b, 0x0b	# data_bit_offset, data1
	.byte 0, 0
	.uleb128 10	# enumeration_type
	.uleb128 0x04
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x13	# type
	.byte 0, 0
	.uleb128 11	# array_type
	.uleb128 0x01
	.byte 1
	.uleb128 0x49, 0x13	# type
	.byte 0, 0
	.uleb128 12	# subrange_type
	.uleb128 0x21
	.byte 0
	.uleb128 0x37, 0x0b	# count, data1
	.byte 0, 0
	.uleb128 13	# lexical_block
	.uleb128 0x0b
	.byte 1
	.uleb128 0x55, 0x17	# ranges, sec_offset
	.byte 0, 0
	.uleb128 14	# variable
	.uleb128 0x34
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x13	# type
	.uleb128 0x02, 0x18	# location
	.byte 0, 0
	.uleb128 15	# pointer_type, no size
	.uleb128 0x0f
	.byte 0
	.uleb128 0x49, 0x13	# type
	.byte 0, 0
	.byte 0

	.section	.debug_info,"",@progbits
.Lcu:
	.long .Lcu_end-.Lcu_version
.Lcu_version:
	.short 4
	.long .debug_abbrev
	.byte 8
	.uleb128 1	# compile_unit
	.asciz "hand-written"
	.short 0x0c	# C99
	.asciz "hostile.c"
	.quad f
	.quad .Lf_end-f
.Lint:
	.uleb128 4
	.asciz "int"
	.byte 5, 4	# DW_ATE_signed, 4 bytes
.Lnode:
	.uleb128 6
	.asciz "node"
	.byte 24
	.uleb128 7
	.asciz "x"
	.long .Lint-.Lcu
	.byte 0
	.uleb128 8	# anonymous: a struct node inside struct node
	.long .Lnode-.Lcu
	.byte 8
	.uleb128 7
	.asciz "arr"
	.long .Lselfarr-.Lcu
	.byte 16
	.byte 0
.Lselfarr:
	.uleb128 11
	.long .Lselfarr-.Lcu	# its own element type
	.uleb128 12
	.byte 2
	.byte 0
.Lnodeptr:
	.uleb128 5
	.long .Lnode-.Lcu
	.byte 8
.Lloop:
	.uleb128 15
	.long .Lloop-.Lcu	# points at itself
.Lenum:
	.uleb128 10
	.asciz "selfish"
	.long .Lenum-.Lcu	# based on itself
.Lbits:
	.uleb128 6
	.asciz "bits"
	.byte 4
	.uleb128 9
	.asciz "zero"
	.long .Lint-.Lcu
	.byte 0	# bit_size 0
	.byte 0	# data_bit_offset 0
	.uleb128 9
	.asciz "ok"
	.long .Lint-.Lcu
	.byte 3
	.byte 0
	.byte 0
.Lbitsptr:
	.uleb128 5
	.long .Lbits-.Lcu
	.byte 8
	.uleb128 2	# subprogram f
	.asciz "f"
	.quad f
	.quad .Lf_end-f
	.uleb128 1
	.byte 0x57	# DW_OP_reg7 (rsp)
	.uleb128 3
	.asciz "n"
	.long .Lnodeptr-.Lcu
	.uleb128 1
	.byte 0x55	# DW_OP_reg5 (rdi)
	.uleb128 3
	.asciz "loop"
	.long .Lloop-.Lcu
	.uleb128 1
	.byte 0x54	# DW_OP_reg4 (rsi)
	.uleb128 3
	.asciz "e"
	.long .Lenum-.Lcu
	.uleb128 1
	.byte 0x51	# DW_OP_reg1 (rdx)
	.uleb128 3
	.asciz "bits"
	.long .Lbitsptr-.Lcu
	.uleb128 1
	.byte 0x52	# DW_OP_reg2 (rcx)
	.uleb128 13	# a block with unreadable ranges
	.long 0x7fff0000
	.uleb128 14
	.asciz "hidden"
	.long .Lint-.Lcu
	.uleb128 1
	.byte 0x50	# DW_OP_reg0
	.byte 0
	.byte 0	# end of f
	.byte 0	# end of the unit
.Lcu_end:

	.section	.debug_ranges,"",@progbits
	.quad 0, 0
