#!/bin/sh
# llvm-dwarfdump that forgets location lists: an oracle that stops answering
# for every parameter whose location changes inside its function (most of
# them at -O2), as a DWARF reader losing a form would. For
# test/ABI/dwarf-oracle-can-fail.test. $DWARFDUMP is the real one.
"$DWARFDUMP" "$@" | sed -e '/DW_AT_location.*loclist/s/DW_AT_location/DW_AT_forgotten/' -e '/DW_AT_location.*(0x[0-9a-f]*:[[:space:]]*$/s/DW_AT_location/DW_AT_forgotten/'
