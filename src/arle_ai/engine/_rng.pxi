# Random numbers: xorshift64* streams, seeded by splitmix64.
#
# Offers: rng_seed (a stream's state from a seed), rng_next, rng_below (uniform in 0..n-1).
# Uses: _state (the integer types).
# Invariants: used for the setup draws (State.rng, from the game's seed) and by playouts and
#   searches on their own streams; never by the rules after setup, so a position's future
#   depends only on the choices made. The numbers are part of every seeded result: changing
#   them changes every game of a seed.

cdef inline uint64_t rng_next(uint64_t* st) noexcept nogil:
    cdef uint64_t x = st[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    st[0] = x
    return x * <uint64_t>2685821657736338717ULL

cdef inline uint64_t rng_seed(int64_t seed) noexcept nogil:
    cdef uint64_t z = <uint64_t>seed + <uint64_t>0x9E3779B97F4A7C15ULL
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    z = z ^ (z >> 31)
    if z == 0:
        z = 1
    return z

cdef inline int rng_below(uint64_t* st, int n) noexcept nogil:
    return <int>((rng_next(st) >> 33) % <uint64_t>n)
