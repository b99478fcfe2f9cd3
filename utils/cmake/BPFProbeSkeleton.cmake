# Runs `bpftool gen skeleton` for bpfprobe_add_object(... SKELETON):
#   cmake -DBPFTOOL=... -DOBJECT=x.bpf.o -DNAME=x -DOUTPUT=x.skel.h -P BPFProbeSkeleton.cmake
# A script rather than a shell redirection so that a failed bpftool leaves no
# half-written header behind, and so that libbpf's note about the `.bpfprobe`
# section (which it does not know and skips, as it should) stays out of the
# build log.
foreach(v BPFTOOL OBJECT NAME OUTPUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "BPFProbeSkeleton.cmake: -D${v}=... is required")
  endif()
endforeach()
get_filename_component(dir "${OUTPUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
execute_process(COMMAND "${BPFTOOL}" gen skeleton "${OBJECT}" name "${NAME}"
  OUTPUT_FILE "${OUTPUT}.tmp" ERROR_VARIABLE err RESULT_VARIABLE rc)
string(REGEX REPLACE "libbpf: elf: skipping unrecognized data section\\([0-9]+\\) \\.bpfprobe\n?" "" err "${err}")
if(NOT rc EQUAL 0)
  file(REMOVE "${OUTPUT}.tmp")
  message(FATAL_ERROR "bpftool gen skeleton ${OBJECT} failed (${rc}):\n${err}")
endif()
if(err)
  message("${err}")
endif()
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
