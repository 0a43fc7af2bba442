// The appended-data blocks of VTK XML files ("VTK File Formats", VTK User's Guide 11th ed., XML
// formats), shared by the particle and mesh writers (internal to seiche::io). Raw: the byte
// count (UInt64, header_type="UInt64"), then the bytes. Compressed (compressor=
// "vtkZLibDataCompressor"): the number of blocks, the uncompressed block size, the size of a
// partial last block (0: the last block is full) and each block's compressed size, all UInt64,
// then the zlib streams of the blocks.
#pragma once

#include <cstdint>
#include <string>

namespace seiche::io::vtk {

// True when this build can compress (zlib found).
bool can_compress();

// The block of `bytes` bytes at `data`, as it goes into the appended section.
std::string encode_block(const void* data, std::uint64_t bytes, bool compress);

// The attribute to add to <VTKFile ...> for compressed blocks ("" for raw ones).
inline const char* compressor_attribute(bool compress) {
    return compress ? " compressor=\"vtkZLibDataCompressor\"" : "";
}

}  // namespace seiche::io::vtk
