# Hand-written DWARF 4 for test/Dwarf/corrupt-unit-lazy.test: three compile
# units to link beside real ones.
#   bad.c   a base type 'int', then a variable 'v' whose DW_AT_location block
#           states 0x7ffffff0 bytes, far past its unit and the section: LLVM's
#           DIE extraction reads the next attribute's LEB128 from there
#   refd.c  refd(x): x's type is bad.c's 'int', by DW_FORM_ref_addr
#   implp.c implp(p): p is a DW_OP_GNU_implicit_pointer to bad.c's 'v'
# No .debug_aranges: the units are found by their unit DIEs' address ranges.
	.text
	.globl	refd
	.type	refd,@function
refd:
	nop
	retq
.Lrefd_end:
	.size	refd, .Lrefd_end-refd
	.globl	implp
	.type	implp,@function
implp:
	nop
	retq
.Limplp_end:
	.size	implp, .Limplp_end-implp

	.section	.debug_abbrev,"",@progbits
.Labbrev:
	.uleb128 1	# compile_unit without code
	.uleb128 0x11
	.byte 1
	.uleb128 0x03, 0x08	# name, string
	.uleb128 0x13, 0x05	# language, data2
	.byte 0, 0
	.uleb128 2	# compile_unit
	.uleb128 0x11
	.byte 1
	.uleb128 0x03, 0x08	# name, string
	.uleb128 0x13, 0x05	# language, data2
	.uleb128 0x11, 0x01	# low_pc, addr
	.uleb128 0x12, 0x07	# high_pc, data8
	.byte 0, 0
	.uleb128 3	# subprogram
	.uleb128 0x2e
	.byte 1
	.uleb128 0x03, 0x08	# name
	.uleb128 0x11, 0x01	# low_pc
	.uleb128 0x12, 0x07	# high_pc
	.uleb128 0x3f, 0x19	# external, flag_present
	.uleb128 0x40, 0x18	# frame_base, exprloc
	.byte 0, 0
	.uleb128 4	# formal_parameter, type in another unit
	.uleb128 0x05
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x10	# type, ref_addr
	.uleb128 0x02, 0x18	# location, exprloc
	.byte 0, 0
	.uleb128 5	# formal_parameter
	.uleb128 0x05
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x49, 0x13	# type, ref4
	.uleb128 0x02, 0x18	# location, exprloc
	.byte 0, 0
	.uleb128 6	# base_type
	.uleb128 0x24
	.byte 0
	.uleb128 0x03, 0x08	# name
	.uleb128 0x3e, 0x0b	# encoding, data1
	.uleb128 0x0b, 0x0b	# byte_size, data1
	.byte 0, 0
	.uleb128 7	# pointer_type
	.uleb128 0x0f
	.byte 0
	.uleb128 0x49, 0x13	# type
	.uleb128 0x0b, 0x0b	# byte_size
	.byte 0, 0
	.uleb128 8	# variable: the block, then an attribute read after it
	.uleb128 0x34
	.byte 0
	.uleb128 0x02, 0x18	# location, exprloc
	.uleb128 0x3b, 0x0f	# decl_line, udata
	.uleb128 0x03, 0x08	# name
	.byte 0, 0
	.byte 0

	.section	.debug_info,"",@progbits
# bad.c
.Lbad:
	.long .Lbad_end-.Lbad_version
.Lbad_version:
	.short 4
	.long .Labbrev
	.byte 8
	.uleb128 1
	.asciz "bad.c"
	.short 0x0c	# DW_LANG_C99
.Lbad_int:
	.uleb128 6
	.asciz "int"
	.byte 0x05	# DW_ATE_signed
	.byte 4
.Lbad_var:
	.uleb128 8
	.uleb128 0x7ffffff0	# the block's length: past the unit
	.byte 0x30	# DW_OP_lit0
	.uleb128 3
	.asciz "v"
	.byte 0
.Lbad_end:

# refd.c
.Lrefd:
	.long .Lrefd_end_unit-.Lrefd_version
.Lrefd_version:
	.short 4
	.long .Labbrev
	.byte 8
	.uleb128 2
	.asciz "refd.c"
	.short 0x0c
	.quad refd
	.quad .Lrefd_end-refd
	.uleb128 3
	.asciz "refd"
	.quad refd
	.quad .Lrefd_end-refd
	.uleb128 1
	.byte 0x9c	# DW_OP_call_frame_cfa
	.uleb128 4
	.asciz "x"
	.long .Lbad_int	# ref_addr: a .debug_info offset
	.uleb128 1
	.byte 0x55	# DW_OP_reg5 (rdi)
	.byte 0
	.byte 0
.Lrefd_end_unit:

# implp.c
.Limplp:
	.long .Limplp_end_unit-.Limplp_version
.Limplp_version:
	.short 4
	.long .Labbrev
	.byte 8
	.uleb128 2
	.asciz "implp.c"
	.short 0x0c
	.quad implp
	.quad .Limplp_end-implp
	.uleb128 3
	.asciz "implp"
	.quad implp
	.quad .Limplp_end-implp
	.uleb128 1
	.byte 0x9c
	.uleb128 5
	.asciz "p"
	.long .Limplp_ptr-.Limplp
	.uleb128 6
	.byte 0xf2	# DW_OP_GNU_implicit_pointer
	.long .Lbad_var	# a .debug_info offset
	.byte 0	# offset in the variable (sleb128)
	.byte 0
.Limplp_int:
	.uleb128 6
	.asciz "int"
	.byte 0x05
	.byte 4
.Limplp_ptr:
	.uleb128 7
	.long .Limplp_int-.Limplp
	.byte 8
	.byte 0
.Limplp_end_unit:

	.section	.note.GNU-stack,"",@progbits
