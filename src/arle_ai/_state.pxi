# The game state: one fixed-size C struct, no pointers, no Python objects.
# copy() is a struct assignment; equality compares the bytes before the RNG tail.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memset, memcmp, memcpy

cdef enum:
    NP = 2
    NGOODS = 16
    NTOOLS = 10
    NSPACES = 30
    NBUILDINGS = 31
    NDEST = 9
    MAXVEH = 7
    STACK = 12
    NLOAD = 6           # wood, clay, linen, woolen, leather, peat
    GOODS_MAX = 999     # an engine bound for uncapped goods (validation rejects more)

# goods: the first five live on the goods track
cdef enum:
    G_FOOD = 0
    G_GRAIN = 1
    G_FLAX = 2
    G_WOOL = 3
    G_HIDE = 4
    G_WOOD = 5
    G_TIMBER = 6
    G_CLAY = 7
    G_BRICK = 8
    G_PEAT = 9
    G_LINEN = 10
    G_WOOLEN = 11
    G_LEATHER = 12
    G_SUMMER_WEAR = 13
    G_WINTER_WEAR = 14
    G_LEATHER_WEAR = 15

cdef enum:
    A_SHEEP = 0
    A_CATTLE = 1
    A_HORSE = 2

# tools, in rules.TOOLS order
cdef enum:
    T_FISH = 0
    T_FLESH = 1
    T_LOOM = 2
    T_SLAUGHTER = 3
    T_SPADE = 4
    T_SHOVEL = 5
    T_POTTER = 6
    T_OVEN = 7
    T_AXE = 8
    T_BENCH = 9

# barn pieces, in rules.VEHICLES order
cdef enum:
    V_PEAT_BOAT = 0
    V_PLOW = 1
    V_HANDCART = 2
    V_WAGON = 3
    V_CART = 4
    V_HORSE_CART = 5
    V_CARRIAGE = 6
    V_DROSHKY = 7
    NVKINDS = 8

# action spaces: summer 0..14, winter 15..29, in rules.ACTION_SPACES order
cdef enum:
    S_FISHERMAN = 0
    S_GROCER = 1
    S_WOOL_WEAVER = 2
    S_COLONIST = 3
    S_PEAT_CUTTER = 4
    S_DIKE_BUILDER = 5
    S_CLAY_WORKER = 6
    S_FARMER = 7
    S_FORESTER = 8
    S_WOODCUTTER = 9
    S_MASTER = 10
    S_CARPENTER = 11
    S_BUILDER = 12
    S_WARDEN = 13
    S_LABORER = 14
    W_PEAT_BOATMAN = 15
    W_TANNER = 16
    W_LINEN_WEAVER = 17
    W_BUTCHER = 18
    W_CATTLE_TRADER = 19
    W_GROCER = 20
    W_BUILDERS_MERCHANT = 21
    W_POTTER = 22
    W_BAKER = 23
    W_WOOD_TRADER = 24
    W_MASTER = 25
    W_WAINWRIGHT = 26
    W_DIKE_WARDEN = 27
    W_CARPENTER = 28
    W_LABORER = 29

# kinds of pending-decision frames
cdef enum:
    K_NONE = 0
    K_TURN = 1          # decision: place a worker, pass, or an anytime action
    K_END_WINDOW = 2    # decision: anytime actions, then STOP (declare the end of the work phase)
    K_INVENTORY = 3     # automatic: inventorying program (a = step counter)
    K_FEED = 4          # decision: give an animal for missing food (a = animals still owed, b = lowest type allowed)
    K_BREED = 5         # decision: choose a breeding plan
    K_DISCARD = 6       # decision: return an animal that cannot be housed
    K_FINAL_WINDOW = 7  # decision: peat-boat exchange / clock buildings before final scoring, then STOP
    K_NOVEMBER = 8      # decision: light-green houses before November (a = houses already resolved)
    K_ACTION = 9        # decision: a step of an action space (a = space, b = step, c, d = counters)
    K_GAME_OVER = 10
    K_ADVANCE = 11      # automatic: the current worker's turn is over
    K_HALF_END = 12     # automatic: end-of-work-phase program (a = program counter)
    NKINDS = 13

ctypedef struct Vehicle:
    int8_t kind         # V_HANDCART .. V_DROSHKY (equipment is counted, not listed)
    int8_t used         # bitmask of used compartments this half-year

ctypedef struct Player:
    int16_t goods[NGOODS]
    int16_t animals[3]
    int8_t tools[NTOOLS]      # position index on each track (0 = leftmost)
    int8_t dikes              # dike steps taken, 0..7 (core.md 2.4)
    int8_t hydrated           # hydrated moor tiles
    int8_t dehydrated[3]      # peat on each dehydrated moor, sorted descending; 0 = no tile
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
    int8_t bottlenecks        # supply bottlenecks suffered (-2 VP each)
    int8_t november_used      # light-green houses already used in this November window (bitmask by index 0..3)
    int16_t dest_loaded       # destinations on vehicles (bit = rules.DESTINATIONS index)
    int16_t dest_done         # destinations on the travel track
    uint32_t buildings        # owned buildings (bit = rules.BUILDINGS index)

ctypedef struct Frame:
    int8_t kind
    int8_t player
    int8_t a
    int8_t b
    int8_t c
    int8_t d
    int16_t m           # a bitmask (e.g. the tracks already advanced by a Master action)

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
    int8_t variant            # 0 standard, 1 first-game
    int8_t sp                 # frames on the stack
    int8_t pad0
    int8_t pad1
    Frame stack[STACK]
    # ---- below: not part of equality ----
    uint64_t rng
    int64_t seed


# ---- action ids: each id has one fixed meaning (docs/notation.md) ----
cdef enum:
    NLOAD_ITEMS = 15        # wood, clay, linen, woolen, leather, peat (Loading Station), 9 destinations
    ACT_STOP = 0            # end an "up to" choice / an anytime window
    ACT_PASS = 1            # take the worker off its month without acting
    ACT_PLACE = 2           # + space (30): place a worker there (other season = special action)
    ACT_EXCHANGE = 32       # + track good (5): peat boat, 1 peat -> 1 food/grain/flax/wool/hide
    ACT_USE = 37            # + building (31): use a clock (any time) or November building
    ACT_LOAD = 68           # + (item * MAXVEH + vehicle slot) * 4 + first compartment
    ACT_GOOD = 488          # + good (16): choose / take / pay that good
    ACT_ANIMAL = 504        # + animal type (3): choose / take / give / return that animal
    ACT_TOOL = 507          # + tool (10): advance that tool
    ACT_BUILD = 517         # + building (31): build that building
    ACT_VEHICLE = 548       # + barn piece (8): build / take that piece
    ACT_CUT = 556           # + source (5): cut 1 peat; 0 = boardwalk, k = a dehydrated moor holding k
    ACT_IMITATE = 561       # + space (30): the Laborer uses that occupied space
    ACT_FLIP = 591          # + flip target (8): moor, forest, stall, stable, peat boat, handcart, cart, carriage
    ACT_TILE = 599          # + home tile (4): grain field, flax field, forest, stall
    ACT_BREED = 603         # + plan (24): the k-th breeding plan (Pareto-maximal newborns, sorted)
    ACT_MORE = 627          # one more repetition of the pending exchange
    ACT_DELIVER = 628       # + destination * 5 + delivery: make that delivery
    NUM_ACTIONS = 673
    MAX_LEGAL = 673

cdef enum:
    FLIP_MOOR = 0
    FLIP_FOREST = 1
    FLIP_STALL = 2
    FLIP_STABLE = 3
    FLIP_PEAT_BOAT = 4
    FLIP_HANDCART = 5
    FLIP_CART = 6
    FLIP_CARRIAGE = 7

cdef enum:
    TILE_GRAIN_FIELD = 0
    TILE_FLAX_FIELD = 1
    TILE_FOREST = 2
    TILE_STALL = 3
