/* The VDB plugin's interface (libseiche_vdb.so, apps/seiche/vdb_plugin.cpp): plain C, so the
   program loads OpenVDB only when a run asks for VDB files. Linking OpenVDB into the program
   cost every start 48 ms and 30 MB (its relocations and static set-up), VDB or not. */
#ifndef SEICHE_VDB_PLUGIN_H
#define SEICHE_VDB_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes of a .vdb file, allocated by the plugin; released with seiche_vdb_free. On failure
   (return value not 0) the reason is in err. */
typedef int (*seiche_vdb_points_fn)(size_t n, const float* xyz, const float* velocity,
                                    const float* density, const uint32_t* id, double time,
                                    double voxel, char** bytes, size_t* size, char* err,
                                    size_t err_size);
typedef int (*seiche_vdb_level_set_fn)(size_t vertices, const float* xyz, size_t triangles,
                                       const uint32_t* index, double voxel, double time,
                                       char** bytes, size_t* size, char* err, size_t err_size);
typedef void (*seiche_vdb_free_fn)(char* bytes);

#ifdef __cplusplus
}
#endif

#endif
