# The game state: one fixed-size C struct, no pointers, no Python objects.
#
# Offers: the types State (State.solo: the player count), Player, Vehicle, Frame; the frame
#   kinds K_*, the variants VARIANT_*,
#   the bounds STACK, GOODS_MAX, BOTTLENECKS_MAX, MOOR_TILES, NOVEMBER_BITS; COMPARE_SIZE.
# Uses: _tables (the sizes); libc's integer types, memset, memcmp, memcpy.
# Invariants: copy is a struct assignment; two positions are equal when their first
#   COMPARE_SIZE bytes are (everything before the RNG tail), so every field there is kept
#   canonical (sorted vehicles and moors, zeroed unused frames and slots).

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcmp, memcpy

# The game's names and sizes (goods G_*, animals A_*, tools T_*, barn pieces V_*, action
# spaces S_*/W_*, counts N*) are generated from arle_ai.engine.rules into _tables.pxi.

cdef enum:
    STACK = 12
    GOODS_MAX = 999     # the bound of uncapped goods: gains stop there, validation rejects more
    BOTTLENECKS_MAX = 60  # likewise for supply bottlenecks
    MOOR_TILES = 3      # moor tiles of a home board: hydrated, dehydrated or removed
    NOVEMBER_BITS = 8   # Player.november_used's bits: the November houses are among the first 8

# the game's variants (State.variant; VARIANTS in _api.pxi names them in this order)
cdef enum:
    VARIANT_STANDARD = 0
    VARIANT_FIRST_GAME = 1
    NVARIANTS = 2

# kinds of pending-decision frames
cdef enum:
    K_NONE = 0
    K_TURN = 1          # decision: place a worker, pass, or an anytime action
    K_END_WINDOW = 2    # decision: anytime actions, then STOP (declare the end of the work phase)
    K_INVENTORY = 3     # not used any more (its number stays: FRAME_KINDS names it "unused")
    K_FEED = 4          # decision: give an animal for missing food (feed_owed, feed_lowest)
    K_BREED = 5         # decision: choose a breeding plan
    K_DISCARD = 6       # decision: return an animal that cannot be housed
    K_FINAL_WINDOW = 7  # decision: peat-boat exchange / clock buildings before final scoring, then STOP
    K_NOVEMBER = 8      # decision: light-green houses before November (the houses used: Player.november_used)
    K_ACTION = 9        # decision: a step of an action space (action_of: the space or F_*)
    K_GAME_OVER = 10
    K_ADVANCE = 11      # automatic: the current worker's turn is over
    K_HALF_END = 12     # automatic: end-of-work-phase program (program_step: HE_*)
    NKINDS = 13

ctypedef struct Vehicle:
    int8_t kind         # V_HANDCART .. V_DROSHKY (equipment is counted, not listed)
    int8_t used         # bitmask of used compartments this half-year

ctypedef struct Player:
    int16_t goods[NGOODS]
    int16_t animals[NANIMALS]
    int8_t tools[NTOOLS]      # position index on each track (0 = leftmost)
    int8_t dikes              # dike steps taken, 0..7 (core.md 2.4)
    int8_t hydrated           # hydrated moor tiles
    int8_t dehydrated[MOOR_TILES]  # peat on each dehydrated moor, sorted descending; 0 = no tile
    int8_t boardwalk          # peat on the boardwalk; 0 = removed
    int8_t moors_removed      # moor tiles gone (their 2 spaces are land)
    int8_t grain_fields
    int8_t flax_fields
    int8_t forests
    int8_t parks
    int8_t stalls
    int8_t depots
    int8_t stables
    int8_t double_stalls
    int8_t peat_boats
    int8_t plows
    int8_t nveh
    Vehicle veh[MAXVEH]       # sorted by (kind, used)
    int8_t loaded[NLOAD]      # items on vehicles, converted at the next inventorying
    int8_t travel             # spaces covered on the travel-experience track
    int8_t bottlenecks        # supply bottlenecks suffered (rules.BOTTLENECK_VP each)
    uint8_t november_used     # November houses used in this November window (bit = building
                              # index; NOVEMBER_HOUSES are among the first NOVEMBER_BITS)
    int16_t dest_loaded       # destinations on vehicles (bit = rules.DESTINATIONS index)
    int16_t dest_done         # destinations on the travel track
    uint32_t buildings        # owned buildings (bit = rules.BUILDINGS index)

# A pending decision or automatic program. The fields keep their byte layout and their position-
# file keys (a, b, c, d, m: docs/position-format.md); what each holds depends on the kind and,
# for K_ACTION, on the space or sub-decision: _frames.pxi names each use (program_step,
# feed_owed, paying_for, cuts_left, ...), and the rules code reads them only through those.
ctypedef struct Frame:
    int8_t kind
    int8_t player
    int8_t what         # key "a": action_of (K_ACTION), program_step (K_HALF_END), feed_owed (K_FEED)
    int8_t step         # key "b": a stage of the decision, or feed_lowest (K_FEED)
    int8_t count        # key "c": what is left (repetitions, cuts, moves, tiles, animals), or
                        # the building paid (paying_for) or the destination (delivering_to)
    int8_t low          # key "d": the lowest good, animal, track or tile side still allowed
                        # (choices are taken in increasing order)
    int16_t mask        # key "m": kinds_to_pick (F_PAY_BUILDING), deliveries_made (F_DELIVER)

ctypedef struct State:
    Player pl[NP]
    uint32_t occupied         # action spaces holding a worker this half-year
    uint32_t occupied_by      # bit set: that space holds a worker of player 1
    uint32_t in_play          # buildings put on the game board at setup
    uint32_t available        # buildings still on the game board
    int8_t half_year          # 1..9
    int8_t turn               # workers placed (or passed) this half-year, 0..8
    int8_t start_player
    int8_t special_by         # player who used the special action this half-year, or -1
    int8_t variant            # VARIANT_STANDARD or VARIANT_FIRST_GAME
    int8_t sp                 # frames on the stack
    int8_t solo               # 1: the solo game (one player; pl[1] is the absent seat, see
                              # setup_absent_seat); 0: two players. This byte was padding,
                              # always 0, so older raw two-player positions stay valid.
    int8_t pad1
    Frame stack[STACK]
    # ---- below: not part of equality ----
    uint64_t rng
    int64_t seed

cdef size_t COMPARE_SIZE

cdef void _init_compare_size():
    cdef State probe
    global COMPARE_SIZE
    COMPARE_SIZE = <size_t>(<char*>&probe.rng - <char*>&probe)

_init_compare_size()
