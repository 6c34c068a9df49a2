#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

/// Makes glibc's malloc map every allocation of at least `bytes` on its own (`M_MMAP_THRESHOLD`),
/// so that a large block is given back to the system when it is freed. Returns 0 on failure.
static inline int cmalloc_map_allocations_from(int bytes) {
#ifdef M_MMAP_THRESHOLD
    return mallopt(M_MMAP_THRESHOLD, bytes);
#else
    return 0;
#endif
}
#else
/// Other C libraries give large blocks back on their own: nothing to tune.
static inline int cmalloc_map_allocations_from(int bytes) { return 1; }
#endif
