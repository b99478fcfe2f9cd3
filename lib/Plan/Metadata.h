//===- Metadata.h - Writer of the .bpfprobe metadata section ----*- C++ -*-===//
//
/// \file
/// Renders a site plan as one record of the `.bpfprobe` section described in
/// docs/metadata.md; the keys come from include/bpfprobe/metadata.h, which
/// the C runtime reader shares.
//===----------------------------------------------------------------------===//

#ifndef BPFPROBE_PLAN_METADATA_H
#define BPFPROBE_PLAN_METADATA_H

#include "Plan/FetchPlan.h"

#include <cstdint>
#include <string>

namespace bpfprobe {

/// One metadata record for Site; default-body sites get their record_id.
std::string formatMetadataRecord(const SitePlan &Site, const ArchABI &ABI);

/// FNV-1a 32-bit hash of a program name: the record id of default bodies.
uint32_t recordIdFor(llvm::StringRef Program);

} // namespace bpfprobe

#endif
